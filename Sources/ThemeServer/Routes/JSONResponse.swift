import Hashing
import HTTPServer
import HTTPTypes
import JSON
import ThemeIndex

/// How JSON answers are made: the body, its content type and caching, and an ETag that is the
/// SHA-256 of the body itself (the same on every machine serving the same themes).
public enum JSONResponse {
    public static func make(_ value: JSONValue, cacheControl: String = "public, max-age=10", etagged: Bool = false) -> Response {
        var json = JSONWriter()
        json.value(value)
        return make(json, cacheControl: cacheControl, etagged: etagged)
    }

    /// A typed body, written as every other answer is (through `JSONValueEncoder`). A value with
    /// no JSON form (a NaN) is this server's fault: 500, naming where it is.
    public static func make(encoding body: some Encodable, cacheControl: String = "public, max-age=10", etagged: Bool = false) throws(APIError) -> Response {
        do {
            return make(try JSONValueEncoder().encode(body), cacheControl: cacheControl, etagged: etagged)
        } catch {
            throw APIError(status: .internalServerError, code: "internal", message: "the answer could not be written: \(error)")
        }
    }

    /// An answer written with a `JSONWriter` (a large one, member by member).
    static func make(_ json: JSONWriter, cacheControl: String = "public, max-age=10", etagged: Bool = false) -> Response {
        let body = body(json)
        var headers = headers(cacheControl: cacheControl)
        if etagged { headers[.eTag] = ContentResponse.etag(ContentHash.of(body)) }
        return Response(status: .ok, headers: headers, body: body)
    }

    /// A JSON answer's body: the document and a newline.
    static func body(_ json: JSONWriter) -> [UInt8] {
        var body = json.bytes
        body.append(UInt8(ascii: "\n"))
        return body
    }

    /// A JSON answer's headers.
    static func headers(cacheControl: String) -> HTTPFields {
        [.contentType: "application/json; charset=utf-8", .cacheControl: cacheControl]
    }

    /// Marks a response as depending on the client's languages and names the one chosen.
    static func localized(_ response: Response, _ localization: String?) -> Response {
        var response = response
        response.headers[.vary] = "Accept-Language"
        if let localization { response.headers[.contentLanguage] = languageTag(localization) }
        return response
    }

    /// A localization folder name as a BCP 47 tag for Content-Language (`en_GB` -> `en-GB`).
    static func languageTag(_ localization: String) -> String {
        localization.replacingOccurrences(of: "_", with: "-")
    }
}

extension HTTPField.Name {
    static let acceptCH = HTTPField.Name("Accept-CH")!
    static let themedVariant = HTTPField.Name("X-Themed-Variant")!
    static let lastEventID = HTTPField.Name("Last-Event-ID")!
    static let surrogateKey = HTTPField.Name("Surrogate-Key")!
    static let xkey = HTTPField.Name("xkey")!
    /// On a 421: the shard that serves the theme asked for ("2/8").
    static let themedShard = HTTPField.Name("Themed-Shard")!
    /// On a palette that is not whole (`degraded`) or not the newest files' (`stale`): which, and
    /// where its problems are listed.
    static let themedStatus = HTTPField.Name("Themed-Status")!
    /// On a degraded palette: the colours it lacks that its last whole generation had.
    static let themedMissing = HTTPField.Name("Themed-Missing")!
}

extension Response {
    /// The same response with another status (a JSON answer made as 200, sent as 201 or 202).
    public func with(status: HTTPResponse.Status) -> Response {
        var response = self
        response.status = status
        return response
    }
}
