import ImageCoders
import ThemeIndex
import ThemeVocabulary

/// An image at a pixel density that is not the scale it is stored at: Android's 1.5x, 2.625x, 4x,
/// or a catalog's 3x asked at 2x. What the image routes and the Android export both make.
public enum ImageDensity {
    /// Whether the variant is drawn rather than resized (a PDF or SVG).
    public static func isVector(_ variant: Variant) -> Bool {
        variant.format == ImageFormat.pdf.rawValue || variant.format == ImageFormat.svg.rawValue
    }

    /// The width a bitmap variant has at `density` pixels a point (its points times the density),
    /// or nil when that is the width it is stored at, or it is not a bitmap of known size.
    public static func width(of variant: Variant, at density: Double) -> Int? {
        guard variant.kind == .image || variant.kind == .file, !isVector(variant), variant.pixelWidth > 0, variant.traits.scale > 0 else { return nil }
        let width = max(1, Int((Double(variant.pixelWidth) * density / Double(variant.traits.scale)).rounded()))
        return width == variant.pixelWidth ? nil : width
    }

    /// What to ask the coders for the variant at `density`, as `format` (a vector drawn at it, a
    /// bitmap resized to it).
    public static func request(_ variant: Variant, at density: Double, format: ImageFormat?) -> ImageRequest {
        var request = ImageRequest(format: format, scale: density)
        request.width = width(of: variant, at: density)
        return request
    }
}
