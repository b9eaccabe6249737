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
        type == .color ? TokenValidation.cssColor(value) : nil
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

    /// How values are read: as the Format module writes them, or as Tokens Studio does too
    /// (arithmetic in values, colour modifiers).
    enum Dialect: Sendable { case dtcg, tokensStudio }

    public init(sources: [TokenSource]) {
        self.init(sources: sources, dialect: .dtcg)
    }

    /// With `answering`, only those tokens answer (the others are there for aliases), and the
    /// problems and warnings of `quietFiles` (sets read for aliases only) are not said.
    init(sources: [TokenSource], dialect: Dialect, answering: Set<TokenPath>? = nil, quietFiles: Set<String> = [], warnings given: [TokenWarning] = []) {
        let expansion = TokenExpansion(MergedTokens(sources))
        problems = expansion.problems
        var flattener = Flattener(origins: expansion.origins)
        flattener.walk(expansion.root, path: [], type: nil, deprecated: nil)
        problems += flattener.problems
        var resolver = AliasResolver(raw: flattener.tokens, dialect: dialect)
        let answered = answering.map { paths in flattener.tokens.filter { paths.contains($0.path) } } ?? flattener.tokens
        for token in answered { _ = resolver.resolve(token.path) }
        tokens = answered.compactMap { resolver.resolved[$0.path] ?? nil }
        problems = (problems + resolver.problems).filter { !quietFiles.contains($0.location.file) }
        warnings = (given + flattener.warnings + resolver.warnings).filter { !quietFiles.contains($0.location.file) }
    }

    /// The paths of the tokens in a group tree (objects with `$value`, `$root` included).
    static func paths(in root: JSONValue, at path: [String] = []) -> [TokenPath] {
        guard case .object(let members) = root else { return [] }
        if root["$value"] != nil { return [TokenPath(path)] }
        return members.filter { !$0.0.hasPrefix("$") || $0.0 == "$root" }.flatMap { paths(in: $0.1, at: path + [$0.0]) }
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
    /// A `$type` the Format module does not define: served as given, and said.
    mutating func warnUnknownType(_ name: String, at path: [String]) {
        warnings.append(TokenWarning(location(path), .format, "\(name.prefix(60)) is no type of the Format module; its tokens are served as written"))
    }

    /// `$description`, `$deprecated` or `$extensions` of the wrong kind: ignored, and said.
    mutating func warnMetadata(of token: JSONValue, at path: [String]) {
        if let description = token["$description"], description.stringValue == nil {
            warnings.append(TokenWarning(location(path), .format, "$description is a string; this one is ignored"))
        }
        switch token["$deprecated"] {
        case nil, .bool?, .string?: break
        default: warnings.append(TokenWarning(location(path), .format, "$deprecated is true, false or a string; this one is ignored"))
        }
        switch token["$extensions"] {
        case nil, .object?: break
        default: warnings.append(TokenWarning(location(path), .format, "$extensions is an object; this one is ignored"))
        }
    }

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
        if case .string(let name)? = group["$type"] {
            type = TokenType(name: name)
            if case .other = type { warnUnknownType(name, at: path) }
        }
        if let flag = group["$deprecated"] { deprecated = flag == .bool(false) ? nil : flag }
        for (name, value) in members {
            if name.hasPrefix("$"), name != "$root" {
                if !TokenSet.groupProperties.contains(name), !(isToken && TokenSet.tokenProperties.contains(name)) { problems.append(TokenProblem(location(path + [name]), "\(name) is not a property the Format module defines")) }
                continue
            }
            if name.contains(where: { $0 == "{" || $0 == "}" || $0 == "." }) {
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
                guard case .string(let typeName) = given else {
                    problems.append(TokenProblem(location(path + [name]), "$type must be a string"))
                    continue
                }
                explicit = TokenType(name: typeName)
                if case .other = explicit { warnUnknownType(typeName, at: path + [name]) }
            }
            warnMetadata(of: value, at: path + [name])
            var description: String?
            if case .string(let text)? = value["$description"] { description = text }
            var flag = deprecated
            switch value["$deprecated"] {
            case .bool(false)?: flag = nil
            case .some(let given) where given.stringValue != nil || given == .bool(true): flag = given
            default: break
            }
            var extensions: JSONValue?
            if case .object? = value["$extensions"] { extensions = value["$extensions"] }
            tokens.append(RawToken(path: TokenPath(path + [name]), value: tokenValue, explicitType: explicit, inheritedType: type,
                                   description: description, deprecated: flag, extensions: extensions,
                                   location: location(path + [name])))
        }
    }
}
