import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization

// Linux's FoundationNetworking has two hazards around cancellation, both seen in this project's
// tests: a cancel that reaches a task its session has already let go traps the process ("a task
// that is not in the registry"), which a session with a URLCache or a cancel sent to a finished
// task makes possible; and `data(for:)` deadlocks when the Swift task is cancelled while the
// response arrives (its cancellation handler waits for the session's queue, which waits to
// resume the same Swift task). What follows avoids both, and costs nothing on Apple platforms.

extension URLSessionConfiguration {
    /// Ephemeral and without URLSession's own cache: the client keeps its own (ETag
    /// revalidation, offline start).
    public static var themedClient: URLSessionConfiguration {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        return configuration
    }
}

extension URLSession {
    /// The body and response of `request`, like `data(for:)`; a cancelled Swift task cancels the
    /// request from another thread, never from inside its cancellation handler.
    func response(for request: URLRequest) async throws -> (Data, URLResponse) {
        let cancellation = TaskCancellation()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let task = dataTask(with: request) { body, response, error in
                    if let error {
                        continuation.resume(throwing: error)
                    } else if let response {
                        continuation.resume(returning: (body ?? Data(), response))
                    } else {
                        continuation.resume(throwing: URLError(.badServerResponse))
                    }
                }
                cancellation.start(task)
            }
        } onCancel: {
            cancellation.cancel()
        }
    }
}

/// A URLSession task that may be cancelled before it starts, after it ends (which it ignores),
/// or from a Swift task's cancellation handler: the cancel runs on a queue of its own.
final class TaskCancellation: Sendable {
    private struct State {
        var task: URLSessionTask?
        var cancelled = false
    }

    private let state = Mutex(State())

    /// Resumes `task`, and cancels it at once when the cancellation came first (it then ends
    /// with a cancellation error, as it would have if cancelled while running).
    func start(_ task: URLSessionTask) {
        let cancelled = state.withLock { state in
            state.task = task
            return state.cancelled
        }
        task.resume()
        if cancelled { cancel() }
    }

    func cancel() {
        let task = state.withLock { state in
            state.cancelled = true
            return state.task
        }
        guard let task else { return }
        DispatchQueue.global().async { task.cancel() }
    }
}
