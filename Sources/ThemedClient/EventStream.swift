import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization

/// The bytes of one `GET /events` connection as they arrive (URLSession's data delegate, which
/// Linux's FoundationNetworking has too). Ends when the server closes; throws on a non-200
/// answer, a transport error, or no bytes for `idleTimeout` (the server sends a heartbeat
/// every 15 s by default, so silence means a hung server). The idle limit is watched here:
/// FoundationNetworking does not apply a request's timeout to a response that has begun.
enum EventStream {
    static func open(_ url: URL, lastEventID: String?, idleTimeout: TimeInterval = 45) -> AsyncThrowingStream<Data, any Error> {
        AsyncThrowingStream { continuation in
            var request = URLRequest(url: url, timeoutInterval: idleTimeout)
            request.setValue("text/event-stream", forHTTPHeaderField: "Accept")
            if let lastEventID { request.setValue(lastEventID, forHTTPHeaderField: "Last-Event-ID") }
            let delegate = Delegate(continuation)
            let session = URLSession(configuration: .themedClient, delegate: delegate, delegateQueue: nil)
            let cancellation = TaskCancellation()
            let watchdog = Task {
                while !Task.isCancelled, !delegate.hasCompleted {
                    let silent = delegate.silence
                    guard silent < idleTimeout else {
                        delegate.fail(ThemedClientError.transport("the event stream was silent for \(Int(silent)) s"))
                        cancellation.cancel()
                        return
                    }
                    try? await Task.sleep(for: .milliseconds(Int((idleTimeout - silent) * 1000) + 10))
                }
            }
            continuation.onTermination = { termination in
                watchdog.cancel()
                // Only the app's cancellation stops the task: a stream that ended was ended by its
                // task. The task's completion (a cancellation error) then invalidates the session.
                guard case .cancelled = termination, !delegate.hasCompleted else { return }
                cancellation.cancel()
            }
            cancellation.start(session.dataTask(with: request))
        }
    }

    private final class Delegate: NSObject, URLSessionDataDelegate, Sendable {
        let continuation: AsyncThrowingStream<Data, any Error>.Continuation
        private let completed = Mutex(false)
        private let lastBytes = Mutex(ContinuousClock.now)

        init(_ continuation: AsyncThrowingStream<Data, any Error>.Continuation) {
            self.continuation = continuation
        }

        var hasCompleted: Bool { completed.withLock { $0 } }

        /// Seconds since the last bytes arrived (or the request was made).
        var silence: TimeInterval { (ContinuousClock.now - lastBytes.withLock { $0 }).seconds }

        /// Ends the stream with `error` (the task is cancelled beside it).
        func fail(_ error: ThemedClientError) {
            continuation.finish(throwing: error)
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
            let status = (response as? HTTPURLResponse)?.statusCode ?? 0
            let type = (response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Content-Type") ?? ""
            guard status == 200, type.hasPrefix("text/event-stream") else {
                continuation.finish(throwing: status == 200
                    ? ThemedClientError.invalidResponse("events answered as \(type), not text/event-stream")
                    : ThemedClientError.status(status, response.url ?? URL(fileURLWithPath: "/events")))
                completionHandler(.cancel)
                return
            }
            completionHandler(.allow)
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            lastBytes.withLock { $0 = .now }
            continuation.yield(data)
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
            // Marked before the stream finishes, since finishing runs onTermination at once.
            completed.withLock { $0 = true }
            if let error {
                continuation.finish(throwing: ThemedClientError.transport(error.localizedDescription))
            } else {
                continuation.finish()
            }
            session.finishTasksAndInvalidate()
        }
    }
}
