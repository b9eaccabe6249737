import HTTPTypes

/// The head of answers that differ only in their bodies (a computed answer's, like `/assign`'s),
/// serialised once: each answer adds its Content-Length to it and goes out as a prepared answer
/// does, its status line and header lines not formatted again (`Response.prepared()` keeps them).
public struct ResponseTemplate: Sendable {
    public let status: HTTPResponse.Status
    public let headers: HTTPFields
    /// The status line and header lines, without Content-Length.
    private let fixedPart: [UInt8]

    public init(_ response: Response) {
        (status, headers) = (response.status, response.headers)
        fixedPart = ResponseWriter.fixedPart(status: status, headers: headers, bodyLength: nil)
    }

    /// An answer with `body`, its head prepared: the same bytes `Response.prepared()` would make.
    public func response(body: [UInt8]) -> Response {
        var head = fixedPart
        head.reserveCapacity(fixedPart.count + 24)
        head += "Content-Length: ".utf8
        ResponseWriter.appendDecimal(body.count, to: &head)
        head += ResponseWriter.crlf
        var response = Response(status: status, headers: headers, body: body)
        response.preparedHead = PreparedHead(bytes: head, bodyLength: body.count)
        return response
    }
}
