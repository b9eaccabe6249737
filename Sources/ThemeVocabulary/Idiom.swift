/// The device family a variant is for (car-format.md 4.2, attribute 15; lookup-rules.md 4.1).
public struct Idiom: NamedCode {
    public var rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    public static let universal = Idiom(0)
    public static let phone = Idiom(1)
    public static let pad = Idiom(2)
    public static let tv = Idiom(3)
    public static let car = Idiom(4)
    public static let watch = Idiom(5)
    public static let marketing = Idiom(6)
    public static let mac = Idiom(7)
    public static let vision = Idiom(8)

    /// The names responses print and requests use.
    public static let names: KeyValuePairs<Idiom, String> = [
        .universal: "universal", .phone: "phone", .pad: "pad", .tv: "tv", .car: "car", .watch: "watch",
        .marketing: "marketing", .mac: "mac", .vision: "vision",
    ]

    /// Other spellings a request may use (`idiom=iphone`).
    static let requestAliases: KeyValuePairs<String, Idiom> = ["iphone": .phone, "ipad": .pad]

    /// Every name a request may use, sorted, for error messages.
    public static var requestNames: [String] {
        (names.map(\.value) + requestAliases.map(\.key)).sorted()
    }

    /// An idiom as a request names it: its name or an alias.
    public init?(requestName: String) {
        if let idiom = Idiom(name: requestName) {
            self = idiom
        } else if let alias = Self.requestAliases.first(where: { $0.key == requestName }) {
            self = alias.value
        } else {
            return nil
        }
    }

    /// Contents.json `idiom` values as Xcode writes them; unknown ones are universal, as Xcode's
    /// compiler treats them.
    public init(assetCatalogName name: String) {
        self = switch name {
        case "iphone": .phone
        case "ipad": .pad
        case "tv": .tv
        case "car": .car
        case "watch": .watch
        case "ios-marketing", "watch-marketing": .marketing
        case "mac": .mac
        case "vision": .vision
        default: .universal
        }
    }

    /// The `~device` suffixes of loose resource files (lookup-rules.md 3.1).
    public static let deviceSuffixes: KeyValuePairs<String, Idiom> = ["iphone": .phone, "ipad": .pad, "appletv": .tv, "applewatch": .watch]

    public init?(deviceSuffix: String) {
        guard let match = Self.deviceSuffixes.first(where: { $0.key == deviceSuffix }) else { return nil }
        self = match.value
    }

    /// The `-platform` suffix of loose files a request for this idiom accepts (lookup-rules.md
    /// 3.1): phone and pad `iphoneos`, tv `tvos`, watch `watchos`, mac `macos`; the others none.
    public var platformSuffix: String {
        switch self {
        case .phone, .pad: "iphoneos"
        case .tv: "tvos"
        case .watch: "watchos"
        case .mac: "macos"
        default: ""
        }
    }
}
