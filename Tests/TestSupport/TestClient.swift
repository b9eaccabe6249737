import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A raw HTTP/1.1 client over a real socket, so tests can send exactly the bytes they mean
/// (pipelined requests, oversized headers, a request cut off half way).
public final class TestClient {
    public struct Response {
        public var status: Int
        public var headers: [String: String]
        public var body: [UInt8]
        public var text: String { String(decoding: body, as: UTF8.self) }
        public var json: [String: Any] { ((try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any]) ?? [:] }
    }

    public let fd: Int32
    private var buffer: [UInt8] = []

    public init(port: Int, timeout: Double = 5, receiveBuffer: Int32? = nil) throws {
        // The socket becomes `fd` only once connected. Why: a class whose properties are all set
        // when its initializer throws is deinitialized, and `deinit` closed the number a second
        // time, by then another test's (an event loop's epoll, which then spun and never stopped).
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        if var size = receiveBuffer { setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size)) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw ClientError(description: "connect: \(reason)")
        }
        var time = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - Double(Int(timeout))) * 1_000_000))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        self.fd = fd
    }

    deinit { close(fd) }

    public struct ClientError: Error, CustomStringConvertible { public var description: String }

    public func send(_ text: String) { send(Array(text.utf8)) }

    public func send(_ bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// Sends a GET (or `method`) and reads the response.
    public func request(_ target: String, method: String = "GET", headers: [String: String] = [:], body: String = "") throws -> Response {
        var text = "\(method) \(target) HTTP/1.1\r\nHost: localhost\r\n"
        for (name, value) in headers { text += "\(name): \(value)\r\n" }
        if !body.isEmpty { text += "Content-Length: \(body.utf8.count)\r\n" }
        send(text + "\r\n" + body)
        return try readResponse(headRequest: method == "HEAD")
    }

    /// Reads one response (Content-Length framed).
    public func readResponse(headRequest: Bool = false) throws -> Response {
        while true {
            if let end = find([13, 10, 13, 10]) {
                let head = String(decoding: buffer[0..<end], as: UTF8.self).components(separatedBy: "\r\n")
                let statusParts = head[0].split(separator: " ")
                guard statusParts.count >= 2, let status = Int(statusParts[1]) else { throw ClientError(description: "bad status line \(head[0])") }
                var headers: [String: String] = [:]
                for line in head.dropFirst() {
                    guard let colon = line.firstIndex(of: ":") else { continue }
                    headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                }
                let length = headRequest || status == 304 ? 0 : Int(headers["content-length"] ?? "0") ?? 0
                while buffer.count < end + 4 + length { try receive() }
                let body = Array(buffer[(end + 4) ..< (end + 4 + length)])
                buffer.removeFirst(end + 4 + length)
                return Response(status: status, headers: headers, body: body)
            }
            try receive()
        }
    }

    /// Reads a streaming body until `marker` has arrived, and returns everything read so far.
    public func readUntil(_ marker: String, timeout: Double = 5) throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        while !String(decoding: buffer, as: UTF8.self).contains(marker) {
            guard Date() < deadline else { throw ClientError(description: "timed out waiting for \(marker)") }
            try receive()
        }
        let text = String(decoding: buffer, as: UTF8.self)
        buffer.removeAll()
        return text
    }

    /// True when bytes (or the end of the stream) wait to be read, without reading them.
    public func hasPendingData() -> Bool {
        if !buffer.isEmpty { return true }
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&poller, 1, 0) > 0
    }

    /// True when the server has closed the connection (reads return 0). With `allowingReset`, a
    /// reset counts too: a byte the test sent as the server closed makes the kernel answer it
    /// with a reset, which still means the server closed the connection.
    public func isClosedByServer(allowingReset: Bool = false) -> Bool {
        var byte: UInt8 = 0
        let count = recv(fd, &byte, 1, 0)
        return count == 0 || (allowingReset && count == -1 && errno == ECONNRESET)
    }

    private func receive() throws {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = recv(fd, &chunk, chunk.count, 0)
        guard count > 0 else { throw ClientError(description: count == 0 ? "connection closed" : "recv: \(String(cString: strerror(errno)))") }
        buffer += chunk[0..<count]
    }

    private func find(_ pattern: [UInt8]) -> Int? {
        guard buffer.count >= pattern.count else { return nil }
        for index in 0...(buffer.count - pattern.count) where Array(buffer[index ..< index + pattern.count]) == pattern { return index }
        return nil
    }
}
