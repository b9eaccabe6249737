import HTTPServer
import HTTPTypes
import Testing

/// Which client a request is from, behind proxies that are trusted and ones that are not.
@Suite("trusted proxies")
struct TrustedProxiesTests {
    func request(from remote: String, forwardedFor: [String] = []) throws -> Request {
        var fields = HTTPFields()
        for value in forwardedFor { fields.append(HTTPField(name: HTTPField.Name("X-Forwarded-For")!, value: value)) }
        return try Request(method: .get, target: "/", headers: fields, remoteAddress: remote)
    }

    @Test("addresses and CIDR networks, IPv4 and IPv6; anything else is refused naming the entry")
    func parsing() throws {
        let proxies = try TrustedProxies(["10.0.0.0/8", "192.168.1.7", "fd00::/8", "::1"])
        #expect(proxies.trusts("10.200.3.4") && proxies.trusts("192.168.1.7") && proxies.trusts("fd12::5") && proxies.trusts("::1"))
        #expect(!proxies.trusts("11.0.0.1") && !proxies.trusts("192.168.1.8") && !proxies.trusts("fe80::1") && !proxies.trusts("not-an-ip"))
        #expect(try TrustedProxies(["0.0.0.0/0"]).trusts("203.0.113.1"))
        for bad in ["10.0.0.0/33", "proxy.example", "::1/129", "10.0.0.0/x"] {
            #expect(throws: TrustedProxies.Invalid.self, "\(bad)") { try TrustedProxies([bad]) }
        }
    }

    @Test("the client is the nearest untrusted address, read from the right; without a trusted proxy the header is ignored")
    func client() throws {
        let proxies = try TrustedProxies(["127.0.0.1", "10.0.0.0/8"])
        #expect(proxies.client(of: try request(from: "127.0.0.1:5000", forwardedFor: ["203.0.113.9"])) == "203.0.113.9")
        #expect(proxies.client(of: try request(from: "127.0.0.1:5000", forwardedFor: ["198.51.100.1, 203.0.113.9, 10.1.1.1"])) == "203.0.113.9",
                "a forged entry on the left is not believed")
        #expect(proxies.client(of: try request(from: "127.0.0.1:5000", forwardedFor: ["198.51.100.1", "203.0.113.9"])) == "203.0.113.9",
                "several header lines read as one list")
        #expect(proxies.client(of: try request(from: "198.51.100.2:5000", forwardedFor: ["203.0.113.9"])) == "198.51.100.2")
        #expect(proxies.client(of: try request(from: "127.0.0.1:5000")) == "127.0.0.1")
        #expect(proxies.client(of: try request(from: "127.0.0.1:5000", forwardedFor: ["garbage"])) == "127.0.0.1")
        #expect(proxies.client(of: try request(from: "[::1]:5000", forwardedFor: ["203.0.113.9"])) == "::1", "::1 is not trusted here")
        #expect(TrustedProxies.none.client(of: try request(from: "[2001:db8::1]:443")) == "2001:db8::1")
    }
}
