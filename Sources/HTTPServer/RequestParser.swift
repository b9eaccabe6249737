#if canImport(Glibc)
import Glibc
#endif
import HTTPTypes


/// Incremental HTTP/1.1 request parsing (RFC 9112, with the checks RFC 9110 asks of a server):
/// takes the bytes received so far and returns a complete request, "need more", or the error
/// status to answer with before closing.
///
/// Bytes are checked as they arrive, so a client that sends garbage (or a TLS handshake to the
/// plain port) is answered at once instead of waiting for a blank line that never comes. Lines end
/// with CRLF or a bare LF (9112 2.2); a bare CR elsewhere is an error.
///
/// This file drives the stages; each has a file of its own: the request line (`RequestLine.swift`),
/// the field lines and the fields that frame a request (`FieldLineParsing.swift`), the body's
/// framing (`BodyFraming.swift`), and the byte scanning and character classes they share
/// (`ByteScanning.swift`).
public struct RequestParser: Sendable {
    public struct Limits: Sendable {
        public var requestLineBytes: Int
        public var headerBytes: Int
        public var bodyBytes: Int

        public init(requestLineBytes: Int, headerBytes: Int, bodyBytes: Int) {
            (self.requestLineBytes, self.headerBytes, self.bodyBytes) = (requestLineBytes, headerBytes, bodyBytes)
        }
    }

    public enum Outcome {
        /// A complete request: its checked head (`RequestHead.request()` makes the `Request`).
        case request(RequestHead, keepAlive: Bool, version: HTTPVersion, consumed: Int)
        /// More bytes are needed; `head` says whether the head is complete and the body is being
        /// waited for (and whether the client waits for `100 Continue` before sending it).
        case incomplete(HeadProgress)
        /// The head of an upload route's request (see `BodySpool`): its body, `length` bytes,
        /// follows the `consumed` bytes of the head and goes to a file before the request is handled.
        case spool(Request, length: Int, keepAlive: Bool, version: HTTPVersion, consumed: Int)
        /// Answer with this status and close the connection.
        case failure(HTTPResponse.Status, String)
    }

    public enum HeadProgress: Equatable, Sendable {
        case receivingHead
        case receivingBody(expectsContinue: Bool)
    }

    public let limits: Limits
    /// Upload routes, whose bodies go to a file (nil: every body is read into memory).
    public let spool: BodySpool?

    public init(limits: Limits, spool: BodySpool? = nil) {
        self.limits = limits
        self.spool = spool
    }

    public func parse(_ buffer: ArraySlice<UInt8>, remoteAddress: String) -> Outcome {
        // The head is read through a Span: every read checked, and no reference counted per slice.
        let bytes = buffer.span
        let base = buffer.startIndex
        var cursor = 0
        // 9112 2.2: empty lines before the request line are ignored.
        while cursor < bytes.count, bytes[cursor] == .cr || bytes[cursor] == .lf {
            if bytes[cursor] == .cr, cursor + 1 < bytes.count, bytes[cursor + 1] != .lf { return .failure(.badRequest, "bare CR") }
            cursor += 1
        }
        let start = cursor
        guard let lineEnd = bytes.firstIndex(of: .lf, in: start ..< bytes.count) else {
            if case .failure(let failure) = RequestLine.read(bytes, line: start ..< bytes.count, complete: false) {
                return .failure(failure.status, failure.message)
            }
            if bytes.count - start > limits.requestLineBytes { return .failure(.uriTooLong, "request line too long") }
            return .incomplete(.receivingHead)
        }
        guard lineEnd - start <= limits.requestLineBytes + 1 else { return .failure(.uriTooLong, "request line too long") }
        let requestLine: RequestLine
        switch RequestLine.read(bytes, line: Self.line(bytes, from: start, to: lineEnd), complete: true) {
        case .line(let line): requestLine = line
        case .failure(let failure): return .failure(failure.status, failure.message)
        case .incomplete: return .incomplete(.receivingHead) // not so: the line is complete
        }

        // Header fields, up to the empty line that ends the head: each checked, and those that
        // frame the message noted; no String is made of the others here.
        var framingFields = FramingFields()
        cursor = lineEnd + 1
        let fieldsStart = cursor
        while true {
            guard let end = bytes.firstIndex(of: .lf, in: cursor ..< bytes.count) else {
                if bytes.count - fieldsStart > limits.headerBytes { return .failure(.requestHeaderFieldsTooLarge, "headers too large") }
                if let problem = Self.checkPartialField(buffer[(base + cursor)...]) { return .failure(.badRequest, problem) }
                return .incomplete(.receivingHead)
            }
            guard end - fieldsStart <= limits.headerBytes else { return .failure(.requestHeaderFieldsTooLarge, "headers too large") }
            let line = Self.line(bytes, from: cursor, to: end)
            cursor = end + 1
            if line.isEmpty { break }
            switch Self.field(bytes, line: line) {
            case .success(let field): framingFields.note(field, in: bytes)
            case .failure(let failure): return .failure(.badRequest, failure.message)
            }
        }
        var head = RequestHead(method: requestLine.method, bytes: buffer[(base + start) ..< (base + cursor)], start: start,
                               requestLine: requestLine, fieldsStart: fieldsStart, remoteAddress: remoteAddress)

        // An upload route's body goes to a file (see `BodySpool`), under the spool's own limit;
        // its size must be known before a byte of it is read. A GET or HEAD is never an upload.
        var upload: Upload?
        if let spool, head.method != .get, head.method != .head, let request = try? head.request(), spool.accepts(request) {
            upload = Upload(request: request, spool: spool)
        }
        let framing: BodyFraming
        switch BodyFraming.of(framingFields, limit: upload?.spool.maxBytes ?? limits.bodyBytes) {
        case .success(.chunked) where upload != nil: return .failure(.lengthRequired, "an upload here must give Content-Length")
        case .success(let value): framing = value
        case .failure(let failure): return .failure(failure.status, failure.message)
        }
        if case .failure(let failure) = Self.checkHost(framingFields, requestLine: requestLine, in: bytes) { return .failure(.badRequest, failure.message) }
        let expectation = framingFields.expectation
        guard expectation == nil || expectation == "100-continue" else { return .failure(.expectationFailed, "only Expect: 100-continue is supported") }
        if let problem = head.withTarget(Request.problem(withTarget:)) { return .failure(.badRequest, problem.description) }

        let keepAlive = framingFields.keepAlive(version: requestLine.version)
        if let upload {
            let length = if case .length(let count) = framing { count } else { 0 }
            return .spool(upload.request, length: length, keepAlive: keepAlive, version: requestLine.version, consumed: cursor)
        }

        switch framing.read(buffer[(base + cursor)...], limit: limits.bodyBytes) {
        case .complete(let body, let end):
            head.body = body
            return .request(head, keepAlive: keepAlive, version: requestLine.version, consumed: end - base)
        case .incomplete:
            return .incomplete(.receivingBody(expectsContinue: expectation == "100-continue"))
        case .failure(let failure):
            return .failure(failure.status, failure.message)
        }
    }

    /// An upload route's request and the spool its body goes to.
    private struct Upload {
        let request: Request
        let spool: BodySpool
    }

    /// A line without its LF and the CR before it (of a chunked body's framing).
    static func line(_ buffer: ArraySlice<UInt8>, from start: Int, to lineFeed: Int) -> ArraySlice<UInt8> {
        lineFeed > start && buffer[lineFeed - 1] == .cr ? buffer[start ..< lineFeed - 1] : buffer[start ..< lineFeed]
    }

    /// A line without its LF and the CR before it.
    static func line(_ bytes: Span<UInt8>, from start: Int, to lineFeed: Int) -> Range<Int> {
        lineFeed > start && bytes[lineFeed - 1] == .cr ? start ..< lineFeed - 1 : start ..< lineFeed
    }

    struct Failure: Error {
        var status: HTTPResponse.Status = .badRequest
        var message: String
    }
}
