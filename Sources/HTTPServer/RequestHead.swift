import HTTPTypes

/// A request as the parser checked it, before any String or `HTTPFields` is made of it: the
/// method, the target and the field lines as the bytes received.
///
/// Why: most answers need a `Request` (`request()` makes it), but an answer kept to be sent again
/// needs only the target and a few fields to be found, and the server hands the head to its
/// `HeadResponder` first. Such a request is then answered without the
/// allocations of its Strings and fields. Everything here was checked as `Request` would be: the
/// target's encoding, each field's name and value, the Host and the framing.
public struct RequestHead: Sendable {
    public let method: HTTPRequest.Method
    /// The request line and the field lines, as received.
    private let bytes: [UInt8]
    /// Where the target is in `bytes`; an absolute-form target is kept reduced to origin form.
    private let targetRange: Range<Int>
    private let reducedTarget: [UInt8]?
    /// Where the field lines start in `bytes`.
    private let fieldsStart: Int
    public internal(set) var body: [UInt8] = []
    public let remoteAddress: String
    /// When the server read it, and which event loop did (see `Request`); nil made in-process.
    public internal(set) var received: Moment?
    public internal(set) var loop: Int?

    /// `bytes`, the head from its request line through the empty line, starts at offset `start` of
    /// the bytes parsed, in which `requestLine` and `fieldsStart` are offsets.
    init(method: HTTPRequest.Method, bytes: ArraySlice<UInt8>, start: Int, requestLine: RequestLine, fieldsStart: Int, remoteAddress: String) {
        self.method = method
        self.bytes = Array(bytes)
        targetRange = (requestLine.target.lowerBound - start) ..< (requestLine.target.upperBound - start)
        reducedTarget = requestLine.reducedTarget
        self.fieldsStart = fieldsStart - start
        self.remoteAddress = remoteAddress
    }

    /// Calls `body` with the target in origin form (`/themes/dark/colors/primary?appearance=dark`), as sent.
    public func withTarget<Result>(_ body: (Span<UInt8>) -> Result) -> Result {
        if let reducedTarget { return body(reducedTarget.span) }
        return body(bytes.span.extracting(targetRange))
    }

    /// Calls `visit` with each field's name as sent and its value without the white space around
    /// it, in the order they came.
    public func forEachField(_ visit: (_ name: Span<UInt8>, _ value: Span<UInt8>) -> Void) {
        let bytes = bytes.span
        var cursor = fieldsStart
        while let end = bytes.firstIndex(of: .lf, in: cursor ..< bytes.count) {
            let line = RequestParser.line(bytes, from: cursor, to: end)
            cursor = end + 1
            // Every line was checked by the parser: it has a colon, the empty line ends the head.
            guard !line.isEmpty, let colon = bytes.firstIndex(of: .colon, in: line) else { return }
            visit(bytes.extracting(line.lowerBound ..< colon), bytes.extracting(RequestParser.trimmed(bytes, (colon + 1) ..< line.upperBound)))
        }
    }

    /// The request handlers get: its fields made, its target decoded.
    public func request() throws(Request.TargetError) -> Request {
        var fields = HTTPFields()
        forEachField { name, value in
            guard let name = RequestParser.fieldName(name) else { return } // not so: the parser checked every name
            fields.append(HTTPField(name: name, value: value.withUnsafeBufferPointer { String(decoding: $0, as: UTF8.self) }))
        }
        return try request(headers: fields)
    }

    /// The request as a route that reads only its target sees it (a direct route's: see
    /// ThemeServer's `Route.direct`): its method, target, body, peer, time and loop, and no fields,
    /// whose Strings and `HTTPFields` such a route would make for nothing.
    public func targetOnlyRequest() throws(Request.TargetError) -> Request {
        try request(headers: [:])
    }

    private func request(headers: HTTPFields) throws(Request.TargetError) -> Request {
        let target = withTarget { $0.withUnsafeBufferPointer { String(decoding: $0, as: UTF8.self) } }
        var request = try Request(method: method, target: target, headers: headers, body: body, remoteAddress: remoteAddress)
        (request.received, request.loop) = (received, loop)
        return request
    }
}
