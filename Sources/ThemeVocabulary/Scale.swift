/// Display scales: 1, 2 and 3, written `2x` in Contents.json and requests and `@2x` in file names.
/// Variants that are not bitmaps (colours, data, vectors) have scale 0.
public enum Scale {
    public static let range = 1...3

    /// `2x` or `2`; nil outside 1...3.
    public static func parse(_ text: String) -> Int? {
        let digits = text.hasSuffix("x") ? text.dropLast() : Substring(text)
        guard let scale = Int(digits), range.contains(scale) else { return nil }
        return scale
    }

    /// `2x` only, as Contents.json writes it.
    public static func parseAssetCatalogName(_ text: String) -> Int? {
        text.hasSuffix("x") ? parse(text) : nil
    }
}
