/// A horizontal or vertical size class (car-format.md 4.2, attributes 20 and 21).
public struct SizeClass: NamedCode {
    public var rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    public static let any = SizeClass(0)
    public static let compact = SizeClass(1)
    public static let regular = SizeClass(2)

    /// Names as requests (`widthClass=compact`) and Contents.json (`width-class`) spell them.
    public static let names: KeyValuePairs<SizeClass, String> = [.any: "any", .compact: "compact", .regular: "regular"]
}
