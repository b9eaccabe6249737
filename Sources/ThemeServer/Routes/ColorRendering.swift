import JSON
import ThemeIndex
import ThemeVocabulary

/// How a colour variant is shown to clients: components, `#RRGGBBAA` and a CSS value.
enum ColorRendering {
    /// The colour's members (no braces): its colour space, components, and `hex` and `css`, or
    /// the system colour it names.
    static func write(_ variant: Variant, to json: inout JSONWriter) {
        guard let color = variant.color else { return }
        json.key("colorSpace")
        if let systemColor = variant.systemColor {
            json.string("system:\(systemColor)")
        } else {
            json.string(color.colorSpace.name)
        }
        json.key("components")
        json.beginArray()
        for component in color.components { json.double(component) }
        json.endArray()
        if let systemColor = variant.systemColor {
            json.key("systemColor")
            json.string(systemColor)
        } else {
            json.key("hex")
            json.string(color.hex)
            json.key("css")
            json.string(color.css)
        }
    }

    static func writeTraits(_ traits: VariantTraits, to json: inout JSONWriter) {
        json.beginObject()
        json.key("appearance")
        json.string(traits.appearance.label)
        json.key("idiom")
        json.string(traits.idiom.name)
        json.key("gamut")
        json.string(traits.gamut.name)
        json.endObject()
    }
}
