/// The writing direction a variant is for (car-format.md 4.2, attribute 4).
public struct LayoutDirection: NamedCode {
    public var rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    public static let neutral = LayoutDirection(0)
    public static let leftToRight = LayoutDirection(4)
    public static let rightToLeft = LayoutDirection(5)

    public static let names: KeyValuePairs<LayoutDirection, String> = [.neutral: "neutral", .leftToRight: "ltr", .rightToLeft: "rtl"]

    /// `direction=` of a request (`ltr`, `rtl`) and Contents.json's `language-direction`
    /// (`left-to-right`, `right-to-left`).
    public init?(requestName: String) {
        switch requestName {
        case "ltr", "left-to-right": self = .leftToRight
        case "rtl", "right-to-left": self = .rightToLeft
        default: return nil
        }
    }

    /// The direction tried after this one: a flippable variant is drawn mirrored for it.
    public var opposite: LayoutDirection { self == .rightToLeft ? .leftToRight : .rightToLeft }
}
