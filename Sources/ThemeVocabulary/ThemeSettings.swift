import Foundation

/// A theme's own settings: the `theme.json` beside its sources.
///
/// Read strictly, because a slip here changes what a brand serves without a word: an unknown key
/// is refused naming the nearest known one, and a value of the wrong kind is refused naming its
/// key. Whoever reads a theme (the index, a release check, a cluster replica) reads it here.
public struct ThemeSettings: Sendable, Equatable {
    public static let fileName = "theme.json"
    /// The keys theme.json may hold.
    public static let keys = ["parent", "traits", "tokens", "contrast", "material", "onError"]
    /// A theme.json larger than this is not a settings file.
    public static let maximumBytes = 64 << 10

    /// The theme this one inherits from: what it does not have is looked up there.
    public var parent: String?
    /// For a theme of design tokens: which of themed's traits each context of the resolver's
    /// modifiers stands for (`{"theme": {"dark": {"appearance": "dark"}}}`).
    public var traits: [String: [String: ContextTraits]] = [:]
    /// For a theme of design tokens (`"tokens": {"onError": "keep"}`): an edit that refuses
    /// tokens the theme served keeps the last good generation, as a broken catalog does; by
    /// default (`"serve"`) what still resolves is served and the edit is told as a `theme-error`.
    public var keepTokensOnError = false
    /// `"onError": "keep"`: an edit of any source that brings problems its last read did not have
    /// (a colour file that no longer parses, a catalog rendition that cannot be read, a refused
    /// token) keeps that source's last good read serving whole, and the theme says why; by default
    /// (`"serve"`) what can still be read is served, and palettes say `degraded`.
    public var keepsLastGoodOnError = false
    /// Colours that must contrast (`"contrast": {"pairs": [...], "policy": "warn"}`): each text
    /// colour over its background, in every mode the theme serves (`GET /themes/{t}/contrast`).
    public var contrastPairs: [ContrastPair] = []
    /// `refuse`: a pair below its minimum is an error (`themed check`); `warn` (the default): a warning.
    public var refusesLowContrast = false
    /// The Material 3 colour roles made from a seed, beneath the theme's own colours.
    public var material: MaterialSettings?
    /// The keys its theme.json gives: what a child theme does not give, it takes from its parent.
    public private(set) var givenKeys: Set<String> = []
    /// The keys a child inherits: how its contexts map to traits, its contrast pairs and policy,
    /// its error policies. (Not `parent`; not `material`, whose roles the child already inherits
    /// as colours of its parent.)
    public static let inheritedKeys: Set<String> = ["traits", "contrast", "tokens", "onError"]

    /// A text colour over a background, by name, and the WCAG 2.1 ratio it needs (4.5, or 3
    /// for large text, unless `minimum` says).
    public struct ContrastPair: Sendable, Equatable {
        public var foreground: String
        public var background: String
        public var minimum: Double
        public var largeText: Bool

        public init(foreground: String, background: String, minimum: Double? = nil, largeText: Bool = false) {
            (self.foreground, self.background, self.largeText) = (foreground, background, largeText)
            self.minimum = minimum ?? (largeText ? 3 : 4.5)
        }

        /// One line for a check that fails: `contrast: label over background in dark: 3.21:1,
        /// below 4.5`, or which colour has no value.
        public func failure(ratio: Double?, missing: String?, in mode: String) -> String {
            let pair = "contrast: \(foreground) over \(background) in \(mode)"
            guard let ratio else { return "\(pair): \(missing ?? "a colour") has no value" }
            return "\(pair): \(Self.format(ratio)):1, below \(Self.format(minimum))"
        }

        /// A ratio to the hundredth, without trailing zeros.
        public static func format(_ ratio: Double) -> String {
            let hundredths = (ratio * 100).rounded() / 100
            return hundredths == hundredths.rounded() ? String(Int(hundredths)) : String(hundredths)
        }
    }

    /// Whether any pair is checked: theme.json names one, or the theme has Material roles.
    public var checksContrast: Bool { !contrastPairs.isEmpty || material != nil }

    /// The pairs checked: theme.json's, and for a theme with Material roles (`material`) each
    /// `onX` over `X` among its colours (`onPrimary` over `primary`, `onSurfaceVariant` over
    /// `surfaceVariant`, ...) at 4.5:1, unless theme.json names that pair itself.
    public func contrastPairs(among names: Set<String>) -> [ContrastPair] {
        guard material != nil else { return contrastPairs }
        let named = Set(contrastPairs.map { "\($0.foreground)\u{0}\($0.background)" })
        let roles = names.sorted().compactMap { name -> ContrastPair? in
            guard name.hasPrefix("on"), let first = name.dropFirst(2).first, first.isUppercase else { return nil }
            let background = first.lowercased() + name.dropFirst(3)
            guard names.contains(background), !named.contains("\(name)\u{0}\(background)") else { return nil }
            return ContrastPair(foreground: name, background: background)
        }
        return contrastPairs + roles
    }

    /// What one modifier context stands for; what it does not say is any.
    public struct ContextTraits: Sendable, Equatable {
        public var luminosity: Luminosity?
        public var highContrast: Bool?
        public var gamut: Gamut?

        public init(luminosity: Luminosity? = nil, highContrast: Bool? = nil, gamut: Gamut? = nil) {
            (self.luminosity, self.highContrast, self.gamut) = (luminosity, highContrast, gamut)
        }
    }

    public init(parent: String? = nil, traits: [String: [String: ContextTraits]] = [:]) {
        (self.parent, self.traits) = (parent, traits)
    }

    /// Why a theme.json cannot be used, in a sentence that names the key.
    public struct Invalid: Error, Sendable, Equatable, CustomStringConvertible {
        public var reason: String
        public var description: String { "\(ThemeSettings.fileName): \(reason)" }
    }

    public init(json data: Data) throws(Invalid) {
        guard data.count <= Self.maximumBytes else { throw Invalid(reason: "is \(data.count) bytes; settings are at most \(Self.maximumBytes)") }
        let object: Any
        do { object = try JSONSerialization.jsonObject(with: data) } catch { throw Invalid(reason: "is not valid JSON") }
        guard let values = object as? [String: Any] else { throw Invalid(reason: "is not a JSON object") }
        givenKeys = Set(values.keys)
        for key in values.keys.sorted() where !Self.keys.contains(key) {
            let hint = Spelling.nearest(to: key, among: Self.keys).map { " (did you mean \"\($0)\"?)" } ?? ""
            throw Invalid(reason: "unknown key \"\(key)\"\(hint); a theme.json may hold \(Self.keys.map { "\"\($0)\"" }.joined(separator: ", "))")
        }
        switch values["parent"] {
        case nil, is NSNull:
            parent = nil
        case let name as String where ThemeName.isValid(name):
            parent = name
        case let name as String:
            throw Invalid(reason: "\"parent\" is \"\(name.prefix(100))\", which is not a theme name (letters, digits, -, _ and .)")
        default:
            throw Invalid(reason: "\"parent\" must be a theme's name, as a string")
        }
        if let traits = values["traits"] { self.traits = try Self.traits(traits) }
        if let contrast = values["contrast"] { (contrastPairs, refusesLowContrast) = try Self.contrast(contrast) }
        if let material = values["material"] { self.material = try MaterialSettings(material) }
        switch values["onError"] {
        case nil: break
        case let word as String where word == "keep" || word == "serve": keepsLastGoodOnError = word == "keep"
        default: throw Invalid(reason: "\"onError\" is \"keep\" or \"serve\"")
        }
        if let tokens = values["tokens"] {
            guard let options = tokens as? [String: Any], Set(options.keys).isSubset(of: ["onError"]) else {
                throw Invalid(reason: "\"tokens\" is {\"onError\": \"keep\" or \"serve\"}")
            }
            switch options["onError"] {
            case nil: break
            case let word as String where word == "keep" || word == "serve": keepTokensOnError = word == "keep"
            default: throw Invalid(reason: "\"tokens.onError\" is \"keep\" or \"serve\"")
            }
        }
    }

    /// `{"pairs": [{"foreground": NAME, "background": NAME, "minimum": 4.5, "largeText": false}], "policy": "warn"|"refuse"}`.
    static func contrast(_ value: Any) throws(Invalid) -> (pairs: [ContrastPair], refuses: Bool) {
        let shape = "\"contrast\" is {\"pairs\": [{\"foreground\": NAME, \"background\": NAME, \"minimum\": 4.5, \"largeText\": false}], \"policy\": \"warn\" or \"refuse\"}"
        guard let object = value as? [String: Any], Set(object.keys).isSubset(of: ["pairs", "policy"]), let list = object["pairs"] as? [Any] else {
            throw Invalid(reason: shape)
        }
        var pairs: [ContrastPair] = []
        for (index, entry) in list.enumerated() {
            guard let fields = entry as? [String: Any], Set(fields.keys).isSubset(of: ["foreground", "background", "minimum", "largeText"]),
                  let foreground = fields["foreground"] as? String, let background = fields["background"] as? String else {
                throw Invalid(reason: "contrast.pairs[\(index)]: \(shape)")
            }
            var minimum: Double?
            if let given = fields["minimum"] {
                guard let ratio = given as? Double, (1...21).contains(ratio) else { throw Invalid(reason: "contrast.pairs[\(index)].minimum is a ratio from 1 to 21") }
                minimum = ratio
            }
            var largeText = false
            if let given = fields["largeText"] {
                guard let flag = given as? Bool else { throw Invalid(reason: "contrast.pairs[\(index)].largeText is true or false") }
                largeText = flag
            }
            pairs.append(ContrastPair(foreground: foreground, background: background, minimum: minimum, largeText: largeText))
        }
        switch object["policy"] {
        case nil: return (pairs, false)
        case let word as String where word == "warn" || word == "refuse": return (pairs, word == "refuse")
        default: throw Invalid(reason: "\"contrast.policy\" is \"warn\" or \"refuse\"")
        }
    }

    /// `{"<modifier>": {"<context>": {"appearance": "light"|"dark", "contrast": "high"|"normal", "gamut": "p3"|"srgb"}}}`.
    static func traits(_ value: Any) throws(Invalid) -> [String: [String: ContextTraits]] {
        let shape = "\"traits\" is {\"<modifier>\": {\"<context>\": {\"appearance\": \"light\" or \"dark\", \"contrast\": \"high\", \"gamut\": \"p3\"}}}"
        guard let modifiers = value as? [String: Any] else { throw Invalid(reason: shape) }
        var traits: [String: [String: ContextTraits]] = [:]
        for (modifier, contextsValue) in modifiers {
            guard let contexts = contextsValue as? [String: Any] else { throw Invalid(reason: shape) }
            for (context, fieldsValue) in contexts {
                guard let fields = fieldsValue as? [String: Any] else { throw Invalid(reason: shape) }
                var mapped = ContextTraits()
                for (key, field) in fields.sorted(by: { $0.key < $1.key }) {
                    let text = field as? String ?? ""
                    let place = "traits.\(modifier).\(context).\(key)"
                    switch key {
                    case "appearance":
                        guard text == "light" || text == "dark" else { throw Invalid(reason: "\(place) is \"light\" or \"dark\"") }
                        mapped.luminosity = text == "light" ? .light : .dark
                    case "contrast":
                        guard let contrast = Contrast(name: text) else { throw Invalid(reason: "\(place) is \"high\" or \"normal\"") }
                        mapped.highContrast = contrast == .high
                    case "gamut":
                        guard let gamut = Gamut(requestName: text) else { throw Invalid(reason: "\(place) is \"p3\" or \"srgb\"") }
                        mapped.gamut = gamut
                    default:
                        let hint = Spelling.nearest(to: key, among: ["appearance", "contrast", "gamut"]).map { " (did you mean \"\($0)\"?)" } ?? ""
                        throw Invalid(reason: "\(place): unknown trait\(hint); a context may set appearance, contrast and gamut")
                    }
                }
                traits[modifier, default: [:]][context] = mapped
            }
        }
        return traits
    }

    /// The settings of the theme folder at `folder`: none when it has no theme.json.
    public init(folder: String) throws(Invalid) {
        let path = "\(folder)/\(Self.fileName)"
        guard FileManager.default.fileExists(atPath: path) else { self.init(); return }
        guard let data = FileManager.default.contents(atPath: path) else { throw Invalid(reason: "cannot be read") }
        try self.init(json: data)
    }

    /// The settings a theme folder serves by: its own theme.json, and for each inherited key it
    /// does not give, its nearest ancestor's that does (ancestors are found beside it, in the same
    /// themes folder, by `parent`). A brand over a base so takes the base's traits and contrast
    /// pairs without copying them. An ancestor whose theme.json cannot be read lends nothing.
    public init(inheritingAt folder: String) throws(Invalid) {
        try self.init(folder: folder)
        let themes = (folder as NSString).deletingLastPathComponent
        var seen: Set<String> = [(folder as NSString).lastPathComponent]
        var next = parent
        while let name = next, ThemeName.isValid(name), seen.insert(name).inserted, seen.count <= Self.maximumParentDepth + 1 {
            guard let ancestor = try? ThemeSettings(folder: "\(themes)/\(name)") else { break }
            inherit(from: ancestor)
            next = ancestor.parent
        }
    }

    /// A parent chain is at most this deep (ParentChains refuses a deeper one).
    public static let maximumParentDepth = 8

    /// Takes each inherited key `ancestor` gives and this does not.
    mutating func inherit(from ancestor: ThemeSettings) {
        for key in Self.inheritedKeys.subtracting(givenKeys).intersection(ancestor.givenKeys) {
            switch key {
            case "traits": traits = ancestor.traits
            case "contrast": (contrastPairs, refusesLowContrast) = (ancestor.contrastPairs, ancestor.refusesLowContrast)
            case "tokens": keepTokensOnError = ancestor.keepTokensOnError
            case "onError": keepsLastGoodOnError = ancestor.keepsLastGoodOnError
            default: continue
            }
            givenKeys.insert(key)
        }
    }
}
