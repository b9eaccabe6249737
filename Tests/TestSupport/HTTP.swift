import Foundation

/// Just enough HTTP/1.1 for tests of a running daemon: one request with `Connection: close`,
/// the whole answer read.
public enum HTTP {
    public struct Answer {
        public var status: Int
        /// Field names in lower case.
        public var headers: [String: String]
        public var body: [UInt8]
        public var text: String { String(decoding: body, as: UTF8.self) }
    }

    public static func get(_ target: String, port: Int, headers: [String: String] = [:]) throws -> Answer {
        try request("GET", target, port: port, headers: headers)
    }

    public static func request(_ method: String, _ target: String, port: Int, headers: [String: String] = [:], body: [UInt8] = []) throws -> Answer {
        let connection = try connectedSocket(port: port)
        defer { close(connection) }
        let head = "\(method) \(target) HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n"
            + (body.isEmpty ? "" : "Content-Length: \(body.count)\r\n")
            + headers.map { "\($0.key): \($0.value)\r\n" }.joined() + "\r\n"
        _ = (Array(head.utf8) + body).withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = recv(connection, &buffer, buffer.count, 0)
            guard count > 0 else { break }
            received += buffer[..<count]
        }
        let separator: [UInt8] = Array("\r\n\r\n".utf8)
        let headEnd = (0..<max(0, received.count - 3)).first { Array(received[$0..<$0 + 4]) == separator } ?? received.count
        let lines = String(decoding: received[..<headEnd], as: UTF8.self).components(separatedBy: "\r\n")
        let status = Int(lines.first?.split(separator: " ").dropFirst().first ?? "") ?? 0
        var fields: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            fields[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let body = headEnd + 4 <= received.count ? Array(received[(headEnd + 4)...]) : []
        return Answer(status: status, headers: fields, body: body)
    }

    /// A TCP connection to 127.0.0.1:`port` whose reads give up after 10 s.
    public static func connectedSocket(port: Int) throws -> Int32 {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            let failure = POSIXErrorCode(rawValue: errno) ?? .ECONNREFUSED
            close(descriptor)
            throw POSIXError(failure)
        }
        return descriptor
    }

    /// An open `GET` whose answer is read as it comes (an event stream).
    public final class Stream {
        let descriptor: Int32
        public private(set) var received: [UInt8] = []
        public var text: String { String(decoding: received, as: UTF8.self) }

        public init(_ target: String, port: Int, headers: [String: String] = [:]) throws {
            descriptor = try HTTP.connectedSocket(port: port)
            let fields = headers.map { "\($0.key): \($0.value)\r\n" }.joined()
            let head = Array("GET \(target) HTTP/1.1\r\nHost: localhost\r\n\(fields)\r\n".utf8)
            _ = head.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        }

        deinit { close(descriptor) }

        /// Reads until `text` has arrived (true), or the server closed or 10 s passed (false).
        public func read(until text: String) -> Bool {
            while !self.text.contains(text) {
                guard receiveMore() else { return false }
            }
            return true
        }

        /// Reads until something matching the regular expression `pattern` has arrived (true), or
        /// the server closed or 10 s passed (false).
        public func read(untilMatching pattern: String) -> Bool {
            while text.range(of: pattern, options: .regularExpression) == nil {
                guard receiveMore() else { return false }
            }
            return true
        }

        /// Reads until the server closes the connection; true when it did within 10 s.
        public func readToEnd() -> Bool {
            while receiveMore() {}
            return closedByServer
        }

        private var closedByServer = false

        private func receiveMore() -> Bool {
            var buffer = [UInt8](repeating: 0, count: 65536)
            let count = recv(descriptor, &buffer, buffer.count, 0)
            if count == 0 { closedByServer = true }
            guard count > 0 else { return false }
            received += buffer[..<count]
            return true
        }
    }
}
