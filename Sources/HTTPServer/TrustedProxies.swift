import Foundation
import Glibc
import HTTPTypes

/// The proxies in front of themed (HAProxy, Varnish) whose `X-Forwarded-For` it believes, as
/// addresses or CIDR networks. Behind a proxy every connection comes from the proxy, so whatever
/// counts clients (the failed-token limit) must count the address the proxy forwarded, and only
/// when a trusted proxy says so: anyone can send the header.
public struct TrustedProxies: Sendable, Equatable {
    /// An IPv4 or IPv6 network: its address bytes and how many leading bits count.
    struct Network: Sendable, Equatable {
        var bytes: [UInt8]
        var prefixLength: Int

        func contains(_ address: [UInt8]) -> Bool {
            guard address.count == bytes.count else { return false }
            var bits = prefixLength
            for (mine, theirs) in zip(bytes, address) where bits > 0 {
                let mask: UInt8 = bits >= 8 ? 0xFF : ~(0xFF >> UInt8(bits))
                if mine & mask != theirs & mask { return false }
                bits -= 8
            }
            return true
        }
    }

    public struct Invalid: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    let networks: [Network]

    public static let none = TrustedProxies(networks: [])

    init(networks: [Network]) { self.networks = networks }

    /// From entries such as `127.0.0.1`, `10.0.0.0/8`, `::1` or `fd00::/8`.
    public init(_ entries: [String]) throws(Invalid) {
        var networks: [Network] = []
        for entry in entries {
            let parts = entry.split(separator: "/", maxSplits: 1).map(String.init)
            guard let address = parts.first.flatMap(Self.bytes(of:)) else {
                throw Invalid(description: "\"\(entry)\" is not an IP address or CIDR network (like 10.0.0.0/8 or fd00::/8)")
            }
            let bits = address.count * 8
            let prefix = parts.count == 2 ? Int(parts[1]) : bits
            guard let prefix, (0...bits).contains(prefix) else {
                throw Invalid(description: "\"\(entry)\": the prefix length must be 0 to \(bits)")
            }
            networks.append(Network(bytes: address, prefixLength: prefix))
        }
        self.networks = networks
    }

    /// Whether `host` (an address without a port) is one of the trusted proxies.
    public func trusts(_ host: String) -> Bool {
        guard !networks.isEmpty, let address = Self.bytes(of: host) else { return false }
        return networks.contains { $0.contains(address) }
    }

    /// The client a request came from: the connection's host, or, when that is a trusted proxy,
    /// the nearest address in `X-Forwarded-For` that is not one (read from the right: each proxy
    /// appends the address it saw, and only the trusted ones' additions are believed).
    public func client(of request: Request) -> String {
        let host = Self.host(of: request.remoteAddress)
        guard trusts(host) else { return host }
        let forwarded = request.headers[values: Self.forwardedFor].flatMap { $0.split(separator: ",") }
            .map { Self.host(of: $0.trimmingCharacters(in: .whitespaces)) }
        var client = host
        for address in forwarded.reversed() {
            guard Self.bytes(of: address) != nil else { return client }
            client = address
            if !trusts(address) { return address }
        }
        return client
    }

    /// Whether a request says it was forwarded for someone else (`Forwarded` or
    /// `X-Forwarded-For`) by a peer that is not a trusted proxy. Its connection's address then
    /// tells nothing about the client: a proxy on this host that is not listed makes every
    /// client look local, so such a request is never taken for a loopback client.
    public func isForwardedByUntrustedPeer(_ request: Request) -> Bool {
        guard request.headers[Self.forwardedFor] != nil || request.headers[Self.forwarded] != nil else { return false }
        return !trusts(Self.host(of: request.remoteAddress))
    }

    static let forwardedFor = HTTPField.Name("X-Forwarded-For")!
    static let forwarded = HTTPField.Name("Forwarded")!

    /// An address without its port or brackets: `127.0.0.1:5000` -> `127.0.0.1`, `[::1]:5000` -> `::1`.
    public static func host(of address: String) -> String {
        if address.hasPrefix("["), let end = address.firstIndex(of: "]") { return String(address[address.index(after: address.startIndex)..<end]) }
        // A bare IPv6 address has several colons and no port.
        if address.utf8.filter({ $0 == UInt8(ascii: ":") }).count > 1 { return address }
        return address.lastIndex(of: ":").map { String(address[..<$0]) } ?? address
    }

    /// Whether `host` (an address without a port) is on the loopback interface: 127.0.0.0/8,
    /// ::1, or 127.0.0.0/8 mapped into IPv6 (::ffff:127.0.0.1).
    public static func isLoopback(_ host: String) -> Bool {
        guard let address = bytes(of: host) else { return false }
        if address.count == 4 { return address[0] == 127 }
        let mappedIPv4 = address.prefix(10).allSatisfy { $0 == 0 } && address[10] == 0xFF && address[11] == 0xFF
        return address == [UInt8](repeating: 0, count: 15) + [1] || (mappedIPv4 && address[12] == 127)
    }

    /// The address's bytes (4 for IPv4, 16 for IPv6), nil when it is not one.
    static func bytes(of text: String) -> [UInt8]? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 { return withUnsafeBytes(of: &v4) { Array($0) } }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 { return withUnsafeBytes(of: &v6) { Array($0) } }
        return nil
    }
}
