import Foundation

/// Tokens Studio folders as the plugin syncs them to git, written to a scratch folder.
enum TokensStudioFolder {
    /// Two theme groups (Mode: Light, Dark; Brand: Acme, Globex) and a group of one (always on),
    /// a core set used as a source only, sets in folders; DTCG values throughout, so that
    /// `tokens_studio_ref.py` reads it as themed does.
    static let multiBrand: [String: String] = [
        "$metadata.json": #"{"tokenSetOrder": ["core", "semantic/light", "semantic/dark", "brand/acme", "brand/globex", "components", "platform/web"]}"#,
        "$themes.json": """
            [
              {"id": "m1", "name": "Light", "group": "Mode", "selectedTokenSets": {"core": "source", "semantic/light": "enabled", "components": "enabled"}},
              {"id": "m2", "name": "Dark", "group": "Mode", "selectedTokenSets": {"core": "source", "semantic/dark": "enabled", "components": "enabled"}},
              {"id": "b1", "name": "Acme", "group": "Brand", "selectedTokenSets": {"brand/acme": "enabled"}},
              {"id": "b2", "name": "Globex", "group": "Brand", "selectedTokenSets": {"brand/acme": "disabled", "brand/globex": "enabled"}},
              {"id": "p1", "name": "Web", "group": "Platform", "selectedTokenSets": {"platform/web": "enabled"}}
            ]
            """,
        "core.json": """
            {"gray": {"$type": "color",
                      "50": {"$value": {"colorSpace": "srgb", "components": [0.98, 0.98, 0.98]}},
                      "900": {"$value": {"colorSpace": "srgb", "components": [0.1, 0.1, 0.1]}}},
             "blue": {"500": {"$type": "color", "$value": {"colorSpace": "srgb", "components": [0, 0.4, 0.8]}}},
             "orange": {"500": {"$type": "color", "$value": {"colorSpace": "srgb", "components": [1, 0.4, 0]}}},
             "space": {"$type": "dimension", "base": {"$value": {"value": 4, "unit": "px"}}, "large": {"$value": {"value": 16, "unit": "px"}}}}
            """,
        "semantic/light.json": #"{"bg": {"$type": "color", "$value": "{gray.50}"}, "fg": {"$type": "color", "$value": "{gray.900}"}, "accent": {"$type": "color", "$value": "{brand.primary}"}}"#,
        "semantic/dark.json": #"{"bg": {"$type": "color", "$value": "{gray.900}"}, "fg": {"$type": "color", "$value": "{gray.50}"}, "accent": {"$type": "color", "$value": "{brand.primary}"}}"#,
        "brand/acme.json": #"{"brand": {"primary": {"$type": "color", "$value": "{blue.500}"}}}"#,
        "brand/globex.json": #"{"brand": {"primary": {"$type": "color", "$value": "{orange.500}"}}}"#,
        "components.json": #"{"button": {"padding": {"$type": "dimension", "$value": "{space.base}"}, "background": {"$type": "color", "$value": "{bg}"}}}"#,
        "platform/web.json": #"{"space": {"large": {"$type": "dimension", "$value": {"value": 20, "unit": "px"}}}}"#,
    ]

    /// What the plugin writes itself: its keys of before DTCG, its types and value forms,
    /// arithmetic and colour modifiers.
    static let studioForms: [String: String] = [
        "$metadata.json": #"{"tokenSetOrder": ["global", "theme"]}"#,
        "$themes.json": #"[{"id": "t", "name": "Default", "selectedTokenSets": {"global": "source", "theme": "enabled"}}]"#,
        "global.json": """
            {"base": {"value": "8", "type": "spacing"},
             "scale": {"value": "1.5", "type": "number"},
             "brand": {"value": "#3366cc", "type": "color", "description": "The brand colour"},
             "white": {"value": "#ffffff", "type": "color"},
             "font": {"value": "Inter", "type": "fontFamilies"}}
            """,
        "theme.json": """
            {"space": {"double": {"value": "{base} * 2", "type": "spacing"},
                       "roomy": {"value": "roundTo({base} * {scale} + 1.25, 1)", "type": "spacing"},
                       "capped": {"value": "max({base}, 12px)", "type": "sizing"},
                       "rem": {"value": "1.5rem", "type": "spacing"}},
             "weight": {"strong": {"value": "Semi Bold", "type": "fontWeights"}},
             "motion": {"base": {"value": "200", "type": "duration"}},
             "opacity": {"muted": {"value": "40%", "type": "opacity"}},
             "line": {"value": "150%", "type": "lineHeights"},
             "shadow": {"value": {"x": "0", "y": "{base} / 2", "blur": "12", "spread": "0", "color": "#00000040", "type": "dropShadow"}, "type": "boxShadow"},
             "heading": {"value": {"fontFamily": "{font}", "fontWeight": "Bold", "fontSize": "{base} * 3", "lineHeight": "120%", "letterSpacing": "0", "textCase": "uppercase"}, "type": "typography"},
             "accent": {"hover": {"value": "{brand}", "type": "color", "$extensions": {"studio.tokens": {"modify": {"type": "darken", "value": "0.2", "space": "hsl"}}}},
                       "wash": {"value": "{brand}", "type": "color", "$extensions": {"studio.tokens": {"modify": {"type": "mix", "value": "0.5", "space": "srgb", "color": "{white}"}}}},
                       "glass": {"value": "{brand}", "type": "color", "$extensions": {"studio.tokens": {"modify": {"type": "alpha", "value": "0.3", "space": "srgb"}}}},
                       "light": {"value": "{brand}", "type": "color", "$extensions": {"studio.tokens": {"modify": {"type": "lighten", "value": "0.5", "space": "lch"}}}}},
             "broken": {"value": "{base} * {nowhere}", "type": "spacing"}}
            """,
    ]

    /// `files` written under a new scratch folder; returns its path.
    static func write(_ files: [String: String]) throws -> String {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("tokens-studio-\(UUID().uuidString)").path
        for (path, text) in files {
            let full = "\(root)/\(path)"
            try FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try Data(text.utf8).write(to: URL(fileURLWithPath: full))
        }
        return root
    }
}
