import HTTPServer

/// Who may change what every client is pointed at (the active theme, aliases): the holder of the
/// `activeToken`, or without one a client on the loopback interface (through a trusted proxy, the
/// address it forwarded).
struct OperatorCheck: Sendable {
    let activeToken: String?
    let proxies: TrustedProxies

    func allows(_ request: Request) -> Bool {
        let authorization = request.headers[.authorization]
        if let activeToken { return authorization == "Bearer \(activeToken)" }
        let client = proxies.client(of: request)
        return authorization == nil && (client.hasPrefix("127.") || client == "::1")
    }

    /// The answer to a request `allows` refused: 401 naming the route when a token is configured,
    /// else 403 naming `what` only loopback clients may change.
    func refusal(of request: Request, changing what: String) -> APIError {
        if activeToken != nil {
            return APIError(status: .unauthorized, code: "unauthorized", message: "\(request.method) \(request.path) needs Authorization: Bearer <token>")
        }
        return APIError(status: .forbidden, code: "forbidden", message: "without a configured token, only loopback clients may change \(what)")
    }
}
