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
    func response(for request: URLRequest, cancellation: TaskCancellation = TaskCancellation()) async throws -> (Data, URLResponse) {
        try await withTaskCancellationHandler {
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

/// A GET's answer: a new body (200) or the cached one (304).
struct Fetched: Sendable {
    var body: Data
    var etag: String?
    /// A 200: the body is not the cached one yet.
    var isNew: Bool
}

extension ThemedClient {
    /// GET with the cached ETag; a 304 answers from the cache. Nothing is stored here: the caller
    /// stores what it has parsed.
    func fetch(_ url: URL) async throws(ThemedClientError) -> Fetched {
        var request = URLRequest(url: url, timeoutInterval: settings.requestTimeout.seconds)
        let cached = cache?.entry(for: url)
        if let etag = cached?.etag { request.setValue(etag, forHTTPHeaderField: "If-None-Match") }
        let (body, response) = try await send(request)
        switch response.statusCode {
        case 304:
            guard let cached else { throw .invalidResponse("304 without a cached copy") }
            return Fetched(body: cached.body, etag: cached.etag, isNew: false)
        case 200:
            return Fetched(body: body, etag: response.value(forHTTPHeaderField: "ETag"), isNew: true)
        default:
            throw .status(response.statusCode, url)
        }
    }

    /// Sends `request`, kept among the requests `close()` cancels.
    func send(_ request: URLRequest) async throws(ThemedClientError) -> (Data, HTTPURLResponse) {
        let cancellation = TaskCancellation()
        guard let key = state.withLock({ state -> Int? in
            guard !state.closed else { return nil }
            defer { state.nextRequest += 1 }
            state.inFlight[state.nextRequest] = cancellation
            return state.nextRequest
        }) else { throw .closed }
        defer { state.withLock { _ = $0.inFlight.removeValue(forKey: key) } }
        // The deadline is kept here: FoundationNetworking waits 60 s for a server that accepted the
        // connection and never answers, whatever the request's timeoutInterval.
        let timedOut = Mutex(false)
        let deadline = Task { [timeout = settings.requestTimeout] in
            guard (try? await Task.sleep(for: timeout)) != nil else { return }
            timedOut.withLock { $0 = true }
            cancellation.cancel()
        }
        defer { deadline.cancel() }
        do {
            let (body, response) = try await session.response(for: request, cancellation: cancellation)
            guard let http = response as? HTTPURLResponse else { throw ThemedClientError.invalidResponse("not HTTP") }
            return (body, http)
        } catch let error as ThemedClientError {
            throw error
        } catch {
            if state.withLock({ $0.closed }) { throw .closed }
            if timedOut.withLock({ $0 }) { throw .transport("no answer within \(settings.requestTimeout)") }
            throw .transport(error.localizedDescription)
        }
    }
}
