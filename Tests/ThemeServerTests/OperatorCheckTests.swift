import HTTPServer
import ServiceSupport
import Testing

/// Who may change what every client is pointed at (the active theme, aliases, rollouts), as
/// `PUT /active` and `PUT /aliases/{alias}` answer it without a socket.
@Suite("who the operator is")
struct OperatorCheckTests {
    static let switchToDark = #"{"theme":"dark"}"#

    @Test("without tokens, loopback is the operator, IPv6 and IPv4-mapped loopback too; nobody else")
    func loopbackWithoutTokens() throws {
        let api = try APIFixture()
        for address in ["127.0.0.1:40000", "127.8.9.10:1", "[::1]:40000", "[::ffff:127.0.0.1]:40000"] {
            #expect(try api.request("/active", method: .put, body: Self.switchToDark, from: address).status == 200, "\(address)")
        }
        for address in ["10.0.0.5:4000", "[::ffff:10.0.0.5]:4000", "[fe80::1]:4000"] {
            let refused = try api.request("/active", method: .put, body: Self.switchToDark, from: address)
            #expect(refused.status == 403 && refused.text.contains("only loopback clients"), "\(address): \(refused.text)")
        }
    }

    @Test("a request forwarded by a peer not in trustedProxies is never the loopback operator, however it names the client",
          arguments: [["X-Forwarded-For": "203.0.113.9"], ["X-Forwarded-For": "127.0.0.1"], ["Forwarded": "for=198.51.100.7;proto=https"]])
    func forwardedByAnUntrustedProxy(_ headers: [String: String]) throws {
        let api = try APIFixture()
        let refused = try api.request("/active", method: .put, headers: headers, body: Self.switchToDark)
        #expect(refused.status == 403 && refused.text.contains("forwarded by a proxy not in trustedProxies"), "\(refused.text)")
        let alias = try api.request("/aliases/acme", method: .put, headers: headers, body: #"{"theme": "light"}"#)
        #expect(alias.status == 403)
        #expect(try api.request("/aliases/acme").status == 404, "nothing kept")
    }

    @Test("through a trusted proxy, the client it forwarded decides")
    func forwardedByATrustedProxy() throws {
        let api = try APIFixture(settings: { $0.trustedProxies = ["127.0.0.1"] })
        let outside = try api.request("/active", method: .put, headers: ["X-Forwarded-For": "203.0.113.9"], body: Self.switchToDark)
        #expect(outside.status == 403)
        let local = try api.request("/active", method: .put, headers: ["X-Forwarded-For": "127.0.0.1"], body: Self.switchToDark)
        #expect(local.status == 200, "\(local.text)")
    }

    @Test("with an activeToken, loopback needs it too (401), unless operatorLoopback is true")
    func token() throws {
        let api = try APIFixture(activeToken: "s3cret")
        let anonymous = try api.request("/active", method: .put, body: Self.switchToDark)
        #expect(anonymous.status == 401 && anonymous.text.contains("needs Authorization: Bearer <token>: the server's activeToken (themed.json), or with a cluster store a team's token"), "\(anonymous.text)")
        #expect(try api.request("/aliases/acme", method: .delete).status == 401)
        #expect(try api.request("/themes/light/rollout", method: .put, body: #"{"generation": 1, "percent": 5}"#).status == 401,
                "a change route asks who is asking before it says it needs a cluster store")
        #expect(try api.request("/active", method: .put, headers: ["Authorization": "Bearer s3cret"], body: Self.switchToDark).status == 200)

        let opened = try APIFixture(activeToken: "s3cret", operatorLoopback: true)
        #expect(try opened.request("/active", method: .put, body: Self.switchToDark).status == 200)
        #expect(try opened.request("/active", method: .put, body: Self.switchToDark, from: "10.0.0.5:4000").status == 401)
    }

    @Test("operatorLoopback false without a token: nobody may change, and the 403 says why")
    func closed() throws {
        let api = try APIFixture(operatorLoopback: false)
        let refused = try api.request("/active", method: .put, body: Self.switchToDark)
        #expect(refused.status == 403 && refused.text.contains("operatorLoopback is false"), "\(refused.text)")
    }
}
