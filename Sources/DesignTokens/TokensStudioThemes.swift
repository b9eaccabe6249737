import JSON

/// A Tokens Studio folder as it syncs to git: `$themes.json` (themes in groups, each marking
/// token sets `enabled`, `source` or `disabled`), `$metadata.json` (`tokenSetOrder`) and the
/// sets, `core.json`, `semantic/light.json`, ... (docs/TOKENS.md, "Tokens Studio folders").
///
/// A group of several themes is a modifier (contexts: its themes' names, default: the first);
/// a group of one is always on. For a choice of themes, a set is used when a chosen theme marks
/// it `enabled` or `source`; the used sets merge in `tokenSetOrder` (later wins), aliases resolve
/// over all of them, and the tokens answered are those of the enabled sets.
struct TokensStudioThemes: Sendable {
    enum Status: String, Sendable { case enabled, source, disabled }

    struct Theme: Sendable {
        var name: String
        var sets: [String: Status]
    }

    /// Groups in the order `$themes.json` first names them, each with its themes in order.
    var groups: [(name: String, themes: [Theme])]
    var setOrder: [String]

    typealias Invalid = TokenResolver.Invalid

    /// Reads `$themes.json` (nil: a folder without themes, every set enabled) and `$metadata.json`.
    init(themes: JSONValue?, metadata: JSONValue) throws(Invalid) {
        func invalid(_ file: String, _ pointer: String, _ reason: String) -> Invalid { Invalid(location: TokenLocation(file: file, pointer: pointer), reason: reason) }
        guard case .array(let order)? = metadata["tokenSetOrder"] else {
            throw invalid("$metadata.json", "/tokenSetOrder", "tokenSetOrder (an array of set names) is required")
        }
        setOrder = []
        for (index, entry) in order.enumerated() {
            guard case .string(let name) = entry, Self.isSafe(set: name) else {
                throw invalid("$metadata.json", "/tokenSetOrder/\(index)", "a set name is a relative path inside the folder (no .., no leading /)")
            }
            if !setOrder.contains(name) { setOrder.append(name) }
        }
        groups = []
        guard let themes else {
            groups = [("", [Theme(name: "", sets: Dictionary(uniqueKeysWithValues: setOrder.map { ($0, .enabled) }))])]
            return
        }
        guard case .array(let entries) = themes else { throw invalid("$themes.json", "", "$themes.json is an array of themes") }
        for (index, entry) in entries.enumerated() {
            guard case .string(let name)? = entry["name"] else { throw invalid("$themes.json", "/\(index)/name", "a theme needs a name") }
            // Themes made before groups existed have none: each is a group of its own, always on.
            var group = name
            if case .string(let named)? = entry["group"] { group = named }
            var sets: [String: Status] = [:]
            if case .object(let selected)? = entry["selectedTokenSets"] {
                for (set, status) in selected {
                    guard case .string(let word) = status, let parsed = Status(rawValue: word) else {
                        throw invalid("$themes.json", "/\(index)/selectedTokenSets/\(JSONPointer.escape(set))", "a set's status is enabled, source or disabled")
                    }
                    sets[set] = parsed
                }
            }
            if let position = groups.firstIndex(where: { $0.name == group }) {
                guard !groups[position].themes.contains(where: { $0.name == name }) else {
                    throw invalid("$themes.json", "/\(index)/name", "group \(group) has two themes named \(name)")
                }
                groups[position].themes.append(Theme(name: name, sets: sets))
            } else {
                groups.append((group, [Theme(name: name, sets: sets)]))
            }
        }
    }

    static func isSafe(set name: String) -> Bool {
        !name.isEmpty && !name.hasPrefix("/") && !name.split(separator: "/").contains { $0 == ".." || $0 == "." || $0.isEmpty }
    }

    /// The file of a set: its name with `.json`.
    static func file(of set: String) -> String { set + ".json" }

    /// Groups of several themes: the resolver's modifiers.
    var modifiers: [TokenResolver.Modifier] {
        groups.filter { $0.themes.count > 1 }.map { group in
            TokenResolver.Modifier(name: group.name, contexts: group.themes.map(\.name), defaultContext: group.themes[0].name,
                                   description: "a theme group of Tokens Studio")
        }
    }

    /// The sets a choice of themes uses, in `tokenSetOrder`, and whether each is enabled (its
    /// tokens answer) or a source only (its tokens are there for aliases).
    func sets(for inputs: [String: String]) -> [(set: String, enabled: Bool)] {
        var status: [String: Status] = [:]
        for group in groups {
            let theme = group.themes.first { $0.name == inputs[group.name] } ?? group.themes[0]
            for (set, marked) in theme.sets {
                switch marked {
                case .enabled: status[set] = .enabled
                case .source where status[set] != .enabled: status[set] = .source
                default: break
                }
            }
        }
        return setOrder.compactMap { set in status[set].flatMap { $0 == .disabled ? nil : (set, $0 == .enabled) } }
    }

    /// Sets a theme uses that `tokenSetOrder` does not list: Tokens Studio has no place for them
    /// in the merge, so they are not read (said as a problem).
    var unorderedSets: [String] {
        let ordered = Set(setOrder)
        return Array(Set(groups.flatMap { $0.themes.flatMap { $0.sets.filter { $0.value != .disabled }.map(\.key) } }).subtracting(ordered)).sorted()
    }

    /// A resolver document that says what the folder holds (what `tokens.resolver.json`
    /// answers): a modifier per group of several themes, each context the sets its theme uses.
    var document: JSONValue {
        func references(_ theme: Theme) -> JSONValue {
            .array(setOrder.filter { theme.sets[$0] == .enabled || theme.sets[$0] == .source }.map { .object([("$ref", .string(Self.file(of: $0)))]) })
        }
        let always = groups.filter { $0.themes.count == 1 }
        let sets: [(String, JSONValue)] = always.map { group in (group.name.isEmpty ? "tokens" : group.name, .object([("sources", references(group.themes[0]))])) }
        let modifiers: [(String, JSONValue)] = groups.filter { $0.themes.count > 1 }.map { group in
            (group.name, .object([("contexts", .object(group.themes.map { ($0.name, references($0)) })), ("default", .string(group.themes[0].name))]))
        }
        let order = sets.map { JSONValue.object([("$ref", .string("#/sets/\(JSONPointer.escape($0.0))"))]) }
            + modifiers.map { JSONValue.object([("$ref", .string("#/modifiers/\(JSONPointer.escape($0.0))"))]) }
        return .object([("version", "2025.10"), ("sets", .object(sets)), ("modifiers", .object(modifiers)), ("resolutionOrder", .array(order)),
                        ("$extensions", .object([("org.themed", .object([("source", "Tokens Studio ($themes.json, $metadata.json)")]))]))])
    }
}
