/// A language identifier as CFBundle and ICU compare them (lookup-rules.md 2.2, 2.3): a
/// language, an optional script and an optional region, normalized so that `zh-hant-tw`,
/// `zh_TW` and `zh-Hant-TW` are the same localization, and legacy folder names such as
/// `English` mean `en`.
public struct LanguageTag: Hashable, Sendable, CustomStringConvertible {
    public var language: String
    public var script: String?
    public var region: String?

    public init(language: String, script: String? = nil, region: String? = nil) {
        self.language = language
        self.script = script
        self.region = region
    }

    /// `language[_Script][_REGION]`.
    public var description: String {
        [language, script, region].compactMap { $0 }.joined(separator: "_")
    }

    /// The tag as written, with `-` turned into `_`, keywords (`@...`) and extensions dropped
    /// and each subtag in its canonical case. Never maps aliases: `base("English")` is `english`.
    public static func base(_ tag: String) -> LanguageTag {
        let withoutKeywords = tag.prefix { $0 != "@" }
        var subtags = withoutKeywords.split(whereSeparator: { $0 == "-" || $0 == "_" }).map(String.init)
        // A one-letter subtag starts an extension (`-u-ca-...`, `-x-...`): it and the rest go.
        if let singleton = subtags.dropFirst().firstIndex(where: { $0.count == 1 }) { subtags.removeSubrange(singleton...) }
        var result = LanguageTag(language: subtags.first?.lowercased() ?? "")
        for subtag in subtags.dropFirst() {
            if subtag.count == 4, subtag.allSatisfy(\.isLetter), result.script == nil, result.region == nil {
                result.script = subtag.prefix(1).uppercased() + subtag.dropFirst().lowercased()
            } else if result.region == nil, (subtag.count == 2 && subtag.allSatisfy(\.isLetter)) || (subtag.count == 3 && subtag.allSatisfy(\.isNumber)) {
                result.region = subtag.uppercased()
            }
        }
        return result
    }

    /// The tag with legacy names, language aliases and Chinese regions mapped (2.2).
    public static func normalized(_ tag: String) -> LanguageTag {
        if let legacy = legacyNames[tag.lowercased()] { return base(legacy) }
        var result = base(tag)
        if let alias = languageAliases[result.language] { result.language = alias }
        if result.language == "zh", result.script == nil, let region = result.region, let script = chineseScripts[region] {
            result.script = script
        }
        return result
    }

    /// The language subtag of the normalized tag.
    public static func language(_ tag: String) -> String { normalized(tag).language }

    /// Languages that match each other at all: `nb` and `nn` meet at `no`, Cantonese and Wu at `zh`.
    static func group(_ tag: LanguageTag) -> String {
        switch tag.language {
        case "nb", "nn": "no"
        case "yue", "wuu": "zh"
        case "ars": "ar"
        default: tag.language
        }
    }

    /// The tag and its parents up to (not including) the root (2.3).
    public var chain: [LanguageTag] {
        var chain = [self]
        var current = self
        while let parent = current.parent, chain.count < 8 {
            chain.append(parent)
            current = parent
        }
        return chain
    }

    /// The chain of an available localization whose region is not its language's default: its
    /// own id twice, which puts it one step farther from every request (2.3).
    var chainWithPenalty: [LanguageTag] {
        guard let region, !isPenaltyExempt, region != defaultRegion else { return chain }
        return [self] + chain
    }

    private var isPenaltyExempt: Bool {
        (language == "es" && region == "MX" && script == nil) || (language == "zh" && script == "Hant" && region == "TW")
    }

    private var defaultRegion: String {
        if language == "zh" { return script == "Hant" ? "TW" : "CN" }
        return Self.defaultRegions[language] ?? language.uppercased()
    }

    /// The parent of 2.3's table, or nil at the root.
    var parent: LanguageTag? {
        switch (language, script, region) {
        case ("en", nil, let region?):
            if region == "NZ" { return LanguageTag(language: "en", region: "AU") }
            if Self.commonwealthRegions.contains(region) { return LanguageTag(language: "en", region: "GB") }
            if region == "US" || region == "001" || Self.unitedStatesTerritories.contains(region) { return LanguageTag(language: "en") }
            return LanguageTag(language: "en", region: "001")
        case ("es", nil, let region?) where Self.latinAmericanRegions.contains(region):
            return LanguageTag(language: "es", region: "419")
        case ("pt", nil, let region?) where Self.europeanPortugueseRegions.contains(region):
            return LanguageTag(language: "pt", region: "PT")
        case ("zh", "Hant", "MO"):
            return LanguageTag(language: "zh", script: "Hant", region: "HK")
        case ("zh", "Hant", "HK"), ("zh", "Hant", "TW"):
            return LanguageTag(language: "zh", script: "Hant")
        case ("zh", "Hant", nil):
            return nil
        case ("zh", "Hans", _?):
            return LanguageTag(language: "zh", script: "Hans")
        case (_, _, _?):
            return LanguageTag(language: language, script: script)
        case (_, let script?, nil):
            let preferred = Self.defaultScripts[language]
            return preferred == nil || preferred == script ? LanguageTag(language: language) : nil
        default:
            return nil
        }
    }

    // MARK: - Tables of 2.2 and 2.3

    static let legacyNames: [String: String] = [
        "english": "en", "french": "fr", "german": "de", "italian": "it", "japanese": "ja", "spanish": "es", "dutch": "nl",
        "chinese": "zh_Hans", "korean": "ko", "portuguese": "pt", "russian": "ru", "swedish": "sv", "danish": "da",
        "finnish": "fi", "norwegian": "nb", "polish": "pl", "arabic": "ar", "thai": "th", "turkish": "tr",
    ]
    static let languageAliases = ["no": "nb", "iw": "he", "in": "id", "ji": "yi", "tl": "fil", "mo": "ro"]
    static let chineseScripts = ["CN": "Hans", "SG": "Hans", "TW": "Hant", "HK": "Hant", "MO": "Hant"]
    static let commonwealthRegions: Set<String> = [
        "AU", "IN", "HK", "IE", "SG", "ZA", "MY", "PK", "150", "AG", "AI", "BB", "BM", "BS", "BW", "BZ", "CC", "CK", "CM",
        "CX", "CY", "DG", "DM", "ER", "FJ", "FK", "FM", "GD", "GG", "GH", "GI", "GM", "GY", "IM", "IO", "JE", "JM", "KE",
        "KI", "KN", "KY", "LC", "LR", "LS", "MG", "MO", "MS", "MT", "MU", "MV", "MW", "NA", "NF", "NG", "NR", "NU", "PG",
        "PN", "PW", "RW", "SB", "SC", "SD", "SH", "SL", "SS", "SX", "SZ", "TC", "TK", "TO", "TT", "TV", "TZ", "UG", "VC",
        "VG", "VU", "WS", "ZM", "ZW",
    ]
    static let unitedStatesTerritories: Set<String> = ["AS", "GU", "MH", "MP", "PR", "UM", "VI"]
    static let latinAmericanRegions: Set<String> = [
        "MX", "AR", "BO", "CL", "CO", "CR", "CU", "DO", "EC", "GT", "HN", "NI", "PA", "PE", "PR", "PY", "SV", "US", "UY", "VE",
    ]
    static let europeanPortugueseRegions: Set<String> = ["AO", "CH", "CV", "GQ", "GW", "LU", "MO", "MZ", "ST", "TL"]
    static let defaultScripts = ["zh": "Hans", "sr": "Cyrl", "uz": "Latn", "az": "Latn", "bs": "Latn", "pa": "Guru", "mn": "Cyrl", "ms": "Latn"]
    static let defaultRegions = [
        "en": "US", "fr": "FR", "de": "DE", "es": "ES", "it": "IT", "pt": "BR", "ja": "JP", "ko": "KR", "nl": "NL", "ru": "RU",
        "sv": "SE", "da": "DK", "nb": "NO", "fi": "FI", "pl": "PL", "tr": "TR", "ar": "EG", "he": "IL", "el": "GR", "cs": "CZ",
        "hu": "HU", "uk": "UA", "vi": "VN", "hi": "IN",
    ]
}
