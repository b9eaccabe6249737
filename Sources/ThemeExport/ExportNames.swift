/// How colour names become names that CSS, Android and Swift accept, by one rule:
///
/// 1. The name is split into words: runs of ASCII letters and digits, split again where camel
///    case starts a word (`primaryTint`, `HTMLColor`). Everything else (`/`, `.`, spaces,
///    other scripts) only separates words.
/// 2. The words are joined in the target's style: `--scene-onboarding-tint` for CSS,
///    `scene_onboarding_tint` for Android, `sceneOnboardingTint` for Swift.
///    Design tokens keep the name as it is, except the characters DTCG reserves: `{`, `}` and
///    `.` become `-`, and so does a leading `$`.
///    In camel case, two words that meet digit to digit keep a `_` between them (`space1_5x`),
///    so that names differing in their digits' grouping never meet.
/// 3. A name with no words becomes `color`; an Android or Swift name that would start with a
///    digit gets `color` in front; a Swift keyword is written in backquotes.
/// 4. When two names make the same export name, the first in name order keeps it and the
///    others get the next free number (`--a-b-2`). Every such case is reported as a
///    `Collision`, and the exports list them: nothing is merged.
public enum NameStyle: Sendable {
    case cssCustomProperty, androidResource, swiftIdentifier, kotlinIdentifier, designToken

    public func exportName(for name: String) -> String {
        if self == .designToken {
            let safe = String(name.enumerated().map { index, character in
                "{}.".contains(character) || (index == 0 && character == "$") ? "-" : character
            })
            return safe.isEmpty ? "color" : safe
        }
        let words = NameStyle.words(of: name)
        switch self {
        case .designToken:
            return name
        case .cssCustomProperty:
            return "--" + (words.isEmpty ? "color" : words.map { $0.lowercased() }.joined(separator: "-"))
        case .androidResource:
            let joined = words.map { $0.lowercased() }.joined(separator: "_")
            guard let first = joined.first, !first.isNumber, !NameStyle.javaKeywords.contains(joined) else { return "color_" + joined }
            return joined
        case .swiftIdentifier, .kotlinIdentifier:
            guard let head = words.first else { return "color" }
            // Two words that meet digit to digit keep a `_` between them: `space.1_5x` is
            // `space1_5x`, never the `space15x` of `space.15x`.
            let joined = words.dropFirst().reduce(head.lowercased()) { joined, word in
                let separator = joined.last?.isNumber == true && word.first?.isNumber == true ? "_" : ""
                return joined + separator + word.prefix(1).uppercased() + word.dropFirst().lowercased()
            }
            let name = joined.first?.isNumber == true ? "color" + joined.prefix(1).uppercased() + joined.dropFirst() : joined
            // Kotlin's hard keywords cannot name a val even in backquotes on every platform: a suffix instead.
            return self == .kotlinIdentifier && NameStyle.kotlinKeywords.contains(name) ? name + "Color" : name
        }
    }

    /// What a collision's later names get: `-2`, `_2` or `2`.
    func numbered(_ name: String, _ number: Int) -> String {
        switch self {
        case .cssCustomProperty, .designToken: "\(name)-\(number)"
        case .androidResource: "\(name)_\(number)"
        case .swiftIdentifier, .kotlinIdentifier: "\(name)\(number)"
        }
    }

    static func words(of name: String) -> [String] {
        var words: [String] = []
        var current: [Character] = []
        func flush() {
            if !current.isEmpty { words.append(String(current)) }
            current = []
        }
        let characters = Array(name)
        for (index, character) in characters.enumerated() {
            guard character.isASCII, character.isLetter || character.isNumber else {
                flush()
                continue
            }
            if let previous = current.last, character.isUppercase {
                let next = index + 1 < characters.count ? characters[index + 1] : nil
                // `aB` starts a word at B; `ABc` starts one at B (the end of an acronym).
                if previous.isLowercase || previous.isNumber || (previous.isUppercase && next?.isLowercase == true && next?.isASCII == true) {
                    flush()
                }
            }
            current.append(character)
        }
        flush()
        return words
    }

    static let javaKeywords: Set<String> = [
        "abstract", "assert", "boolean", "break", "byte", "case", "catch", "char", "class", "const", "continue", "default", "do",
        "double", "else", "enum", "extends", "final", "finally", "float", "for", "goto", "if", "implements", "import",
        "instanceof", "int", "interface", "long", "native", "new", "package", "private", "protected", "public", "return",
        "short", "static", "strictfp", "super", "switch", "synchronized", "this", "throw", "throws", "transient", "try",
        "void", "volatile", "while", "true", "false", "null", "_",
    ]

    static let kotlinKeywords: Set<String> = [
        "as", "break", "class", "continue", "do", "else", "false", "for", "fun", "if", "in", "interface", "is", "null", "object",
        "package", "return", "super", "this", "throw", "true", "try", "typealias", "typeof", "val", "var", "when", "while",
    ]

    static let swiftKeywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init", "inout", "internal",
        "let", "open", "operator", "private", "precedencegroup", "protocol", "public", "rethrows", "static", "struct",
        "subscript", "typealias", "var", "break", "case", "catch", "continue", "default", "defer", "do", "else", "fallthrough",
        "for", "guard", "if", "in", "repeat", "return", "throw", "switch", "where", "while", "as", "false", "is", "nil",
        "self", "super", "throws", "true", "try", "await", "any", "some", "consume", "copy", "discard", "borrowing",
        "consuming", "each", "macro", "nonisolated", "package",
    ]
}

/// The export names of a list of colour names in one style, with the collisions that rule 4 of
/// `NameStyle` settled.
public struct ExportNames: Sendable {
    public struct Collision: Sendable, Equatable {
        /// The name more than one colour makes.
        public var exportName: String
        /// The colours that make it, in name order; the first keeps it.
        public var names: [String]
        /// What each later name is exported as, in the same order.
        public var renamedTo: [String]

        public init(exportName: String, names: [String], renamedTo: [String]) {
            (self.exportName, self.names, self.renamedTo) = (exportName, names, renamedTo)
        }
    }

    public let style: NameStyle
    private let exported: [String: String]
    public let collisions: [Collision]

    /// With a `prefix` (`ExportOptions.prefix`), its words come first in every name (`ds` and
    /// `primary` make `--ds-primary`); a name with no words of its own is the prefix's `color`.
    public init(_ names: [String], style: NameStyle, prefix: String = "") {
        self.style = style
        var exported: [String: String] = [:]
        var taken = Set<String>()
        var claimants: [String: [String]] = [:]
        var order: [String] = []
        // Plain names are claimed first, so that a colour really called `a-b-2` keeps its name
        // rather than losing it to the second claimant of `a-b`.
        for name in names {
            let plain = prefix.isEmpty ? style.exportName(for: name)
                : style.exportName(for: prefix + " " + (NameStyle.words(of: name).isEmpty ? "color" : name))
            if claimants[plain] == nil { order.append(plain) }
            claimants[plain, default: []].append(name)
        }
        for plain in order { taken.insert(plain) }
        var collisions: [Collision] = []
        for plain in order {
            guard let group = claimants[plain], let first = group.first else { continue }
            exported[first] = plain
            var renamed: [String] = []
            var number = 2
            for later in group.dropFirst() {
                while taken.contains(style.numbered(plain, number)) { number += 1 }
                let name = style.numbered(plain, number)
                taken.insert(name)
                exported[later] = name
                renamed.append(name)
            }
            if group.count > 1 { collisions.append(Collision(exportName: plain, names: group, renamedTo: renamed)) }
        }
        self.exported = exported
        self.collisions = collisions
    }

    public subscript(name: String) -> String { exported[name] ?? style.exportName(for: name) }

    /// One line per collision, for the comment at the top of an export and for the CLI.
    public var report: [String] {
        collisions.map { collision in
            let later = zip(collision.names.dropFirst(), collision.renamedTo).map { "\"\($0)\" as \($1)" }
            return "\(collision.names.map { "\"\($0)\"" }.joined(separator: ", ")) all make \(collision.exportName): \"\(collision.names[0])\" keeps it, \(later.joined(separator: ", "))"
        }
    }
}
