import Cluster
import HTTPTypes
import ThemeServer

/// Why a request was refused, one case per answer it gets.
public enum Refusal: Error, Equatable, CustomStringConvertible {
    case unauthorized(String)
    case forbidden(String)
    case tooManyAttempts(retryAfterSeconds: Int)
    case badRequest(String)
    case notFound(String)
    case tooLarge(String)
    case unsupportedMediaType(String)
    case unprocessable(String)
    /// A generation the store does not keep (as a server without a store says it).
    case generationNotKept(String)
    /// The store has moved on from what the request was made against (a draft).
    case conflict(String)
    case unavailable(String)

    public var description: String {
        switch self {
        case .unauthorized(let why), .forbidden(let why), .badRequest(let why), .notFound(let why), .tooLarge(let why),
             .unsupportedMediaType(let why), .unprocessable(let why), .generationNotKept(let why), .conflict(let why), .unavailable(let why): why
        case .tooManyAttempts(let seconds): "too many failed token attempts from this address; try again in \(seconds) s"
        }
    }
}

extension Refusal {
    /// What the store's refusal of an operation is answered as.
    init(_ error: ClusterError) {
        switch error {
        case .noSuchRelease, .noSuchSchedule, .noSuchTheme, .noSuchDraft: self = .notFound(error.description)
        case .draftClosed, .movedOn, .changedWhilePublished: self = .conflict(error.description)
        case .ownDraft: self = .forbidden(error.description)
        case .generationNotKept: self = .generationNotKept(error.description)
        case .badRollout: self = .unprocessable(error.description)
        case .tooLarge: self = .tooLarge(error.description)
        case .unpublishableName, .unsafeName, .badTime: self = .badRequest(error.description)
        case .badRelease, .missingBlob, .corruptBlob, .badToken, .inherited: self = .unprocessable(error.description)
        }
    }
}

extension Refusal {
    /// What `work` returns, or the error answer its refusal is.
    static func answering<T>(_ work: () throws(Refusal) -> T) throws(APIError) -> T {
        do throws(Refusal) { return try work() } catch { throw error.apiError }
    }

    /// The error answer a refusal is: its status and code, and the fields that tell the client
    /// what to do (`WWW-Authenticate`, `Retry-After`).
    var apiError: APIError {
        let (status, code): (HTTPResponse.Status, String) = switch self {
        case .unauthorized: (.unauthorized, "unauthorized")
        case .forbidden: (.forbidden, "forbidden")
        case .tooManyAttempts: (.tooManyRequests, "too_many_attempts")
        case .badRequest: (.badRequest, "bad_request")
        case .notFound: (.notFound, "not_found")
        case .tooLarge: (.contentTooLarge, "too_large")
        case .unsupportedMediaType: (.unsupportedMediaType, "unsupported_media_type")
        case .unprocessable: (.unprocessableContent, "unprocessable")
        case .generationNotKept: (.unprocessableContent, "generation_not_kept")
        case .conflict: (.conflict, "conflict")
        case .unavailable: (.serviceUnavailable, "cluster_unavailable")
        }
        var error = APIError(status: status, code: code, message: description)
        switch self {
        case .unauthorized: error.headers[.wwwAuthenticate] = "Bearer realm=\"themed\""
        case .tooManyAttempts(let seconds): error.headers[.retryAfter] = String(seconds)
        case .unavailable: error.headers[.retryAfter] = "1"
        default: break
        }
        return error
    }
}
