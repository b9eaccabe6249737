/// How a bundle chooses its localization for a client, as CFBundle does with ICU's
/// `ualoc_localizationsToUse` (lookup-rules.md 2.4 and 2.5).
///
/// Only the first preferred language that matches anything decides; the answer is a search
/// list, best first, whose first entry is the chosen localization.
public enum Localization {
    /// The localizations of `available` to use for `preferences`, best first, or [] when no
    /// preferred language matches any of them. `Base` never matches a language.
    public static func localizationsToUse(_ preferences: [String], _ available: [String]) -> [String] {
        let candidates = available.filter { $0 != "Base" }.map { (spelling: $0, base: LanguageTag.base($0), normalized: LanguageTag.normalized($0)) }
        var best: (spelling: String, base: LanguageTag, normalized: LanguageTag)?
        var bestScore = Int.max
        var portugueseFallback: String?
        for preference in preferences where !preference.isEmpty && preference != "root" && !preference.hasPrefix("-") && !preference.hasPrefix("_") {
            let base = LanguageTag.base(preference), normalized = LanguageTag.normalized(preference)
            let chain = normalized.chain
            for candidate in candidates {
                var score: Int
                if base == candidate.base {
                    score = -1
                } else if normalized == candidate.normalized {
                    score = 0
                } else if LanguageTag.group(normalized) == LanguageTag.group(candidate.normalized) {
                    if normalized.description == "pt_PT" && candidate.normalized.description == "pt_BR" {
                        portugueseFallback = portugueseFallback ?? candidate.spelling
                        continue
                    }
                    guard let distance = distance(chain, candidate.normalized.chainWithPenalty) else { continue }
                    score = distance + (normalized.language == candidate.normalized.language ? 0 : 1)
                } else {
                    continue
                }
                if score < bestScore { (best, bestScore) = (candidate, score) }
            }
            if best != nil { break }
        }
        // Second pass: a later preference of the same language that matches exactly wins over a
        // regional approximation ("fr-CH, fr-CA" with fr_FR and fr_CA available picks fr_CA).
        if let chosen = best, bestScore > 0, chosen.normalized.region != nil, chosen.normalized.language != "zh" {
            for preference in preferences where LanguageTag.language(preference) == chosen.normalized.language {
                let base = LanguageTag.base(preference), normalized = LanguageTag.normalized(preference)
                if let exact = candidates.first(where: { $0.base == base || $0.normalized == normalized }) { best = exact }
            }
        }
        guard let chosen = best ?? candidates.first(where: { $0.spelling == portugueseFallback }) else {
            return available.contains("zxx") ? ["zxx"] : []
        }
        var result = [chosen.spelling]
        for id in chosen.normalized.chainWithPenalty {
            for candidate in candidates where candidate.normalized == id && !result.contains(candidate.spelling) {
                result.append(candidate.spelling)
            }
        }
        if chosen.normalized.chain.contains(LanguageTag(language: "zh", script: "Hant", region: "HK")),
           let taiwan = candidates.first(where: { $0.normalized == LanguageTag(language: "zh", script: "Hant", region: "TW") }),
           !result.contains(taiwan.spelling) {
            result.append(taiwan.spelling)
        }
        return result
    }

    /// The smallest i + j where `chain[i] == other[j]`.
    private static func distance(_ chain: [LanguageTag], _ other: [LanguageTag]) -> Int? {
        var smallest: Int?
        for (i, tag) in chain.enumerated() {
            for (j, candidate) in other.enumerated() where candidate == tag {
                smallest = min(smallest ?? .max, i + j)
            }
        }
        return smallest
    }

    /// The localization search list of a bundle for a client's languages (2.5). `main` is the
    /// bundle playing the main bundle (the theme's root bundle when it has localizations), whose
    /// choice a nested bundle follows unless the main bundle allows mixed localizations.
    public static func searchList(for bundle: BundleInfo, preferences: [String], main: BundleInfo? = nil) -> [String] {
        let available = bundle.availableLocalizations
        func appendDevelopmentRegion(_ list: [String]) -> [String] {
            var list = list
            if let region = bundle.developmentRegion {
                if !list.contains(region) { list.append(region) }
            } else if let fallback = ["en", "English", "en_US"].first(where: available.contains), !list.contains(fallback) {
                list.append(fallback)
            }
            return list
        }
        if let main, main != bundle, !main.allowsMixedLocalizations {
            let followed = localizationsToUse(searchList(for: main, preferences: preferences), available)
            if !followed.isEmpty { return appendDevelopmentRegion(followed) }
        }
        let firstAvailable = available.first { $0 != "Base" }
        for attempt in [preferences, bundle.developmentRegion.map { [$0] }, ["en_US"], firstAvailable.map { [$0] }] {
            guard let attempt, !attempt.isEmpty else { continue }
            let list = localizationsToUse(attempt, available)
            if !list.isEmpty { return appendDevelopmentRegion(list) }
        }
        let list = appendDevelopmentRegion([])
        return list.isEmpty ? ["en"] : list
    }
}
