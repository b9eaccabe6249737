import HTTPServer
import HTTPTypes
import JSON

/// An error answer: `{"error":{"code":"...","message":"..."}}` with its status.
struct APIError: Error {
    var status: HTTPResponse.Status
    var code: String
    var message: String

    static func notFound(_ message: String) -> APIError { APIError(status: .notFound, code: "not_found", message: message) }
    static func badRequest(_ message: String) -> APIError { APIError(status: .badRequest, code: "bad_request", message: message) }

    var response: Response {
        let body: JSONValue = ["error": ["code": .string(code), "message": .string(message)]]
        return Response(status: status, headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"],
                        body: Array((body.serialized() + "\n").utf8))
    }
}
