import Foundation

/// Colours as CSS Color 4 writes them in text: what design teams put in token files (`"hsla(210,
/// 50%, 40%, 0.5)"`, `"rgba(0,0,0,.12)"`, `"transparent"`, `"rebeccapurple"`).
extension CSSColor {
    /// Text longer than this is no colour.
    static let maximumTextLength = 200

    /// The colour `text` names in CSS Color 4's syntax: a hex colour; `rgb[a]()`, `hsl[a]()` in
    /// the legacy comma form and the modern space form (with `/ alpha` and `none`); `hwb()`,
    /// `lab()`, `lch()`, `oklab()`, `oklch()`; `color(SPACE c1 c2 c3)`; a named colour or
    /// `transparent`. Nil for anything else, `currentcolor` included (it names no colour of its own).
    public init?(css text: String) {
        guard text.utf8.count <= Self.maximumTextLength else { return nil }
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        if trimmed.hasPrefix("#") {
            guard let rgba = Self.hexComponents(trimmed) else { return nil }
            self.init(space: .srgb, components: rgba.prefix(3).map { $0 }, alpha: rgba[3])
            return
        }
        if let named = Self.named(trimmed) {
            self = named
            return
        }
        guard let open = trimmed.firstIndex(of: "("), trimmed.hasSuffix(")") else { return nil }
        let function = String(trimmed[..<open])
        var inside = String(trimmed[trimmed.index(after: open)..<trimmed.index(before: trimmed.endIndex)]).trimmingCharacters(in: .whitespaces)
        // color(): the space's name first, then its components.
        var space: Space?
        if function == "color" {
            let name = inside.prefix { !$0.isWhitespace }
            guard let named = Self.colorFunctionSpaces[String(name)] else { return nil }
            space = named
            inside = String(inside.dropFirst(name.count))
        }
        guard let arguments = FunctionArguments(inside) else { return nil }
        switch function {
        case "rgb", "rgba": self.init(rgb: arguments)
        case "hsl", "hsla": self.init(hue: arguments, space: .hsl)
        case "hwb": self.init(hue: arguments, space: .hwb)
        case "lab": self.init(lab: arguments, space: .lab, lightness: 100, chroma: 125)
        case "oklab": self.init(lab: arguments, space: .oklab, lightness: 1, chroma: 0.4)
        case "lch": self.init(lch: arguments, space: .lch, lightness: 100, chroma: 150)
        case "oklch": self.init(lch: arguments, space: .oklch, lightness: 1, chroma: 0.4)
        case "color":
            guard let space else { return nil }
            self.init(colorFunction: arguments, space: space)
        default: return nil
        }
    }

    /// `#rgb`, `#rgba`, `#rrggbb`, `#rrggbbaa` as four components from 0 to 1.
    static func hexComponents(_ text: String) -> [Double]? {
        let digits = Array(text.dropFirst())
        guard [3, 4, 6, 8].contains(digits.count), digits.allSatisfy(\.isHexDigit) else { return nil }
        let pairs = digits.count <= 4 ? digits.map { String([$0, $0]) } : stride(from: 0, to: digits.count, by: 2).map { String(digits[$0...$0 + 1]) }
        let values = pairs.compactMap { UInt8($0, radix: 16) }.map { Double($0) / 255 }
        return values.count == 3 ? values + [1] : values
    }

    // MARK: - Functions

    /// A function's arguments: three components and an alpha, split by commas (the legacy form)
    /// or by spaces with `/` before the alpha (the modern form).
    struct FunctionArguments {
        var components: [Token]
        var alpha: Token?
        var legacy: Bool

        enum Token: Equatable {
            case number(Double)
            case percentage(Double)
            /// An angle in degrees (from deg, rad, grad or turn).
            case degrees(Double)
            case none
        }

        init?(_ text: String) {
            if text.contains(",") {
                let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
                guard parts.count == 3 || parts.count == 4, !text.contains("/") else { return nil }
                let tokens = parts.compactMap(Self.token)
                guard tokens.count == parts.count, !tokens.contains(.none) else { return nil }
                (components, alpha, legacy) = (Array(tokens.prefix(3)), tokens.count == 4 ? tokens[3] : nil, true)
                return
            }
            let halves = text.split(separator: "/", omittingEmptySubsequences: false)
            guard halves.count <= 2 else { return nil }
            let parts = halves[0].split(whereSeparator: \.isWhitespace).map(String.init)
            let tokens = parts.compactMap(Self.token)
            guard tokens.count == parts.count else { return nil }
            components = tokens
            legacy = false
            if halves.count == 2 {
                let given = halves[1].trimmingCharacters(in: .whitespaces)
                guard let token = Self.token(given) else { return nil }
                alpha = token
            }
        }

        static func token(_ text: String) -> Token? {
            if text == "none" { return Token.none }
            if text.hasSuffix("%") { return Double(text.dropLast()).flatMap { $0.isFinite ? .percentage($0) : nil } }
            for (unit, degrees) in [("grad", 0.9), ("turn", 360.0), ("deg", 1.0), ("rad", 180 / Double.pi)] where text.hasSuffix(unit) {
                return Double(text.dropLast(unit.count)).flatMap { $0.isFinite ? .degrees($0 * degrees) : nil }
            }
            // Swift's Double parses "inf", "nan" and hex floats: CSS numbers are digits.
            guard text.allSatisfy({ $0.isNumber || "+-.e".contains($0) }), let number = Double(text), number.isFinite else { return nil }
            return .number(number)
        }

        /// The alpha from 0 to 1 (1 when not given; clamped as CSS does).
        var alphaValue: Double? {
            switch alpha {
            case nil, .none?: 1
            case .number(let value)?: min(max(value, 0), 1)
            case .percentage(let value)?: min(max(value / 100, 0), 1)
            case .degrees?: nil
            }
        }
    }

    /// A number, or a percentage of `full` (CSS's "reference range"); nil for `none`.
    private static func value(_ token: FunctionArguments.Token, full: Double) -> Double?? {
        switch token {
        case .number(let value): value
        case .percentage(let value): value / 100 * full
        case .none: .some(nil)
        case .degrees: nil
        }
    }

    private init?(rgb arguments: FunctionArguments) {
        guard arguments.components.count == 3, let alpha = arguments.alphaValue else { return nil }
        // The legacy form takes numbers or percentages, not both.
        if arguments.legacy {
            let percentages = arguments.components.filter { if case .percentage = $0 { true } else { false } }.count
            guard percentages == 0 || percentages == 3 else { return nil }
        }
        var channels: [Double?] = []
        for token in arguments.components {
            guard let channel = Self.value(token, full: 255) else { return nil }
            channels.append(channel.map { min(max($0, 0), 255) / 255 })
        }
        self.init(space: .srgb, components: channels, alpha: alpha)
    }

    /// `hsl()` and `hwb()`: a hue (a number is degrees), then two percentages (numbers in the
    /// modern form; the legacy form of `hsl()` needs the `%`).
    private init?(hue arguments: FunctionArguments, space: Space) {
        guard arguments.components.count == 3, let alpha = arguments.alphaValue else { return nil }
        let hue: Double?
        switch arguments.components[0] {
        case .number(let value), .degrees(let value): hue = value.truncatingRemainder(dividingBy: 360) + (value < 0 ? 360 : 0)
        case .none where !arguments.legacy: hue = nil
        default: return nil
        }
        var rest: [Double?] = []
        for token in arguments.components.dropFirst() {
            switch token {
            case .percentage(let value): rest.append(min(max(value, 0), 100))
            case .number(let value) where !arguments.legacy: rest.append(min(max(value, 0), 100))
            case .none where !arguments.legacy: rest.append(nil)
            default: return nil
            }
        }
        guard space == .hsl || !arguments.legacy else { return nil }
        self.init(space: space, components: [hue] + rest, alpha: alpha)
    }

    /// `lab()` and `oklab()`: lightness, then a and b (a percentage of `chroma`).
    private init?(lab arguments: FunctionArguments, space: Space, lightness: Double, chroma: Double) {
        guard !arguments.legacy, arguments.components.count == 3, let alpha = arguments.alphaValue,
              let l = Self.value(arguments.components[0], full: lightness), let a = Self.value(arguments.components[1], full: chroma),
              let b = Self.value(arguments.components[2], full: chroma) else { return nil }
        self.init(space: space, components: [l.map { min(max($0, 0), lightness) }, a, b], alpha: alpha)
    }

    /// `lch()` and `oklch()`: lightness, chroma (a percentage of `chroma`), hue.
    private init?(lch arguments: FunctionArguments, space: Space, lightness: Double, chroma: Double) {
        guard !arguments.legacy, arguments.components.count == 3, let alpha = arguments.alphaValue,
              let l = Self.value(arguments.components[0], full: lightness), let c = Self.value(arguments.components[1], full: chroma) else { return nil }
        let hue: Double?
        switch arguments.components[2] {
        case .number(let value), .degrees(let value): hue = value.truncatingRemainder(dividingBy: 360) + (value < 0 ? 360 : 0)
        case .none: hue = nil
        case .percentage: return nil
        }
        self.init(space: space, components: [l.map { min(max($0, 0), lightness) }, c.map { max($0, 0) }, hue], alpha: alpha)
    }

    /// The spaces `color()` names: the predefined RGB spaces and XYZ (`xyz` is D65).
    static let colorFunctionSpaces: [String: Space] = [
        "srgb": .srgb, "srgb-linear": .srgbLinear, "display-p3": .displayP3, "a98-rgb": .a98RGB, "prophoto-rgb": .prophotoRGB,
        "rec2020": .rec2020, "xyz": .xyzD65, "xyz-d65": .xyzD65, "xyz-d50": .xyzD50,
    ]

    /// `color(SPACE c1 c2 c3 [/ alpha])`: numbers, or percentages of 1.
    private init?(colorFunction arguments: FunctionArguments, space: Space) {
        guard !arguments.legacy, arguments.components.count == 3, let alpha = arguments.alphaValue else { return nil }
        var components: [Double?] = []
        for token in arguments.components {
            guard let component = Self.value(token, full: 1) else { return nil }
            components.append(component)
        }
        self.init(space: space, components: components, alpha: alpha)
    }

    // MARK: - Named colours

    /// A named colour of CSS Color 4, or `transparent`.
    static func named(_ name: String) -> CSSColor? {
        if name == "transparent" { return CSSColor(space: .srgb, components: [0, 0, 0], alpha: 0) }
        guard let hex = namedColors[name], let rgba = hexComponents("#" + hex) else { return nil }
        return CSSColor(space: .srgb, components: rgba.prefix(3).map { $0 }, alpha: 1)
    }

    /// CSS Color 4's named colours (section 6.1), by name.
    static let namedColors: [String: String] = {
        let table = "aliceblue f0f8ff antiquewhite faebd7 aqua 00ffff aquamarine 7fffd4 azure f0ffff beige f5f5dc bisque "
            + "ffe4c4 black 000000 blanchedalmond ffebcd blue 0000ff blueviolet 8a2be2 brown a52a2a burlywood "
            + "deb887 cadetblue 5f9ea0 chartreuse 7fff00 chocolate d2691e coral ff7f50 cornflowerblue 6495ed "
            + "cornsilk fff8dc crimson dc143c cyan 00ffff darkblue 00008b darkcyan 008b8b darkgoldenrod b8860b "
            + "darkgray a9a9a9 darkgreen 006400 darkgrey a9a9a9 darkkhaki bdb76b darkmagenta 8b008b darkolivegreen "
            + "556b2f darkorange ff8c00 darkorchid 9932cc darkred 8b0000 darksalmon e9967a darkseagreen 8fbc8f "
            + "darkslateblue 483d8b darkslategray 2f4f4f darkslategrey 2f4f4f darkturquoise 00ced1 darkviolet "
            + "9400d3 deeppink ff1493 deepskyblue 00bfff dimgray 696969 dimgrey 696969 dodgerblue 1e90ff firebrick "
            + "b22222 floralwhite fffaf0 forestgreen 228b22 fuchsia ff00ff gainsboro dcdcdc ghostwhite f8f8ff gold "
            + "ffd700 goldenrod daa520 gray 808080 green 008000 greenyellow adff2f grey 808080 honeydew f0fff0 "
            + "hotpink ff69b4 indianred cd5c5c indigo 4b0082 ivory fffff0 khaki f0e68c lavender e6e6fa "
            + "lavenderblush fff0f5 lawngreen 7cfc00 lemonchiffon fffacd lightblue add8e6 lightcoral f08080 "
            + "lightcyan e0ffff lightgoldenrodyellow fafad2 lightgray d3d3d3 lightgreen 90ee90 lightgrey d3d3d3 "
            + "lightpink ffb6c1 lightsalmon ffa07a lightseagreen 20b2aa lightskyblue 87cefa lightslategray 778899 "
            + "lightslategrey 778899 lightsteelblue b0c4de lightyellow ffffe0 lime 00ff00 limegreen 32cd32 linen "
            + "faf0e6 magenta ff00ff maroon 800000 mediumaquamarine 66cdaa mediumblue 0000cd mediumorchid ba55d3 "
            + "mediumpurple 9370db mediumseagreen 3cb371 mediumslateblue 7b68ee mediumspringgreen 00fa9a "
            + "mediumturquoise 48d1cc mediumvioletred c71585 midnightblue 191970 mintcream f5fffa mistyrose ffe4e1 "
            + "moccasin ffe4b5 navajowhite ffdead navy 000080 oldlace fdf5e6 olive 808000 olivedrab 6b8e23 orange "
            + "ffa500 orangered ff4500 orchid da70d6 palegoldenrod eee8aa palegreen 98fb98 paleturquoise afeeee "
            + "palevioletred db7093 papayawhip ffefd5 peachpuff ffdab9 peru cd853f pink ffc0cb plum dda0dd "
            + "powderblue b0e0e6 purple 800080 rebeccapurple 663399 red ff0000 rosybrown bc8f8f royalblue 4169e1 "
            + "saddlebrown 8b4513 salmon fa8072 sandybrown f4a460 seagreen 2e8b57 seashell fff5ee sienna a0522d "
            + "silver c0c0c0 skyblue 87ceeb slateblue 6a5acd slategray 708090 slategrey 708090 snow fffafa "
            + "springgreen 00ff7f steelblue 4682b4 tan d2b48c teal 008080 thistle d8bfd8 tomato ff6347 turquoise "
            + "40e0d0 violet ee82ee wheat f5deb3 white ffffff whitesmoke f5f5f5 yellow ffff00 yellowgreen 9acd32"
        let words = table.split(separator: " ").map(String.init)
        return Dictionary(uniqueKeysWithValues: stride(from: 0, to: words.count - 1, by: 2).map { (words[$0], words[$0 + 1]) })
    }()
}
