import HTTPServer

/// Who may change what every client is pointed at (the active theme, aliases, rollouts): the
/// holder of the `activeToken`, and a client on the loopback interface only where the server
/// says loopback is the operator (`ServerSettings.loopbackIsOperator`: by default only a server
/// without any token). A request forwarded for someone else by a peer that is not a trusted
/// proxy is never the loopback operator: a proxy on this host would make every client look local.
public struct OperatorCheck: Sendable {
    let activeToken: String?
    /// Whether a loopback client without a token is the operator.
    let loopbackIsOperator: Bool
    /// Whether the server knows tokens (its `activeToken`, or a cluster store's teams' tokens):
    /// a refused request is then told to bring one (401), not that only loopback may (403).
    let hasTokens: Bool
    public let proxies: TrustedProxies

    public init(activeToken: String?, loopbackIsOperator: Bool, hasTokens: Bool, proxies: TrustedProxies) {
        self.activeToken = activeToken
        self.loopbackIsOperator = loopbackIsOperator
        self.hasTokens = hasTokens || activeToken != nil
        self.proxies = proxies
    }

    public func allows(_ request: Request) -> Bool {
        let authorization = request.headers[.authorization]
        if let activeToken, authorization == "Bearer \(activeToken)" { return true }
        guard loopbackIsOperator, authorization == nil, !proxies.isForwardedByUntrustedPeer(request) else { return false }
        return TrustedProxies.isLoopback(proxies.client(of: request))
    }

    /// The answer to a request `allows` refused: 401 naming the route when the server knows
    /// tokens, else 403 naming `what` only loopback clients may change (and why this one is not).
    public func refusal(of request: Request, changing what: String) -> APIError {
        if hasTokens {
            // Where a token comes from, so that the operator at a terminal can act on the answer.
            return APIError(status: .unauthorized, code: "unauthorized",
                            message: "\(request.method) \(request.path) needs Authorization: Bearer <token>: the server's activeToken (themed.json), "
                                + "or with a cluster store a team's token with the permission (themed token create --cluster URL --name NAME --themes THEMES --can activate)")
        }
        if loopbackIsOperator, proxies.isForwardedByUntrustedPeer(request) {
            return APIError(status: .forbidden, code: "forbidden",
                            message: "\(what) may be changed only by loopback clients, and this request was forwarded by a proxy not in trustedProxies")
        }
        let who = loopbackIsOperator ? "only loopback clients" : "nobody (operatorLoopback is false and no activeToken is set)"
        return APIError(status: .forbidden, code: "forbidden", message: "without a configured token, \(who) may change \(what)")
    }
}
