import JSON
import ThemeVocabulary

/// How a colour variant is shown to clients: components, `#RRGGBBAA` and a CSS value. Here, not
/// in the server, because a palette's colours are written as the index reads them: a parent's
/// part of every brand's palette is kept written (`IndexReader.palette`).
public enum ColorJSON {
    /// The colour's members (no braces): its colour space, components, and `hex` and `css`, or
    /// the system colour it names.
    public static func write(_ variant: Variant, to json: inout JSONWriter) {
        guard let color = variant.color else { return }
        json.key(literal: "colorSpace")
        if let systemColor = variant.systemColor {
            json.string("system:\(systemColor)")
        } else {
            json.string(color.colorSpace.name)
        }
        json.key(literal: "components")
        json.beginArray()
        for component in color.components { json.double(component) }
        json.endArray()
        if let systemColor = variant.systemColor {
            json.key(literal: "systemColor")
            json.string(systemColor)
        } else {
            json.key(literal: "hex")
            json.plainString(color.appendHex)
            json.key(literal: "css")
            json.plainString(color.appendCSS)
        }
        writeToken(variant.tokenColor, to: &json)
    }

    /// A design token's colour as written, when it was converted: `"token": {"colorSpace":
    /// "oklch", "components": [0.6, 0.2, 255], "alpha": 1}` (`"none"` for a missing component).
    private static func writeToken(_ stored: String, to json: inout JSONWriter) {
        let fields = stored.split(separator: "\t").map(String.init)
        guard fields.count == 5 else { return }
        json.key(literal: "token")
        json.beginObject()
        json.key(literal: "colorSpace")
        json.string(fields[0])
        json.key(literal: "components")
        json.beginArray()
        for field in fields[1...3] {
            if let number = Double(field) { json.double(number) } else { json.string("none") }
        }
        json.endArray()
        json.key(literal: "alpha")
        json.double(Double(fields[4]) ?? 1)
        json.endObject()
    }

    /// A colour variant as a resolved palette shows it, without braces: its members (`write`)
    /// and its traits. The index keeps these bytes with each colour variant (`variant.shown`,
    /// written when its theme is indexed), so that a palette copies them instead of parsing and
    /// formatting numbers a request: a change to what they say is a new `Schema.version`.
    public static func shown(_ variant: Variant) -> [UInt8] {
        JSONWriter.members { json in
            write(variant, to: &json)
            json.key(literal: "traits")
            writeTraits(variant.traits, to: &json)
        }
    }

    public static func writeTraits(_ traits: VariantTraits, to json: inout JSONWriter) {
        json.beginObject()
        json.key(literal: "appearance")
        json.string(traits.appearance.label)
        json.key(literal: "idiom")
        json.string(traits.idiom.name)
        json.key(literal: "gamut")
        json.string(traits.gamut.name)
        json.endObject()
    }
}
