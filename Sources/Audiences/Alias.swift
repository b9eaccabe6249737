import JSON
import ThemeVocabulary

/// A named pointer to a theme, with rules: the first rule whose audience takes the client gives
/// its theme, else the alias's own. `current` is the default alias (what `PUT /active` sets). A
/// generation pins the pointer (promotion: production points at the generation staging has).
public struct Alias: Sendable, Equatable {
    public struct Rule: Sendable, Equatable {
        public var audience: Audience
        public var theme: String
        public var generation: Generation?

        public init(audience: Audience, theme: String, generation: Generation? = nil) {
            (self.audience, self.theme, self.generation) = (audience, theme, generation)
        }
    }

    public var name: String
    public var theme: String
    public var generation: Generation?
    public var rules: [Rule]

    public init(name: String, theme: String, generation: Generation? = nil, rules: [Rule] = []) {
        (self.name, self.theme, self.generation, self.rules) = (name, theme, generation, rules)
    }

    /// The most rules an alias may have: each request tries them in order.
    public static let maximumRules = 64

    /// An alias's name follows the theme name rule (`ThemeName`); `current` is the active theme's.
    public static func checkName(_ name: String) throws(AudienceError) {
        guard ThemeName.isValid(name) else { throw AudienceError("\"\(name.prefix(60))\" is not an alias name: \(ThemeName.rule)") }
    }

    /// An alias from its JSON document (`PUT /aliases/{alias}`): `theme`, optional `generation`,
    /// `rules` of `when` (`platform`, `appVersion`, `locale`, `attributes`) and `theme`. Each
    /// problem names where it is (`rules[0].when.appVersion: ...`).
    public init(name: String, json: JSONValue) throws(AudienceError) {
        try Alias.checkName(name)
        guard case .object(let members) = json else { throw AudienceError("the body must be a JSON object like {\"theme\": \"brand-acme\", \"rules\": [...]}") }
        try Alias.refuseUnknown(members.map(\.0), known: ["theme", "generation", "rules", "at"], at: "")
        let (theme, generation) = try Alias.target(json, at: "")
        var rules: [Rule] = []
        if let list = json["rules"] {
            guard case .array(let elements) = list else { throw AudienceError("rules must be a list") }
            guard elements.count <= Alias.maximumRules else { throw AudienceError("rules: at most \(Alias.maximumRules)") }
            for (index, element) in elements.enumerated() {
                let place = "rules[\(index)]"
                guard case .object(let ruleMembers) = element else { throw AudienceError("\(place) must be an object with when and theme") }
                try Alias.refuseUnknown(ruleMembers.map(\.0), known: ["when", "theme", "generation"], at: place + ".")
                let (ruleTheme, ruleGeneration) = try Alias.target(element, at: place + ".")
                rules.append(Rule(audience: try Alias.audience(element["when"] ?? .object([]), at: place + ".when"), theme: ruleTheme, generation: ruleGeneration))
            }
        }
        self.init(name: name, theme: theme, generation: generation, rules: rules)
    }

    /// The alias as its document (what `PUT /aliases/{alias}` takes and the store keeps: `Encodable`).
    /// Throws only where an encoding would (a generation past Int's range, which none is).
    public var json: JSONValue {
        get throws { try JSONValueEncoder().encode(self) }
    }

    /// The document with the alias's name first: what `GET /aliases/{alias}` answers, and what a
    /// scheduled change keeps until it is due.
    public var named: Named { Named(alias: self) }

    public struct Named: Encodable, Sendable {
        public var alias: Alias

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Alias.Member.self)
            try container.encode(alias.name, forKey: .name)
            try alias.encode(to: encoder)
        }
    }

    /// Every theme the alias can point at (its own and its rules').
    public var themes: [String] { [theme] + rules.map(\.theme) }

    private static func target(_ value: JSONValue, at place: String) throws(AudienceError) -> (String, Generation?) {
        guard case .string(let theme)? = value["theme"], ThemeName.isValid(theme) else {
            throw AudienceError("\(place)theme must be a theme's name")
        }
        guard let generation = value["generation"] else { return (theme, nil) }
        guard case .int(let number) = generation, number > 0 else { throw AudienceError("\(place)generation must be a positive whole number") }
        return (theme, Generation(number))
    }

    private static func audience(_ when: JSONValue, at place: String) throws(AudienceError) -> Audience {
        guard case .object(let members) = when else { throw AudienceError("\(place) must be an object") }
        try refuseUnknown(members.map(\.0), known: ["platform", "appVersion", "locale", "attributes"], at: place + ".")
        var audience = Audience()
        if let value = when["platform"] { audience.platforms = try strings(value, at: place + ".platform") }
        if let value = when["appVersion"] {
            guard case .string(let text) = value else { throw AudienceError("\(place).appVersion must be a range like \">=5.2\"") }
            do { audience.appVersion = try VersionRange(text) } catch { throw AudienceError("\(place).appVersion: \(error)") }
        }
        if let value = when["locale"] {
            var patterns: [LocalePattern] = []
            for text in try strings(value, at: place + ".locale") {
                do { patterns.append(try LocalePattern(text)) } catch { throw AudienceError("\(place).locale: \(error)") }
            }
            audience.locales = patterns
        }
        if let value = when["attributes"] {
            guard case .object(let attributes) = value else { throw AudienceError("\(place).attributes must be an object of lists") }
            for (name, values) in attributes {
                guard !Client.reservedNames.contains(name), !name.isEmpty, name.count <= 64 else {
                    throw AudienceError("\(place).attributes: \"\(name.prefix(64))\" cannot be an attribute's name")
                }
                audience.attributes.append((name, try strings(values, at: "\(place).attributes.\(name)")))
            }
        }
        return audience
    }

    private static func strings(_ value: JSONValue, at place: String) throws(AudienceError) -> [String] {
        let elements: [JSONValue] = if case .array(let list) = value { list } else { [value] }
        var texts: [String] = []
        for element in elements {
            guard case .string(let text) = element, !text.isEmpty, text.count <= 128 else { throw AudienceError("\(place) must be a string or a list of strings") }
            texts.append(text)
        }
        guard !texts.isEmpty else { throw AudienceError("\(place) may not be an empty list") }
        return texts
    }

    private static func refuseUnknown(_ names: [String], known: [String], at place: String) throws(AudienceError) {
        if let unknown = names.first(where: { !known.contains($0) }) {
            throw AudienceError("\(place)\(unknown) is not a field here (\(known.joined(separator: ", ")))")
        }
    }
}

/// An alias's document: `theme`, `generation` when pinned, `rules` of `when`, `theme` and
/// `generation`; `when` holds only what the audience asks.
extension Alias: Encodable {
    enum Member: String, CodingKey {
        case name, theme, generation, rules, when, platform, appVersion, locale, attributes
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Member.self)
        try container.encode(theme, forKey: .theme)
        try container.encodeIfPresent(generation, forKey: .generation)
        try container.encode(rules, forKey: .rules)
    }
}

extension Alias.Rule: Encodable {
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Alias.Member.self)
        try container.encode(audience, forKey: .when)
        try container.encode(theme, forKey: .theme)
        try container.encodeIfPresent(generation, forKey: .generation)
    }
}

extension Audience: Encodable {
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Alias.Member.self)
        try container.encodeIfPresent(platforms, forKey: .platform)
        try container.encodeIfPresent(appVersion?.description, forKey: .appVersion)
        try container.encodeIfPresent(locales?.map(\.description), forKey: .locale)
        if !attributes.isEmpty { try container.encode(OrderedMembers(attributes.map { ($0.name, $0.values) }), forKey: .attributes) }
    }
}
