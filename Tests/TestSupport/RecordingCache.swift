import Foundation
import Synchronization

/// A one-connection-at-a-time HTTP listener that records each request's head and answers 200.
public final class RecordingCache: @unchecked Sendable {
    let descriptor: Int32
    public let port: Int
    public let requests = Mutex<[String]>([])

    public init() {
        let (descriptor, port) = Loopback.boundSocket(listening: true)
        self.descriptor = descriptor
        self.port = port
        Thread { [self] in
            while true {
                let client = accept(descriptor, nil, nil)
                guard client >= 0 else { return }
                var buffer = [UInt8](repeating: 0, count: 4096)
                let count = recv(client, &buffer, buffer.count, 0)
                if count > 0 { requests.withLock { $0.append(String(decoding: buffer[..<count], as: UTF8.self)) } }
                let answer = Array("HTTP/1.1 200 Purged\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8)
                _ = answer.withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                Foundation.close(client)
            }
        }.start()
    }

    deinit { shutdown(descriptor, Int32(SHUT_RDWR)); Foundation.close(descriptor) }

    /// Stops listening: connections to its port are refused from now on.
    public func close() {
        shutdown(descriptor, Int32(SHUT_RDWR))
    }

    public func waitForRequests(_ count: Int) -> [String] {
        _ = waitUntil(5) { requests.withLock { $0.count } >= count }
        return requests.withLock { $0 }
    }
}
