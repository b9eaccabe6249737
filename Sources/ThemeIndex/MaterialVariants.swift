import DesignTokens
import JSON
import MaterialColor
import ThemeVocabulary

/// A theme's Material 3 colour roles (theme.json's `material`) as colour variants, so that every
/// route that answers colours answers them: light as the any appearance (what a request without
/// one gets, as `themed compile` makes it), dark, and each in high contrast at the settings'
/// level. The source is the theme's last: its own colours of the same name come first.
enum MaterialVariants {
    /// One scheme made: the appearance it is served as, its mode's name (`dark-high-contrast`)
    /// and its roles as 0xAARRGGBB.
    struct Scheme {
        var appearance: Appearance
        var mode: String
        var roles: [(name: String, argb: UInt32)]
    }

    /// The four schemes: light (as any) and dark, each at contrast 0 and at the settings' level.
    static func schemes(of settings: MaterialSettings, seed: UInt32) -> [Scheme] {
        let source = Hct(argb: seed)
        return [(false, false), (true, false), (false, true), (true, true)].map { isDark, high in
            let scheme = MaterialScheme(source: source, variant: settings.variant, isDark: isDark, contrastLevel: high ? settings.highContrastLevel : 0)
            return Scheme(appearance: Appearance(isDark ? .dark : .any, highContrast: high),
                          mode: ColorMode(isDark ? .dark : .light, highContrast: high).name, roles: scheme.roles)
        }
    }

    static func variants(of schemes: [Scheme], sourceKey: String) -> [Variant] {
        schemes.flatMap { scheme in
            scheme.roles.map { role in
                var traits = VariantTraits()
                traits.appearance = scheme.appearance
                var variant = Variant(kind: .color, name: role.name, traits: traits)
                variant.color = ColorValue(colorSpace: .sRGB, components: [Double(role.argb >> 16 & 255) / 255, Double(role.argb >> 8 & 255) / 255,
                                                                          Double(role.argb & 255) / 255, 1])
                variant.sortKey = sourceKey
                return variant
            }
        }
    }

    /// The roles as design tokens (what `/tokens` answers for a theme of a seed alone): a `mode`
    /// modifier whose contexts are the four schemes, mapped to traits, `light` by default; each
    /// resolution the roles as DTCG colours by name; the resolver document holds them inline.
    static func tokens(of schemes: [Scheme], settings: MaterialSettings) -> (modifier: TokenModifier, resolver: JSONValue,
                                                                              resolutions: [(key: String, served: TokenResolution)]) {
        let documents = schemes.map { scheme in
            (name: scheme.mode, roles: JSONValue.object(scheme.roles.map { role in
                let components = [role.argb >> 16 & 255, role.argb >> 8 & 255, role.argb & 255].map { JSONValue.double(Double($0) / 255) }
                let hex = "#" + String(role.argb & 0xFF_FFFF | 0x100_0000, radix: 16).dropFirst()
                return (role.name, .object([("$type", "color"), ("$value", .object([("colorSpace", "srgb"), ("components", .array(components)),
                                                                                      ("hex", .string(String(hex)))]))]))
            }))
        }
        let modifier = TokenModifier(name: "mode", contexts: documents.map(\.name), defaultContext: "light", mapsToTraits: true)
        let resolver = JSONValue.object([
            ("version", "2025.10"),
            ("description", .string("Material 3 roles from theme.json's seed (\(settings.variant.rawValue), spec 2021)")),
            ("modifiers", .object([("mode", .object([("contexts", .object(documents.map { ($0.name, .array([$0.roles])) })), ("default", "light")]))])),
            ("resolutionOrder", .array([.object([("$ref", "#/modifiers/mode")])])),
        ])
        let resolutions = documents.map { document in
            (TokenModifier.key(["mode": document.name], of: [modifier]),
             TokenResolution(TokenSet(sources: [TokenSource(root: document.roles, location: TokenLocation(file: ThemeSettings.fileName, pointer: "/material"))])))
        }
        return (modifier, resolver, resolutions)
    }

    /// The seed as opaque ARGB: as written, or the colour token an alias names in the theme's
    /// tokens (their default contexts); a token that is not there, or not a colour, is an error
    /// naming it.
    static func seed(of settings: MaterialSettings, tokens: ThemeFolder.TokenFiles?) throws -> UInt32 {
        switch settings.seed {
        case .rgb(let argb):
            return argb
        case .alias(let path):
            let place = "\(ThemeSettings.fileName): material.seed {\(path)}"
            guard let tokens else { throw ThemeError("\(place) is an alias, and the theme has no design tokens") }
            // Only the default contexts' resolution: not every one a sync of the tokens stores.
            let resolver = try TokenVariants.layeredResolver(of: tokens)
            let defaults = resolver.tokens(for: try resolver.inputs([:]))
            guard let token = defaults.tokens.first(where: { $0.path.dotted == path }) else {
                throw ThemeError("\(place) names no token of the theme")
            }
            guard let color = token.color?.sRGB.rgba else { throw ThemeError("\(place) is a \(token.type) token, not a colour") }
            let bytes = color.prefix(3).map { UInt32(($0 * 255).rounded()) }
            return 0xFF00_0000 | bytes[0] << 16 | bytes[1] << 8 | bytes[2]
        }
    }
}
