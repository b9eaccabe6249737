import JSON
import ThemeIndex
import ThemeVocabulary

/// The WCAG 2.1 contrast of a theme's colour pairs (theme.json `contrast.pairs`) in every mode
/// it serves (light and dark, each with high contrast and on P3: `ColorMode.all`), read from its
/// `ColorTable` as exports are; what `GET /themes/{t}/contrast` and `themed check` report.
public struct ContrastReport: Sendable {
    public struct Check: Sendable {
        public var pair: ThemeSettings.ContrastPair
        public var mode: ColorMode
        /// nil when a colour of the pair has no value in that mode (`missing` names it).
        public var ratio: Double?
        public var missing: String?

        public var passes: Bool { ratio.map { $0 >= pair.minimum } ?? false }
    }

    public let theme: String
    public let refuses: Bool
    /// Each pair with its checks, one a mode, in theme.json's order.
    public let pairs: [(pair: ThemeSettings.ContrastPair, checks: [Check])]
    public var checks: [Check] { pairs.flatMap(\.checks) }

    public init(table: ColorTable, settings: ThemeSettings) {
        theme = table.theme
        refuses = settings.refusesLowContrast
        var values: [String: [ColorMode: ColorValue]] = [:]
        for row in table.rows { values[row.name] = row.values.mapValues(\.value) }
        pairs = settings.contrastPairs(among: Set(values.keys)).map { pair in
            (pair, ColorMode.all.map { mode in
                // A mode a colour has no value of its own for takes the plain scheme's, as exports do.
                func value(_ name: String) -> ColorValue? { values[name]?[mode] ?? values[name]?[mode.base] }
                guard let foreground = value(pair.foreground) else { return Check(pair: pair, mode: mode, missing: pair.foreground) }
                guard let background = value(pair.background) else { return Check(pair: pair, mode: mode, missing: pair.background) }
                return Check(pair: pair, mode: mode, ratio: foreground.contrastRatio(over: background))
            })
        }
    }

    /// The checks below their minimum or with a colour missing.
    public var failures: [Check] { checks.filter { !$0.passes } }

    /// One line a failure: `contrast: label over background in dark: 3.21:1, below 4.5`.
    public static func describe(_ check: Check) -> String {
        check.pair.failure(ratio: check.ratio, missing: check.missing, in: check.mode.name)
    }

    public var json: JSONValue {
        .object([("theme", .string(theme)), ("policy", .string(refuses ? "refuse" : "warn")), ("failures", .int(failures.count)),
                 ("pairs", .array(pairs.map { pair, checks in
                     .object([
                         ("foreground", .string(pair.foreground)), ("background", .string(pair.background)),
                         ("minimum", .double(pair.minimum)), ("largeText", .bool(pair.largeText)),
                         ("passes", .bool(checks.allSatisfy(\.passes))),
                         ("modes", .array(checks.map { check in
                             var members: [(String, JSONValue)] = [("mode", .string(check.mode.name)), ("passes", .bool(check.passes))]
                             if let ratio = check.ratio { members.append(("ratio", .double((ratio * 100).rounded() / 100))) }
                             if let missing = check.missing { members.append(("missing", .string(missing))) }
                             return .object(members)
                         })),
                     ])
                 }))])
    }
}
