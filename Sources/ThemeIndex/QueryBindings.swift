import SQLite

/// The parameters of a lookup query as it is written: each `bind` appends a value and returns
/// its placeholder (`?7`), so SQL text and values cannot drift apart.
struct QueryBindings {
    private(set) var values: [SQLiteValue] = []

    mutating func bind(_ value: SQLiteValue) -> String {
        values.append(value)
        return "?\(values.count)"
    }

    mutating func bind(_ value: Int) -> String { bind(.integer(Int64(value))) }

    /// The chain's theme ids as placeholders, and a `CASE <column> ... END` giving each theme's
    /// depth (0 for the requested theme, 1 for its parent, ...).
    mutating func themes(_ chain: [ThemeInfo], column: String) -> (ids: String, depth: String) {
        let ids = chain.map { bind(.integer($0.id)) }
        let cases = ids.enumerated().map { "WHEN \($0.element) THEN \($0.offset)" }.joined(separator: " ")
        return (ids.joined(separator: ", "), "CASE \(column) \(cases) END")
    }
}
