import JSON
import ThemeIndex
import ThemeVocabulary

/// How a colour variant is shown to clients: components, `#RRGGBBAA` and a CSS value.
enum ColorRendering {
    static func json(_ variant: Variant) -> [(String, JSONValue)] {
        guard let color = variant.color else { return [] }
        if let systemColor = variant.systemColor {
            return [
                ("colorSpace", .string("system:\(systemColor)")),
                ("components", .array(color.components.map(JSONValue.double))),
                ("systemColor", .string(systemColor)),
            ]
        }
        return [
            ("colorSpace", .string(color.colorSpace.name)),
            ("components", .array(color.components.map(JSONValue.double))),
            ("hex", .string(color.hex)),
            ("css", .string(color.css)),
        ]
    }

    static func traits(_ traits: VariantTraits) -> JSONValue {
        .object([
            ("appearance", .string(traits.appearance.label)),
            ("idiom", .string(traits.idiom.name)),
            ("gamut", .string(traits.gamut.name)),
        ])
    }
}
