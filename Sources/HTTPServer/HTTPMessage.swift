#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import HTTPTypes
import Synchronization

/// A parsed request, as handlers see it.
public struct Request: Sendable {
    public var method: HTTPRequest.Method
    /// The request target as sent (`/themes/dark/colors/primary?appearance=dark`).
    public var target: String
    /// The decoded path, without the query.
    public var path: String
    public var headers: HTTPFields
    public var body: [UInt8]
    /// The body of an upload route, on disk (see `BodySpool`); `body` is then empty.
    public var spooledBody: SpooledBody?
    public var remoteAddress: String
    /// When the server read the request (its event loop's clock at that wake); nil for a request
    /// made in-process. Durations in metrics and logs count from here.
    public var received: Moment?
    /// The number of the event loop that read it (below `HTTPServer.loopCount`); nil for a request
    /// made in-process. State kept per loop (`PerLoop`) is found by it.
    public internal(set) var loop: Int?

    /// A request with its target decoded into path and query: how the parser builds one, and how
    /// tests hand one straight to a handler. Throws when the target's percent-encoding is broken.
    public init(method: HTTPRequest.Method = .get, target: String, headers: HTTPFields = [:], body: [UInt8] = [],
                remoteAddress: String = "127.0.0.1:0") throws(TargetError) {
        var target = target
        // Cut at '?' on the UTF-8 bytes: it is ASCII, so the cut is at a character boundary, and a
        // byte search needs no grapheme breaking.
        let (path, problem) = target.withUTF8 { bytes -> (TargetPart, TargetError?) in
            if let problem = Self.problem(withTargetBytes: bytes) { return (.broken, problem) }
            let (pathBytes, queryBytes) = Self.split(bytes)
            if queryBytes == nil && !pathBytes.contains(UInt8(ascii: "%")) { return (.wholeTarget, nil) } // no copy to make
            return (PercentDecoding.decode(pathBytes, plusIsSpace: false).map { .decoded($0) } ?? .broken, nil)
        }
        if let problem { throw problem }
        switch path {
        case .wholeTarget: self.path = target
        case .decoded(let decoded): self.path = decoded
        case .broken: throw TargetError(description: "bad percent-encoding in path")
        }
        (self.method, self.target, self.headers, self.body, self.remoteAddress) = (method, target, headers, body, remoteAddress)
    }

    /// What is wrong with a target's percent-encoding (nil when nothing is): the parser's check,
    /// before a `Request` is made, and the first step of `init`.
    static func problem(withTarget target: Span<UInt8>) -> TargetError? {
        target.withUnsafeBufferPointer(problem(withTargetBytes:))
    }

    /// A path decodes unless a '%' is broken; a query is decoded once to be sure when it has a '%'.
    private static func problem(withTargetBytes bytes: UnsafeBufferPointer<UInt8>) -> TargetError? {
        let (path, query) = split(bytes)
        if path.contains(UInt8(ascii: "%")) && PercentDecoding.decode(path, plusIsSpace: false) == nil {
            return TargetError(description: "bad percent-encoding in path")
        }
        if let query, query.contains(UInt8(ascii: "%")) && !decodeQuery(query, { _, _ in }) {
            return TargetError(description: "bad percent-encoding in query")
        }
        return nil
    }

    /// Query parameters, decoded; the last occurrence of a name wins. Decoded when asked, not when
    /// the request is made: a request answered from a kept answer never asks.
    public var query: [String: String] {
        var query: [String: String] = [:]
        if !forEachQueryItem({ name, value in query[name] = value }) { query = [:] }
        return query
    }

    /// Hands `body` every decoded parameter in order, a name as often as it comes, with no
    /// list made (for a reader that keeps a few of them as they go by); false when an encoding is broken
    /// (after those before it were handed on).
    @discardableResult
    public func forEachQueryItem(_ body: (_ name: String, _ value: String) -> Void) -> Bool {
        var target = target
        return target.withUTF8 { bytes in Self.split(bytes).query.map { Self.decodeQuery($0, body) } ?? true }
    }

    /// The target's bytes before the first '?', and those after it (nil without a '?').
    private static func split(_ bytes: UnsafeBufferPointer<UInt8>) -> (path: UnsafeBufferPointer<UInt8>, query: UnsafeBufferPointer<UInt8>?) {
        guard let question = bytes.firstIndex(of: UInt8(ascii: "?")) else { return (bytes, nil) }
        return (UnsafeBufferPointer(rebasing: bytes[..<question]), UnsafeBufferPointer(rebasing: bytes[(question + 1)...]))
    }

    /// `name=value` pairs cut at '&' and '=' (ASCII, so every cut is at a character boundary),
    /// each side percent-decoded with `+` as a space, handed to `body`; false at the first
    /// broken encoding.
    private static func decodeQuery(_ bytes: UnsafeBufferPointer<UInt8>, _ body: (String, String) -> Void) -> Bool {
        var start = bytes.startIndex
        while start < bytes.endIndex {
            let end = bytes[start...].firstIndex(of: UInt8(ascii: "&")) ?? bytes.endIndex
            if end > start {
                let pair = UnsafeBufferPointer(rebasing: bytes[start..<end])
                let equals = pair.firstIndex(of: UInt8(ascii: "=")) ?? pair.endIndex
                guard let key = PercentDecoding.decode(UnsafeBufferPointer(rebasing: pair[..<equals]), plusIsSpace: true),
                      let value = PercentDecoding.decode(UnsafeBufferPointer(rebasing: pair[min(equals + 1, pair.endIndex)...]), plusIsSpace: true) else {
                    return false
                }
                body(key, value)
            }
            start = end + 1
        }
        return true
    }

    /// The path part of the target as decoding left it.
    private enum TargetPart {
        case wholeTarget
        case decoded(String)
        case broken
    }

    /// A request target that cannot be decoded.
    public struct TargetError: Error, CustomStringConvertible {
        public var description: String
    }

    /// The path split at `/`, empty segments dropped.
    public var pathSegments: [String] {
        // Split on the UTF-8 bytes: '/' is ASCII, and byte splitting avoids grapheme breaking.
        var path = path
        return path.withUTF8 { bytes in
            bytes.split(separator: UInt8(ascii: "/")).map { String(decoding: UnsafeBufferPointer(rebasing: $0), as: UTF8.self) }
        }
    }
}

/// A response: status, headers and either bytes or a stream the handler keeps writing to.
public struct Response: Sendable {
    public var status: HTTPResponse.Status {
        didSet { preparedHead = nil }
    }
    public var headers: HTTPFields {
        didSet { preparedHead = nil }
    }
    public var body: Body
    /// Fields that belong to the request being answered, not to the answer (its request id, the
    /// CORS lines for the Origin that asked): sent after `headers`, and kept apart from them so
    /// that an answer kept for many requests keeps its prepared head.
    public var requestFields = FieldLines()
    /// The status line and header lines already serialised, for answers that are sent many times.
    var preparedHead: PreparedHead?

    /// The same response with its status line, header lines and Content-Length serialised once:
    /// each send of a kept answer then copies those bytes instead of formatting them again.
    public func prepared() -> Response {
        var copy = self
        let length: Int? = switch body {
        case .bytes(let bytes): bytes.count
        case .file(let region): region.count
        case .stream, .deferred: nil
        }
        // Made from a `ResponseTemplate` (and not changed since: a new status or headers drop it).
        if let length, preparedHead?.bodyLength == length { return copy }
        if let length {
            copy.preparedHead = PreparedHead(bytes: ResponseWriter.fixedPart(status: status, headers: headers, bodyLength: length), bodyLength: length)
        }
        return copy
    }

    /// The same response in storage of its own (headers, body bytes, prepared head): sending a copy
    /// counts references only on that storage, so an event loop that sends its own copy of an
    /// answer touches nothing that the other loops' copies touch (see `PerLoop`). A file body
    /// still refers to the same open file.
    public func ownCopy() -> Response {
        func copied(_ bytes: [UInt8]) -> [UInt8] { bytes.withUnsafeBufferPointer { Array($0) } }
        var copy = self
        copy.headers = HTTPFields(headers.map { HTTPField(name: $0.name, value: $0.value) })
        if case .bytes(let bytes) = body { copy.body = .bytes(copied(bytes)) }
        copy.preparedHead = preparedHead.map { PreparedHead(bytes: copied($0.bytes), bodyLength: $0.bodyLength) }
        copy.requestFields = requestFields
        return copy
    }

    /// The size of the prepared head, if there is one (for caches that count their bytes).
    public var preparedHeadCount: Int? { preparedHead?.bytes.count }

    /// `headers` followed by the request's own fields: every field the client receives but
    /// Content-Length, Connection and Date (for tools and tests; the server writes them apart).
    public var allHeaders: HTTPFields {
        var all = headers
        all.append(contentsOf: requestFields.fields)
        return all
    }

    public enum Body: Sendable {
        case bytes([UInt8])
        /// Bytes of an open file, sent with `sendfile` (no copy through user space).
        case file(FileRegion)
        /// Server-sent events and the like: the connection stays open and `start` is given a
        /// writer once the head has been sent.
        case stream(@Sendable (ResponseStream) -> Void)
        /// An answer that is worked out elsewhere (a decode on a worker thread): `start` is given
        /// the function to call, from any thread, with the response once it is ready. The
        /// connection answers nothing after it meanwhile, so pipelined answers stay in order.
        case deferred(@Sendable (@escaping @Sendable (Response) -> Void) -> Void)
    }

    /// A response that comes later, from `start`.
    public init(deferred start: @escaping @Sendable (@escaping @Sendable (Response) -> Void) -> Void) {
        self.status = .ok
        self.headers = [:]
        self.body = .deferred(start)
    }

    /// The response itself, or for a deferred one the response it turns into, waited for on the
    /// calling thread (for tools and tests; the server never waits).
    public func waitForCompletion() -> Response {
        guard case .deferred(let start) = body else { return self }
        let arrived = Mutex<Response?>(nil)
        let done = DispatchSemaphore(value: 0)
        start { response in
            arrived.withLock { $0 = response }
            done.signal()
        }
        done.wait()
        return arrived.withLock { $0 ?? Response(status: .internalServerError) }.waitForCompletion()
    }

    /// The response after `transform`: now, or when a deferred response arrives. Middleware that
    /// looks at the final answer (metrics, 304s, caching) works the same for both.
    public func map(_ transform: @escaping @Sendable (Response) -> Response) -> Response {
        guard case .deferred(let start) = body else { return transform(self) }
        return Response(deferred: { complete in start { complete(transform($0)) } })
    }

    public init(status: HTTPResponse.Status, headers: HTTPFields = [:], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = .bytes(body)
    }

    public init(status: HTTPResponse.Status, headers: HTTPFields = [:], file: FileRegion) {
        self.status = status
        self.headers = headers
        self.body = .file(file)
    }

    /// The same response with a file body of at most `limit` bytes read into memory: a response
    /// kept to be sent many times then goes out in one `send` with its head, which beats a
    /// `send` and a `sendfile` for small bodies. Larger files, and a file that cannot be read,
    /// stay as they are.
    public func inliningFile(upTo limit: Int) -> Response {
        guard case .file(let region) = body, region.count <= limit, let bytes = try? region.read() else { return self }
        var copy = self
        copy.body = .bytes(bytes)
        return copy
    }

    /// The body's length in bytes; 0 for streams and deferred answers, whose length is not known.
    public var bodyLength: Int {
        switch body {
        case .bytes(let bytes): bytes.count
        case .file(let region): region.count
        case .stream, .deferred: 0
        }
    }

    /// The body's bytes, read from the file for a file body (for tools and tests; the server
    /// sends files without reading them); empty for streams and deferred answers.
    public func bodyBytes() -> [UInt8] {
        switch body {
        case .bytes(let bytes): bytes
        case .file(let region): (try? region.read()) ?? []
        case .stream, .deferred: []
        }
    }

    public init(status: HTTPResponse.Status, headers: HTTPFields = [:], stream: @escaping @Sendable (ResponseStream) -> Void) {
        self.status = status
        self.headers = headers
        self.body = .stream(stream)
    }
}

extension Response {
    /// `{"error":{"code":...,"message":...}}`: the answers the server gives before any handler
    /// (a malformed request, a limit, a deadline).
    static func serverError(_ status: HTTPResponse.Status, code: String, message: String) -> Response {
        let body = Array("{\"error\":{\"code\":\"\(code)\",\"message\":\"\(message)\"}}".utf8)
        return Response(status: status, headers: [.contentType: "application/json"], body: body)
    }
}

/// A range of an open file to send as a body.
public struct FileRegion: Sendable {
    public var descriptor: Int32
    public var offset: Int
    public var count: Int
    /// Whatever keeps `descriptor` open: held as long as the response, so the file cannot be
    /// closed while it is being sent.
    public var owner: any Sendable

    public init(descriptor: Int32, offset: Int, count: Int, owner: any Sendable) {
        (self.descriptor, self.offset, self.count, self.owner) = (descriptor, offset, count, owner)
    }

    /// Reads the range (for tools and tests).
    public func read() throws(FileReadError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let result = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress! + done, count - done, off_t(offset + done)) }
            if result < 0 && errno == EINTR { continue }
            guard result > 0 else { throw FileReadError(offset: offset + done) }
            done += result
        }
        return bytes
    }

    public struct FileReadError: Error, CustomStringConvertible {
        public var offset: Int
        public var description: String { "the file ends or fails before offset \(offset)" }
    }
}

/// The open end of a streaming response.
public protocol ResponseStream: Sendable {
    /// Queues bytes for the client; false once the client has gone.
    @discardableResult func write(_ bytes: [UInt8]) -> Bool
    /// Ends the response and closes the connection.
    func close()
    /// Called once when the client disconnects or the server shuts down.
    func onClose(_ handler: @escaping @Sendable () -> Void)
}

/// Percent-decoding for paths and query strings (`+` is a space only in queries).
enum PercentDecoding {
    /// The text the bytes encode; nil when a `%` is not followed by two hex digits or the result
    /// is not UTF-8.
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>, plusIsSpace: Bool) -> String? {
        if !bytes.contains(where: { $0 == UInt8(ascii: "%") || (plusIsSpace && $0 == UInt8(ascii: "+")) }) {
            return String(decoding: bytes, as: UTF8.self) // nothing to decode: the common case (the target was UTF-8)
        }
        var decoded: [UInt8] = []
        decoded.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "%"):
                guard index + 1 < bytes.endIndex, let high = hexValue(bytes[index]), let low = hexValue(bytes[index + 1]) else { return nil }
                decoded.append(high << 4 | low)
                index += 2
            case UInt8(ascii: "+") where plusIsSpace:
                decoded.append(UInt8(ascii: " "))
            default:
                decoded.append(byte)
            }
        }
        return String(validating: decoded, as: UTF8.self)
    }

    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
