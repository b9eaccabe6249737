import HTTPServer
import HTTPTypes
import JSON
import ThemeContent

/// An error answer: `{"error":{"code":"...","message":"..."}}` with its status.
struct APIError: Error {
    var status: HTTPResponse.Status
    var code: String
    var message: String

    static func notFound(_ message: String) -> APIError { APIError(status: .notFound, code: "not_found", message: message) }
    static func badRequest(_ message: String) -> APIError { APIError(status: .badRequest, code: "bad_request", message: message) }

    /// The worker pool's queue is full: 503 with a hint to try again in a second.
    static func busy(_ error: ContentStore.Busy) -> Response {
        var response = APIError(status: .serviceUnavailable, code: "busy", message: error.description).response
        response.headers[.retryAfter] = "1"
        return response
    }

    var response: Response {
        let body: JSONValue = ["error": ["code": .string(code), "message": .string(message)]]
        return Response(status: status, headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"],
                        body: Array((body.serialized() + "\n").utf8))
    }
}
