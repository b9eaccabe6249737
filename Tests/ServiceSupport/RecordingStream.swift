import Foundation
import HTTPServer
import Synchronization

/// A response stream that keeps what is written to it, for event hub tests without a socket.
public final class RecordingStream: ResponseStream, Sendable {
    public init() {}

    private let written = Mutex<(bytes: [UInt8], firstEvent: ContinuousClock.Instant?)>(([], nil))
    public var text: String { String(decoding: written.withLock { $0.bytes }, as: UTF8.self) }
    /// When the first event (not the opening `retry:`) was written.
    public var firstEventTime: ContinuousClock.Instant? { written.withLock { $0.firstEvent } }
    public func write(_ bytes: [UInt8]) -> Bool {
        let now = ContinuousClock.now
        written.withLock { state in
            state.bytes += bytes
            if state.firstEvent == nil, bytes.starts(with: Array("id: ".utf8)) { state.firstEvent = now }
        }
        return true
    }
    public func onClose(_ handler: @escaping @Sendable () -> Void) {}
    public func close() {}
}
