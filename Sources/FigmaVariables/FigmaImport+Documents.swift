import JSON

extension FigmaImport {
    /// Why a variable has no value in a mode: said in a note, the token left out of that mode.
    enum Unresolved: Error {
        case missing(String)
        case cycle([String])
        case noValue(String, mode: String)
    }

    /// The literal at the end of `id`'s alias chain in `mode` (a mode of its collection, else its
    /// default), and the variable that holds it: an alias to the same collection keeps the mode,
    /// to another collection takes that one's default mode, as Figma resolves them.
    func literal(of id: String, mode: String, seen: [String] = []) throws(Unresolved) -> (variable: FigmaFile.Variable, value: FigmaFile.Value) {
        guard let variable = figma.variables[id] else { throw .missing(id) }
        guard !seen.contains(id) else { throw .cycle(seen + [id]) }
        guard let collection = figma.collections[variable.collectionID] else { throw .missing(variable.collectionID) }
        let mode = collection.modes.contains { $0.id == mode } ? mode : collection.defaultModeID
        guard let value = variable.valuesByMode[mode] ?? variable.valuesByMode[collection.defaultModeID] else { throw .noValue(variable.name, mode: mode) }
        guard case .alias(let target) = value else { return (variable, value) }
        let targetMode = figma.variables[target].flatMap { figma.collections[$0.collectionID] }
            .map { $0.id == collection.id ? mode : $0.defaultModeID } ?? mode
        return try literal(of: target, mode: targetMode, seen: seen + [id])
    }

    /// One mode's token file of a collection: its tokens by group, and under the root's
    /// `$extensions` Figma's ids and the values no DTCG type holds.
    mutating func document(of variables: [FigmaFile.Variable], in collection: FigmaFile.Collection, mode: FigmaFile.Mode) -> [UInt8] {
        var root = Node()
        var unmapped: [(String, JSONValue)] = []
        for variable in variables {
            guard let path = paths[variable.id] else { continue }
            let context = collection.modes.count > 1 ? " in mode \(mode.name)" : ""
            let end: (variable: FigmaFile.Variable, value: FigmaFile.Value)
            do {
                end = try literal(of: variable.id, mode: mode.id)
            } catch {
                notes.append("\(variable.name)\(context): \(Self.explain(error)); left out")
                continue
            }
            var figmaMembers: [(String, JSONValue)] = [("variableId", .string(variable.id))]
            if path.filter({ $0 != "$root" }) != variable.name.split(separator: "/", omittingEmptySubsequences: false).map({ $0.trimmingCharacters(in: .whitespaces) }) {
                figmaMembers.append(("name", .string(variable.name)))
            }
            if !variable.scopes.isEmpty { figmaMembers.append(("scopes", .array(variable.scopes.sorted().map { .string($0) }))) }
            let mapping = TokenMapping.of(end.variable, literal: end.value)
            var value = mapping.value(of: end.value)
            if case .alias(let target)? = variable.valuesByMode[mode.id] ?? variable.valuesByMode[collection.defaultModeID] {
                if let targetPath = paths[target], value != nil {
                    value = .string("{\(targetPath.joined(separator: "."))}")
                } else if let followed = figma.variables[target] {
                    // A library's variable (or a deleted one) is no token here: its value is
                    // written, and what it was an alias of is kept.
                    figmaMembers.append(("aliasOf", .object([("variableId", .string(target)), ("name", .string(followed.name))])))
                }
            }
            guard let type = mapping.type, let value else {
                notes.append("\(variable.name)\(context): a \(end.variable.type.rawValue) no DTCG type holds (scopes \(end.variable.scopes.sorted())); kept under $extensions[\"com.figma\"].unmapped")
                unmapped.append((variable.name, .object(figmaMembers + [("type", .string(end.variable.type.rawValue)), ("value", Self.raw(end.value))])))
                continue
            }
            var token: [(String, JSONValue)] = [("$type", .string(type)), ("$value", value)]
            if !variable.description.isEmpty { token.append(("$description", .string(variable.description))) }
            token.append(("$extensions", .object([("com.figma", .object(figmaMembers))])))
            root.insert(.object(token), at: path)
        }
        var figmaMembers: [(String, JSONValue)] = [("collection", .string(collection.name)), ("collectionId", .string(collection.id)),
                                                   ("mode", .string(mode.name)), ("modeId", .string(mode.id))]
        if !unmapped.isEmpty { figmaMembers.append(("unmapped", .object(unmapped.sorted { $0.0.utf8.lexicographicallyPrecedes($1.0.utf8) }))) }
        let document = JSONValue.object([("$extensions", .object([("com.figma", .object(figmaMembers))]))] + root.members)
        return document.serializedBytes(pretty: true) + [UInt8(ascii: "\n")]
    }

    static func explain(_ error: Unresolved) -> String {
        switch error {
        case .missing(let id): "an alias to \(id), which the file lacks"
        case .cycle(let ids): "aliases that loop (\(ids.joined(separator: " -> ")))"
        case .noValue(let name, let mode): "\(name) has no value in mode \(mode) nor in its default mode"
        }
    }

    /// A literal as the API wrote it, for `unmapped`.
    static func raw(_ value: FigmaFile.Value) -> JSONValue {
        switch value {
        case .color(let red, let green, let blue, let alpha): .object([("r", .double(red)), ("g", .double(green)), ("b", .double(blue)), ("a", .double(alpha))])
        case .number(let number): .double(number)
        case .string(let text): .string(text)
        case .boolean(let flag): .bool(flag)
        case .alias(let id): .object([("type", "VARIABLE_ALIAS"), ("id", .string(id))])
        }
    }

    /// A group of the token tree; members sorted by name when written.
    struct Node {
        var token: JSONValue?
        var children: [String: Node] = [:]

        mutating func insert(_ token: JSONValue, at path: [String]) {
            guard let first = path.first else { self.token = token; return }
            children[first, default: Node()].insert(token, at: Array(path.dropFirst()))
        }

        var members: [(String, JSONValue)] {
            children.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }.map { name, node in
                (name, node.token ?? .object(node.members))
            }
        }
    }
}
