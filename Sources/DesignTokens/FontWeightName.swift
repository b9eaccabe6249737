/// The weight a font style names (`Semi Bold`, `ExtraBold Italic`, `black`), as CSS numbers
/// them: what Tokens Studio's `fontWeights` and Figma's `FONT_STYLE` strings hold.
public enum FontWeightName {
    static let weights: [String: Int] = [
        "thin": 100, "hairline": 100, "extralight": 200, "ultralight": 200, "light": 300, "regular": 400, "normal": 400,
        "book": 400, "italic": 400, "medium": 500, "semibold": 600, "demibold": 600, "bold": 700, "extrabold": 800,
        "ultrabold": 800, "black": 900, "heavy": 900, "extrablack": 950, "ultrablack": 950,
    ]

    /// The weight, or nil when the style names none; the slant (`Italic`, `Oblique`) is not a weight.
    public static func weight(of style: String) -> Int? {
        var key = style.lowercased().filter { $0.isLetter }
        for slant in ["italic", "oblique"] where key.hasSuffix(slant) && key != slant { key.removeLast(slant.count) }
        return weights[key]
    }
}
