import ThemeBundle

/// A localization as an Android resource qualifier: `fr` → `fr`, `fr-CA` → `fr-rCA`, and with a
/// script or a numeric region, BCP 47 form: `zh-Hans` → `b+zh+Hans`, `es-419` → `b+es+419`.
enum AndroidLocale {
    /// The qualifier, or nil for a name that is no language tag (`Base`, a folder of another kind).
    static func qualifier(_ localization: String) -> String? {
        guard localization != "Base" else { return nil }
        let tag = LanguageTag.normalized(localization)
        guard (2...3).contains(tag.language.count), tag.language.allSatisfy({ $0.isASCII && $0.isLowercase }) else { return nil }
        switch (tag.script, tag.region) {
        case (nil, nil): return tag.language
        case (nil, let region?) where region.count == 2: return "\(tag.language)-r\(region)"
        default: return (["b", tag.language] + [tag.script, tag.region].compactMap { $0 }).joined(separator: "+")
        }
    }
}
