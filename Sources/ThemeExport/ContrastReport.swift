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

    /// What `GET /themes/{t}/contrast` answers: the policy, how many checks fail, and each pair
    /// with its modes (a ratio to the hundredth; `missing` names a colour with no value there).
    struct Body: Encodable {
        struct Pair: Encodable {
            var foreground: String
            var background: String
            var minimum: Double
            var largeText: Bool
            var passes: Bool
            var modes: [Mode]
        }

        struct Mode: Encodable {
            var mode: String
            var passes: Bool
            var ratio: Double?
            var missing: String?
        }

        var theme: String
        /// refuse or warn.
        var policy: String
        var failures: Int
        var pairs: [Pair]
    }

    var body: Body {
        Body(theme: theme, policy: refuses ? "refuse" : "warn", failures: failures.count, pairs: pairs.map { pair, checks in
            Body.Pair(foreground: pair.foreground, background: pair.background, minimum: pair.minimum, largeText: pair.largeText,
                      passes: checks.allSatisfy(\.passes), modes: checks.map { check in
                          Body.Mode(mode: check.mode.name, passes: check.passes, ratio: check.ratio.map { ($0 * 100).rounded() / 100 },
                                    missing: check.missing)
                      })
        })
    }
}

extension ContrastReport: Encodable {
    public func encode(to encoder: any Encoder) throws { try body.encode(to: encoder) }
}
