import HTTPServer
import HTTPTypes
import ThemeContent

/// Sends compressible answers (JSON, SVG, PDF, text) brotli- or gzip-encoded when the request's
/// `Accept-Encoding` allows, and says `Vary: Accept-Encoding` on every compressible answer.
///
/// Each encoding is made once per content, on the worker pool, and stored as a blob like any
/// other; its ETag is the SHA-256 of the encoded bytes, which are the same on every machine.
struct CompressionMiddleware: Middleware {
    let content: ContentStore
    /// Smaller answers are sent as they are: the encoding would save less than a packet.
    static let minimumBytes = 512

    func respond(to request: Request, next: (Request) -> RoutedResponse) -> RoutedResponse {
        var routed = next(request)
        let coding = request.headers[.acceptEncoding].flatMap(ContentCoding.preferred(byAcceptEncoding:))
        routed.response = routed.response.map { [content] response in
            guard response.status == .ok, response.headers[.contentEncoding] == nil,
                  let type = response.headers[.contentType], ContentCoding.isCompressible(type) else { return response }
            let varied = Self.varied(response)
            guard let coding, let identity = ContentResponse.content(of: response), identity.count >= Self.minimumBytes else { return varied }
            if let encoded = content.encoded(identity, as: coding) { return Self.encoded(varied, encoded, coding, identity) }
            return Response(deferred: { complete in
                content.encode(identity, as: coding) { result in
                    guard case .success(let encoded) = result else { return complete(varied) } // busy: send it as it is
                    complete(Self.encoded(varied, encoded, coding, identity))
                }
            })
        }
        return routed
    }

    private static func varied(_ response: Response) -> Response {
        var varied = response
        varied.headers[.vary] = [response.headers[.vary], "Accept-Encoding"].compactMap { $0 }.joined(separator: ", ")
        return varied
    }

    /// The answer with the encoded bytes, their ETag and `Content-Encoding`; unchanged when the
    /// encoding turned out no smaller (it is then the identity content itself).
    private static func encoded(_ response: Response, _ encoded: ContentStore.Content, _ coding: ContentCoding,
                                _ identity: ContentStore.Content) -> Response {
        guard encoded.digest != identity.digest else { return response }
        var body = ContentResponse.make(encoded, cacheControl: "", status: response.status)
        body.headers = response.headers
        body.headers[.eTag] = ContentResponse.etag(encoded.digest)
        body.headers[.contentEncoding] = coding.rawValue
        return body
    }
}
