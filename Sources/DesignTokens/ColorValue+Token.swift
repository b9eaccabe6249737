import JSON
import ThemeVocabulary

extension ColorValue {
    /// The colour module's value: the colour's own space (`srgb`, `display-p3`, `srgb-linear`;
    /// gray as sRGB), its components as stored, alpha, and the clipped 8-bit `hex` fallback.
    public var tokenValue: JSONValue {
        let rgba = unclippedRGBA ?? self.rgba
        let space = switch colorSpace {
        case .displayP3: "display-p3"
        case .extendedLinearSRGB: "srgb-linear"
        default: "srgb"
        }
        return .object([
            ("colorSpace", .string(space)),
            ("components", .array(rgba[0..<3].map(JSONValue.double))),
            ("alpha", .double(min(max(rgba[3], 0), 1))),
            ("hex", .string(String(hex.prefix(7)).lowercased())),
        ])
    }
}
