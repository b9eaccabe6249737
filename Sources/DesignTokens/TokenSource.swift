import JSON

/// Tokens as a file holds them (or a part of a file a resolver points at, or tokens written
/// inline in a resolver): the JSON and where it came from, for problems that name it.
public struct TokenSource: Sendable {
    public var root: JSONValue
    /// Where `root` is: the file (relative to the theme folder) and the pointer inside it.
    public var location: TokenLocation

    public init(root: JSONValue, location: TokenLocation) { (self.root, self.location) = (root, location) }
}

/// Sources merged in order (the last occurrence of a token wins; groups merge member by member),
/// with where each token of the merged tree came from.
struct MergedTokens {
    var root: JSONValue = .object([])
    /// By the pointer of a token in `root`: its file and pointer there.
    var origins: [String: TokenLocation] = [:]

    init(_ sources: [TokenSource]) {
        for source in sources { merge(source.root, from: source.location) }
    }

    private mutating func merge(_ incoming: JSONValue, from location: TokenLocation) {
        var replacedValues: [(JSONValue, [String])] = []
        root = Self.merging(incoming, into: root) { replacedValues.append(($0, $1)) }
        for (value, path) in replacedValues { recordOrigins(of: value, at: path, from: location, relative: path) }
    }

    /// `incoming` laid over `existing`: groups merge member by member, anything else (a token, a
    /// value) replaces. `replaced` is told of every value put in whole, with its path.
    static func merging(_ incoming: JSONValue, into existing: JSONValue, at path: [String] = [],
                        replaced: (JSONValue, [String]) -> Void = { _, _ in }) -> JSONValue {
        guard isGroup(incoming), isGroup(existing), case .object(var members) = existing, case .object(let additions) = incoming else {
            replaced(incoming, path)
            return incoming
        }
        // Positions by name: a palette group has thousands of members.
        var positions = Dictionary(members.enumerated().map { ($0.element.0, $0.offset) }, uniquingKeysWith: { _, last in last })
        for (key, value) in additions {
            if let index = positions[key] {
                members[index].1 = merging(value, into: members[index].1, at: path + [key], replaced: replaced)
            } else {
                replaced(value, path + [key])
                positions[key] = members.count
                members.append((key, value))
            }
        }
        return .object(members)
    }

    /// A group: an object without `$value`.
    static func isGroup(_ value: JSONValue) -> Bool {
        guard case .object = value else { return false }
        return value["$value"] == nil
    }

    private mutating func recordOrigins(of value: JSONValue, at path: [String], from location: TokenLocation, relative: [String]) {
        guard case .object(let members) = value else { return }
        let pointer = location.pointer + relative.map { "/" + JSONPointer.escape($0) }.joined()
        if value["$value"] != nil {
            origins[TokenPath(path).pointer] = TokenLocation(file: location.file, pointer: pointer)
            return
        }
        for (key, member) in members where !key.hasPrefix("$") || key == "$root" {
            recordOrigins(of: member, at: path + [key], from: location, relative: relative + [key])
        }
    }
}
