import ThemeVocabulary

/// One line of the audit trail: who did what to which theme, and when.
public struct AuditEntry: Sendable, Equatable {
    public var id: Int64
    /// When the store wrote it, RFC 3339 in UTC.
    public var at: String
    public var actor: String
    public var action: String
    public var theme: String
    public var generation: Generation?
    public var detail: String
}

extension ClusterStore {
    /// The newest `limit` lines of the audit trail, newest first: of `theme` only when given, and
    /// written at or after `since` (RFC 3339) when given.
    public func auditTrail(theme: String?, since: String?, limit: Int) throws -> [AuditEntry] {
        let rows = try connection.execute("""
            SELECT id, to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'), actor, action, theme, generation, detail
            FROM themed_audit
            WHERE ($1::text IS NULL OR theme = $1) AND ($2::timestamptz IS NULL OR at >= $2::timestamptz)
            ORDER BY id DESC LIMIT $3
            """, [theme.map { .text($0) } ?? .null, since.map { .text($0) } ?? .null, .int(Int64(max(0, limit)))])
        return try rows.values.map { row in
            guard row.count == 7, let id = row[0].flatMap({ Int64($0) }), let at = row[1], let actor = row[2], let action = row[3],
                  let theme = row[4], let detail = row[6] else { throw ClusterError.badRelease("a row of themed_audit") }
            return AuditEntry(id: id, at: at, actor: actor, action: action, theme: theme, generation: row[5].flatMap { Int64($0) }, detail: detail)
        }
    }
}
