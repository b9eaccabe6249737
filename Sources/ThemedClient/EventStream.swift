import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The bytes of one `GET /events` connection as they arrive (URLSession's data delegate, which
/// Linux's FoundationNetworking has too). Ends when the server closes; throws on a non-200
/// answer, a transport error, or no bytes for `idleTimeout` (the server sends a heartbeat
/// every 15 s by default, so silence means a hung server).
enum EventStream {
    static func open(_ url: URL, lastEventID: String?, idleTimeout: TimeInterval = 45) -> AsyncThrowingStream<Data, any Error> {
        AsyncThrowingStream { continuation in
            var request = URLRequest(url: url, timeoutInterval: idleTimeout)
            request.setValue("text/event-stream", forHTTPHeaderField: "Accept")
            if let lastEventID { request.setValue(lastEventID, forHTTPHeaderField: "Last-Event-ID") }
            let delegate = Delegate(continuation)
            let session = URLSession(configuration: .ephemeral, delegate: delegate, delegateQueue: nil)
            let task = session.dataTask(with: request)
            continuation.onTermination = { _ in
                task.cancel()
                session.invalidateAndCancel()
            }
            task.resume()
        }
    }

    private final class Delegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
        // Only URLSession's serial delegate queue touches it.
        let continuation: AsyncThrowingStream<Data, any Error>.Continuation

        init(_ continuation: AsyncThrowingStream<Data, any Error>.Continuation) {
            self.continuation = continuation
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
            continuation.yield(data)
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
            if let error {
                continuation.finish(throwing: ThemedClientError.transport(error.localizedDescription))
            } else {
                continuation.finish()
            }
            session.finishTasksAndInvalidate()
        }
    }
}
