import Foundation
import JSON

/// A Tokens Studio folder as it syncs to git: `$themes.json` (themes in groups, each marking
/// token sets `enabled`, `source` or `disabled`), `$metadata.json` (`tokenSetOrder`) and the
/// sets, `core.json`, `semantic/light.json`, ... (docs/TOKENS.md, "Tokens Studio folders").
///
/// A group of several themes is a modifier (contexts: its themes' names, default: the first);
/// a group of one is always on; themes without a group are one group ("theme"). For a choice of themes, a set is used when a chosen theme marks
/// it `enabled` or `source`; the used sets merge in `tokenSetOrder` (later wins), aliases resolve
/// over all of them, and the tokens answered are those of the enabled sets.
public struct TokensStudioThemes: Sendable {
    enum Status: String, Sendable { case enabled, source, disabled }

    struct Theme: Sendable {
        var name: String
        var sets: [String: Status]
    }

    /// Groups in the order `$themes.json` first names them, each with its themes in order.
    var groups: [(name: String, themes: [Theme])]
    var setOrder: [String]
    /// What the folder holds that the plugin reads past (a stale entry, a set the order omits,
    /// themes without a group), one line per kind of file.
    var warnings: [TokenWarning] = []

    typealias Invalid = TokenResolver.Invalid

    /// The group themes without one form (`?theme=Dark` chooses among them), unless a group of
    /// `$themes.json` has the name.
    static let ungroupedName = "theme"

    /// Reads `$themes.json` (nil: a folder without themes, every set enabled) and `$metadata.json`,
    /// as the plugin does with `files`, the sets the folder has (relative paths without `.json`,
    /// in file order): `tokenSetOrder` first, an entry naming no set skipped, then the sets it
    /// omits in file order; a theme's set the folder does not have is skipped.
    init(themes: JSONValue?, metadata: JSONValue, files: [String]) throws(Invalid) {
        (setOrder, groups) = ([], [])
        func invalid(_ file: String, _ pointer: String, _ reason: String) -> Invalid { Invalid(location: TokenLocation(file: file, pointer: pointer), reason: reason) }
        // What the plugin reads past, one warning a file (their lines are grouped by kind and file).
        var orderNotes: [String] = [], themeNotes: [String] = []
        func warn(_ file: String, _ notes: [String]) {
            if !notes.isEmpty { warnings.append(TokenWarning(TokenLocation(file: file, pointer: ""), .studioFolder, notes.joined(separator: "; "))) }
        }
        let present = Set(files)
        var stale: [String] = []
        if case .array(let order)? = metadata["tokenSetOrder"] {
            for (index, entry) in order.enumerated() {
                guard case .string(let name) = entry, Self.isSafe(set: name) else {
                    orderNotes.append("tokenSetOrder/\(index) is not a set name inside the folder (no .., no leading /), skipped")
                    continue
                }
                guard present.contains(name) else {
                    if !stale.contains(name) { stale.append(name) }
                    continue
                }
                if !setOrder.contains(name) { setOrder.append(name) }
            }
        } else {
            orderNotes.append("no tokenSetOrder (an array of set names): the sets merge in file order")
        }
        if !stale.isEmpty {
            orderNotes.append("tokenSetOrder names \(Self.count(stale, "set")) the folder does not have, skipped: \(Self.list(stale))")
        }
        // The plugin reads every set of the folder: those the order omits come after, in file order.
        let listed = Set(setOrder)
        let appended = files.filter { !listed.contains($0) && Self.isAppendable($0) }
        if !appended.isEmpty, metadata["tokenSetOrder"] != nil {
            orderNotes.append("\(Self.count(appended, "set")) of the folder not in tokenSetOrder, merged after it in file order: \(Self.list(appended))")
        }
        setOrder += appended
        warn("$metadata.json", orderNotes)
        guard let themes else {
            groups = [("", [Theme(name: "", sets: Dictionary(uniqueKeysWithValues: setOrder.map { ($0, .enabled) }))])]
            return
        }
        guard case .array(let entries) = themes else { throw invalid("$themes.json", "", "$themes.json is an array of themes") }
        var named: [(name: String, group: String?, sets: [String: Status], index: Int)] = []
        for (index, entry) in entries.enumerated() {
            guard case .string(let name)? = entry["name"] else { throw invalid("$themes.json", "/\(index)/name", "a theme needs a name") }
            var group: String?
            if case .string(let given)? = entry["group"], !given.isEmpty { group = given }
            var sets: [String: Status] = [:]
            if case .object(let selected)? = entry["selectedTokenSets"] {
                for (set, status) in selected {
                    guard case .string(let word) = status, let parsed = Status(rawValue: word) else {
                        throw invalid("$themes.json", "/\(index)/selectedTokenSets/\(JSONPointer.escape(set))", "a set's status is enabled, source or disabled")
                    }
                    sets[set] = parsed
                }
            }
            named.append((name, group, sets, index))
        }
        // Themes without a group are one group, one of them chosen at a time, as the plugin
        // keeps them (they were made before groups existed, as alternatives).
        let groupNames = Set(named.compactMap(\.group))
        let ungrouped = groupNames.contains(Self.ungroupedName) ? "\(Self.ungroupedName) (no group)" : Self.ungroupedName
        let loose = named.filter { $0.group == nil }
        if loose.count > 1 {
            themeNotes.append("\(loose.count) themes have no group: they form one group \"\(ungrouped)\" whose themes exclude each other, "
                 + "\(loose[0].name) by default (?\(ungrouped)=\(loose[1].name) for another); give them groups to combine them")
        }
        for theme in named {
            let group = theme.group ?? ungrouped
            if let position = groups.firstIndex(where: { $0.name == group }) {
                guard !groups[position].themes.contains(where: { $0.name == theme.name }) else {
                    throw invalid("$themes.json", "/\(theme.index)/name", "group \(group) has two themes named \(theme.name)")
                }
                groups[position].themes.append(Theme(name: theme.name, sets: theme.sets))
            } else {
                groups.append((group, [Theme(name: theme.name, sets: theme.sets)]))
            }
        }
        let missing = Array(Set(named.flatMap { $0.sets.filter { $0.value != .disabled && !present.contains($0.key) }.map(\.key) })).sorted()
        if !missing.isEmpty {
            themeNotes.append("themes name \(Self.count(missing, "set")) the folder does not have, skipped: \(Self.list(missing))")
        }
        warn("$themes.json", themeNotes)
    }

    /// A set the folder has that the plugin would merge though the order omits it: not themed's
    /// own theme.json, not the plugin's `$` files.
    static func isAppendable(_ set: String) -> Bool { set != "theme" && !set.hasPrefix("$") }

    /// The name of the set a file of the folder holds (its relative path without `.json`), or nil
    /// for what is no set: `$themes.json`, `$metadata.json`, files not `.json`.
    public static func set(ofFile relative: String) -> String? {
        guard relative.hasSuffix(".json"), !(relative as NSString).lastPathComponent.hasPrefix("$") else { return nil }
        let name = String(relative.dropLast(5))
        return isSafe(set: name) ? name : nil
    }

    private static func count(_ names: [String], _ noun: String) -> String { names.count == 1 ? "1 \(noun)" : "\(names.count) \(noun)s" }
    private static func list(_ names: [String]) -> String {
        names.prefix(10).joined(separator: ", ") + (names.count > 10 ? " and \(names.count - 10) more" : "")
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
