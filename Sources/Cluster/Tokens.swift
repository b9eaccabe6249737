import Foundation
import Hashing

/// A team's credential for publishing over HTTP: a name, the themes it may touch (globs, as a
/// shell matches file names) and what it may do. The store keeps only the secret's SHA-256.
public struct Token: Sendable, Equatable {
    public enum Permission: String, Sendable, CaseIterable {
        /// New releases and rollbacks.
        case publish
        /// Switching the active theme, now or at a set time, and cancelling a scheduled switch.
        case activate
        /// Aliases and their rules, rollouts of releases, and their schedules.
        case rollout
        /// Approving another publisher's drafts (four-eyes approval).
        case review
    }

    public var name: String
    public var themes: [String]
    public var permissions: Set<Permission>
    /// When it was made (RFC 3339, UTC).
    public var created: String

    public init(name: String, themes: [String], permissions: Set<Permission>, created: String = "") {
        (self.name, self.themes, self.permissions, self.created) = (name, themes, permissions, created)
    }

    public func allows(_ permission: Permission, theme: String) -> Bool {
        permissions.contains(permission) && themes.contains { fnmatch($0, theme, 0) == 0 }
    }

    /// A token's name: what audit lines and release histories show.
    public static func isValid(name: String) -> Bool {
        (1...64).contains(name.utf8.count) && Release.consistsOfNameBytes(name, besides: "-._")
    }

    /// A new secret: 32 random bytes from the system's generator, as hex behind a prefix that
    /// secret scanners can recognise.
    static func newSecret() -> String {
        var generator = SystemRandomNumberGenerator()
        return "themed_" + Hex.encode((0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }
}

extension ClusterStore {
    /// Makes a token and returns its secret, which is shown this once and never stored.
    public func createToken(name: String, themes: [String], permissions: Set<Token.Permission>, by actor: String = Release.operatorName) throws -> String {
        guard Token.isValid(name: name) else { throw ClusterError.badToken("a token's name is 1 to 64 letters, digits, '-', '.' or '_'") }
        guard !themes.isEmpty, themes.allSatisfy({ !$0.isEmpty && !$0.contains(",") && $0.utf8.count <= 255 }) else {
            throw ClusterError.badToken("each --themes glob must be non-empty, at most 255 bytes, without commas")
        }
        guard !permissions.isEmpty else { throw ClusterError.badToken("a token needs at least one of: publish, activate, rollout") }
        let secret = Token.newSecret()
        try transaction {
            guard try connection.execute("SELECT 1 FROM themed_token WHERE name = $1", [.text(name)]).count == 0 else {
                throw ClusterError.badToken("a token named \(name) exists; revoke it first")
            }
            try connection.execute("INSERT INTO themed_token (name, hash, themes, permissions) VALUES ($1, $2, $3, $4)", [
                .text(name), .text(ContentHash.of(Array(secret.utf8)).hex), .text(themes.joined(separator: ",")),
                .text(Token.Permission.allCases.filter(permissions.contains).map(\.rawValue).joined(separator: ",")),
            ])
            try audit(actor: actor, action: "token-create", theme: "", detail: name)
        }
        return secret
    }

    public func tokens() throws -> [Token] {
        try tokenRows().map(\.token)
    }

    /// Removes a token: the next request that presents it is refused. False when there was none.
    @discardableResult
    public func revokeToken(name: String, by actor: String = Release.operatorName) throws -> Bool {
        try transaction {
            let removed = try connection.execute("DELETE FROM themed_token WHERE name = $1 RETURNING name", [.text(name)]).count > 0
            if removed { try audit(actor: actor, action: "token-revoke", theme: "", detail: name) }
            return removed
        }
    }

    /// The token whose secret this is, if any. Every stored hash is compared, each in full, so the
    /// time taken says nothing about how close a guess came.
    public func token(forSecret secret: String) throws -> Token? {
        let presented = Array(ContentHash.of(Array(secret.utf8)).hex.utf8)
        var match: Token?
        for row in try tokenRows() {
            let stored = Array(row.hash.utf8)
            var difference = UInt8(stored.count == presented.count ? 0 : 1)
            for index in 0..<min(stored.count, presented.count) { difference |= stored[index] ^ presented[index] }
            if difference == 0 { match = row.token }
        }
        return match
    }

    private func tokenRows() throws -> [(token: Token, hash: String)] {
        let rows = try connection.execute("""
            SELECT name, hash, themes, permissions, to_char(created AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') FROM themed_token ORDER BY name
            """)
        return rows.values.compactMap { row in
            guard row.count == 5, let name = row[0], let hash = row[1], let themes = row[2], let permissions = row[3] else { return nil }
            let token = Token(name: name, themes: themes.split(separator: ",").map(String.init),
                              permissions: Set(permissions.split(separator: ",").compactMap { Token.Permission(rawValue: String($0)) }),
                              created: row[4] ?? "")
            return (token, hash)
        }
    }
}
