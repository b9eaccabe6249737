import JSON
import ThemeVocabulary

/// A design token as served: its value with every alias and pointer replaced by what it names,
/// its type, and the chain of aliases it came through.
public struct ResolvedToken: Sendable, Equatable {
    public var path: TokenPath
    public var type: TokenType
    public var value: JSONValue
    /// When its value is an alias: the tokens it goes through, nearest first.
    public var aliasOf: [TokenPath]
    /// Its value as written (aliases kept), for exports that keep references.
    public var written: JSONValue
    public var description: String?
    /// `true` or the reason, when the token or a group above it is deprecated.
    public var deprecated: JSONValue?
    public var extensions: JSONValue?
    public var location: TokenLocation

    /// A colour token's value as a colour of its space (`none` components as nil); nil for
    /// another type.
    public var color: CSSColor? {
        guard type == .color, case .string(let name)? = value["colorSpace"], let space = CSSColor.Space(rawValue: name),
              case .array(let components)? = value["components"] else { return nil }
        return CSSColor(space: space, components: components.map(TokenValidation.number), alpha: value["alpha"].flatMap(TokenValidation.number) ?? 1)
    }
}

/// Tokens from sources merged in order (Format module 2025.10): groups, `$type` inherited from
/// groups, `$root`, `$extends`, `$ref` pointers, aliases (inside composite values too), every
/// type checked. A token that cannot be resolved or does not fit its type is a problem, never a
/// guess; the rest serve.
public struct TokenSet: Sendable {
    public private(set) var tokens: [ResolvedToken] = []
    public private(set) var problems: [TokenProblem] = []
    /// What converters wrote that the Format module does not, served anyway (`TokenWarning`).
    public private(set) var warnings: [TokenWarning] = []

    /// The properties the Format module gives groups and tokens; any other `$` name is reported.
    static let groupProperties: Set<String> = ["$type", "$description", "$deprecated", "$extensions", "$extends", "$schema"]
    static let tokenProperties: Set<String> = ["$value", "$type", "$description", "$deprecated", "$extensions"]

    public init(sources: [TokenSource]) {
        let expansion = TokenExpansion(MergedTokens(sources))
        problems = expansion.problems
        var flattener = Flattener(origins: expansion.origins)
        flattener.walk(expansion.root, path: [], type: nil, deprecated: nil)
        problems += flattener.problems
        var resolver = AliasResolver(raw: flattener.tokens)
        for token in flattener.tokens { _ = resolver.resolve(token.path) }
        tokens = flattener.tokens.compactMap { resolver.resolved[$0.path] ?? nil }
        problems += resolver.problems
        warnings = flattener.warnings + resolver.warnings
    }

    public subscript(path: TokenPath) -> ResolvedToken? { tokens.first { $0.path == path } }
}

/// A token as written, before its aliases are followed.
struct RawToken {
    var path: TokenPath
    var value: JSONValue
    var explicitType: TokenType?
    var inheritedType: TokenType?
    var description: String?
    var deprecated: JSONValue?
    var extensions: JSONValue?
    var location: TokenLocation
}

/// Walks groups into tokens, carrying `$type` and `$deprecated` down.
struct Flattener {
    let origins: [String: TokenLocation]
    var tokens: [RawToken] = []
    var problems: [TokenProblem] = []
    var warnings: [TokenWarning] = []

    func location(_ path: [String]) -> TokenLocation {
        TokenLocation(of: path, in: origins)
    }

    /// `isToken`: the group is also a token (it has a `$value`), whose own properties are not a group's.
    mutating func walk(_ group: JSONValue, path: [String], type: TokenType?, deprecated: JSONValue?, isToken: Bool = false) {
        guard case .object(let members) = group else { return }
        var type = type, deprecated = deprecated
        if case .string(let name)? = group["$type"] { type = TokenType(name: name) }
        if let flag = group["$deprecated"] { deprecated = flag == .bool(false) ? nil : flag }
        for (name, value) in members {
            if name.hasPrefix("$"), name != "$root" {
                if !TokenSet.groupProperties.contains(name), !(isToken && TokenSet.tokenProperties.contains(name)) { problems.append(TokenProblem(location(path + [name]), "\(name) is not a property the Format module defines")) }
                continue
            }
            if name.contains("{") || name.contains("}") || name.contains(".") {
                problems.append(TokenProblem(location(path + [name]), "a token or group name may not contain {, } or . (\"\(name.prefix(60))\")"))
                continue
            }
            guard case .object(let properties) = value else {
                problems.append(TokenProblem(location(path + [name]), "\"\(name.prefix(60))\" is neither a token (an object with $value) nor a group"))
                continue
            }
            guard let tokenValue = value["$value"] else {
                walk(value, path: path + [name], type: type, deprecated: deprecated)
                continue
            }
            if let child = properties.first(where: { !$0.0.hasPrefix("$") }) {
                // Converters write a token with tokens inside it (`color.primary` and
                // `color.primary.hover`): both answer; the group's tokens take its $type.
                warnings.append(TokenWarning(location(path + [name]), .tokenGroup,
                                             "is a token ($value) with members of a group (\"\(child.0.prefix(60))\"): the token is served, and so is each member that is a token"))
                walk(value, path: path + [name], type: type, deprecated: deprecated, isToken: true)
            }
            if let unknown = properties.first(where: { $0.0.hasPrefix("$") && !TokenSet.tokenProperties.contains($0.0) }) {
                problems.append(TokenProblem(location(path + [name]), "\(unknown.0) is not a property the Format module defines"))
            }
            var explicit: TokenType?
            if let given = value["$type"] {
                guard case .string(let name) = given else {
                    problems.append(TokenProblem(location(path + [name]), "$type must be a string"))
                    continue
                }
                explicit = TokenType(name: name)
            }
            var description: String?
            if case .string(let text)? = value["$description"] { description = text }
            let flag = value["$deprecated"].map { $0 == .bool(false) ? nil : $0 } ?? deprecated
            tokens.append(RawToken(path: TokenPath(path + [name]), value: tokenValue, explicitType: explicit, inheritedType: type,
                                   description: description, deprecated: flag, extensions: value["$extensions"],
                                   location: location(path + [name])))
        }
    }
}
