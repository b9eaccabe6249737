import JSON

/// The merged tree with every `$ref` (a JSON pointer, inside values too) and every `$extends`
/// (a group inheriting another's tokens) replaced by what it stands for. What cannot be expanded
/// (a pointer at nothing, a loop, a group extending a token) is a problem, and stands as `null`,
/// which no type accepts: a token built on it is reported, never served with a guess.
struct TokenExpansion {
    private(set) var root: JSONValue
    private(set) var origins: [String: TokenLocation]
    private(set) var problems: [TokenProblem] = []
    private let original: JSONValue
    private var expanding: [String] = []
    private var done: [String: JSONValue] = [:]

    init(_ merged: MergedTokens) {
        original = merged.root
        origins = merged.origins
        root = merged.root
        root = expand(merged.root, at: [])
    }

    private func location(_ path: [String]) -> TokenLocation {
        TokenLocation(of: path, in: origins)
    }

    private mutating func expand(_ node: JSONValue, at path: [String]) -> JSONValue {
        switch node {
        case .array(let elements):
            return .array(elements.enumerated().map { expand($0.element, at: path + [String($0.offset)]) })
        case .object(let members):
            if case .string(let reference)? = node["$ref"] { return expandReference(reference, members: members, at: path) }
            if node["$ref"] != nil { return fail(path, "$ref must be a JSON pointer string, like \"#/color/blue/$value\"") }
            if case .string(let extends)? = node["$extends"] { return expandExtends(extends, members: members, at: path) }
            return .object(members.map { key, value in
                // Vendors' data is kept as written.
                key == "$extensions" ? (key, value) : (key, expand(value, at: path + [key]))
            })
        default:
            return node
        }
    }

    private mutating func fail(_ path: [String], _ reason: String) -> JSONValue {
        problems.append(TokenProblem(location(path), reason))
        return .null
    }

    /// The value at `segments` of the merged tree, expanded; nil (with a problem) when there is
    /// none or it is part of a loop.
    private mutating func target(_ segments: [String], named text: String, from path: [String]) -> JSONValue? {
        let key = TokenPath(segments).pointer
        if let known = done[key] { return known }
        guard !expanding.contains(key) else {
            _ = fail(path, "\(text) is part of a loop of references (\((expanding.drop { $0 != key } + [key]).joined(separator: " → ")))")
            return nil
        }
        guard let value = JSONPointer.value(at: segments, in: original) else {
            _ = fail(path, "\(text) points at nothing")
            return nil
        }
        expanding.append(key)
        defer { expanding.removeLast() }
        let expanded = expand(value, at: segments)
        done[key] = expanded
        return expanded
    }

    private mutating func expandReference(_ reference: String, members: [(String, JSONValue)], at path: [String]) -> JSONValue {
        guard reference.hasPrefix("#") else {
            return fail(path, "$ref \"\(reference.prefix(100))\" points outside this document; token files may point inside themselves (\"#/...\")")
        }
        guard let segments = JSONPointer.segments(reference) else { return fail(path, "$ref \"\(reference.prefix(100))\" is not a JSON pointer") }
        guard let value = target(segments, named: "$ref \"\(reference.prefix(100))\"", from: path) else { return .null }
        // Inside a value a pointer stands for a value: a group is none (a token's is at its `$value`).
        // A pointer through a `$value` (`#/base-shadow/$value/color`) names part of a value.
        if path.contains("$value"), !segments.contains("$value"), MergedTokens.isGroup(value), case .object(let members) = value, members.contains(where: { !$0.0.hasPrefix("$") }) {
            return fail(path, "$ref \"\(reference.prefix(100))\" points at a group, which is no value (point at a token's $value)")
        }
        let siblings = members.filter { $0.0 != "$ref" }.map { ($0.0, $0.0 == "$extensions" ? $0.1 : expand($0.1, at: path + [$0.0])) }
        // A pointer into a token's value (`#/a/b/$value`, `#/a/b/$value/components/0`) stands
        // where a token is: it is that token's value, beside its own `$type`.
        if segments.contains("$value"), !path.contains("$value"), !siblings.contains(where: { $0.0 == "$value" }) {
            return .object([("$value", value)] + siblings)
        }
        if siblings.isEmpty { return value }
        guard case .object(var targetMembers) = value else {
            return fail(path, "$ref \"\(reference.prefix(100))\" points at a value that keys beside it cannot override")
        }
        // Keys beside $ref override the target's, shallowly (JSON Schema 2020-12).
        for (key, sibling) in siblings {
            if let index = targetMembers.firstIndex(where: { $0.0 == key }) { targetMembers[index].1 = sibling } else { targetMembers.append((key, sibling)) }
        }
        return .object(targetMembers)
    }

    private mutating func expandExtends(_ extends: String, members: [(String, JSONValue)], at path: [String]) -> JSONValue {
        guard let base = TokenPath(alias: extends) else { return fail(path, "$extends \"\(extends.prefix(100))\" is not a group reference like \"{button}\"") }
        guard let group = target(base.segments, named: "$extends \(extends)", from: path) else { return .null }
        guard MergedTokens.isGroup(group) else { return fail(path, "$extends \(extends) names a token; only a group can be extended") }
        let local = JSONValue.object(members.filter { $0.0 != "$extends" }.map { ($0.0, $0.0 == "$extensions" ? $0.1 : expand($0.1, at: path + [$0.0])) })
        // What is inherited keeps the origin of the group it came from, unless overridden here.
        for (pointer, origin) in origins where pointer.hasPrefix(base.pointer + "/") {
            let inherited = TokenPath(path).pointer + pointer.dropFirst(base.pointer.count)
            if origins[inherited] == nil { origins[inherited] = origin }
        }
        return MergedTokens.merging(local, into: group)
    }
}
