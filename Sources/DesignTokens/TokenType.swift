/// The types of the Format module (2025.10) and their names; a `$type` the module does not define
/// is kept as given (`other`) and its value served as it is.
public enum TokenType: Sendable, Hashable, CustomStringConvertible {
    case color, dimension, fontFamily, fontWeight, duration, cubicBezier, number
    case strokeStyle, border, transition, shadow, gradient, typography
    case other(String)

    static let known: [(TokenType, String)] = [
        (.color, "color"), (.dimension, "dimension"), (.fontFamily, "fontFamily"), (.fontWeight, "fontWeight"),
        (.duration, "duration"), (.cubicBezier, "cubicBezier"), (.number, "number"), (.strokeStyle, "strokeStyle"),
        (.border, "border"), (.transition, "transition"), (.shadow, "shadow"), (.gradient, "gradient"), (.typography, "typography"),
    ]

    public init(name: String) {
        self = Self.known.first { $0.1 == name }?.0 ?? .other(name)
    }

    public var name: String {
        if case .other(let name) = self { return name }
        return Self.known.first { $0.0 == self }?.1 ?? ""
    }

    public var description: String { name }
}

/// A token's place: its group names and its own name (`color.brand.$root`).
public struct TokenPath: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var segments: [String]

    public init(_ segments: [String]) { self.segments = segments }

    /// `a.b.c` as written in an alias or a URL.
    public init(dotted: String) { segments = dotted.split(separator: ".", omittingEmptySubsequences: false).map(String.init) }

    /// The path an alias names: `{a.b.c}` (the whole string); nil for anything else.
    public init?(alias text: String) {
        guard text.count > 2, text.hasPrefix("{"), text.hasSuffix("}") else { return nil }
        let inner = text.dropFirst().dropLast()
        guard !inner.contains(where: { $0 == "{" || $0 == "}" }), !inner.isEmpty else { return nil }
        self.init(dotted: String(inner))
    }

    public var dotted: String { segments.joined(separator: ".") }
    public var description: String { dotted }

    /// The JSON pointer of the token in a document whose root holds it (`/color/brand/$root`).
    public var pointer: String { segments.map(JSONPointer.escape).map { "/" + $0 }.joined() }

    public static func < (left: TokenPath, right: TokenPath) -> Bool { left.segments.lexicographicallyPrecedes(right.segments) }
}

/// Where something is, for a person: the file (relative to the theme folder) and the JSON pointer
/// in it.
public struct TokenLocation: Sendable, Hashable, CustomStringConvertible {
    public var file: String
    public var pointer: String

    public init(file: String, pointer: String) { (self.file, self.pointer) = (file, pointer) }

    public var description: String { "\(file)#\(pointer)" }

    /// Where the token or group at `path` of the merged tokens was written: below the nearest
    /// token or group above it whose origin is known (a source's `$ref` pointer included), else
    /// in the merged document.
    init(of path: [String], in origins: [String: TokenLocation]) {
        var prefix = path
        while !prefix.isEmpty {
            if let origin = origins[TokenPath(prefix).pointer] {
                self.init(file: origin.file, pointer: origin.pointer + path.dropFirst(prefix.count).map { "/" + JSONPointer.escape($0) }.joined())
                return
            }
            prefix.removeLast()
        }
        self.init(file: origins.values.first?.file ?? "tokens", pointer: TokenPath(path).pointer)
    }
}

/// A token (or a resolver's part) that cannot be served, and why. It is never given a value;
/// the rest of the theme serves.
public struct TokenProblem: Sendable, Hashable, CustomStringConvertible {
    public var location: TokenLocation
    public var reason: String

    public init(_ location: TokenLocation, _ reason: String) { (self.location, self.reason) = (location, reason) }

    public var description: String { "\(location): \(reason)" }
}

/// What a converter wrote that the Format module does not, served anyway as the value it
/// denotes (`DraftValues`, a token that is also a group): the spec's hard rules stay problems.
public struct TokenWarning: Sendable, Hashable, CustomStringConvertible {
    /// The kinds a theme's warnings are grouped by: one line per kind and file.
    public enum Kind: String, Sendable, CaseIterable {
        /// A value in a draft's form: `"#0a66cc"`, `"16px"`, `"200ms"`.
        case draftForm = "draft-form"
        /// A dimension in em, dp, pt or %.
        case unit
        /// A `hex` fallback of 3, 4 or 8 digits beside the components.
        case hexFallback = "hex-fallback"
        /// A token (`$value`) with tokens inside it: both answer.
        case tokenGroup = "token-group"
        /// Tokens Studio's keys of before DTCG (`value`, `type`, `description`), read as `$value`, `$type`, `$description`.
        case studioKeys = "studio-keys"
        /// Keys beside an older-form token's value that are no token (`deprecatedValues`, a
        /// comment): kept under the token's `$extensions["org.themed.beside"]`.
        case besideValue = "beside-value"
        /// Something the Format or Resolver module does not allow that still means one thing
        /// (a hue of 360, a component out of its space's range, metadata of the wrong kind, an
        /// unknown `$type`, a modifier of one context), served as that.
        case format
        /// A Tokens Studio folder read as the plugin reads it: an entry of `tokenSetOrder` naming
        /// no set, a set the order omits, themes without a group.
        case studioFolder = "studio-folder"
        /// A value as CSS writes it in a string that means one thing: a colour function or name
        /// (`hsla()`, `rgba()`, `transparent`), a gradient, a line height in px or without a unit.
        case cssForm = "css-form"
    }

    public var location: TokenLocation
    public var kind: Kind
    public var detail: String

    public init(_ location: TokenLocation, _ kind: Kind, _ detail: String) { (self.location, self.kind, self.detail) = (location, kind, detail) }

    public var description: String { "\(location): \(detail) (\(kind.rawValue))" }
}
