import Foundation
import ThemeVocabulary

/// What a client asked an image to become: a format, a size within limits, and for vectors the
/// scale to draw them at. Parsed from `format=`, `w=`, `h=` and the request's scale; `Accept`
/// settles `format=auto`.
public struct ImageRequest: Sendable, Hashable {
    /// The formats coders encode, as `format=` names them.
    public static let outputFormats: [ImageFormat] = [.png, .webp, .avif, .jpeg]

    /// nil: keep the stored format (a bitmap as stored, a vector as a vector).
    public var format: ImageFormat?
    public var width: Int?
    public var height: Int?
    /// How `width` and `height` together shape the image (with only one of them the aspect ratio
    /// is always kept).
    public var fit = Fit.contain
    /// `q=`: the lossy quality of a JPEG, WebP or AVIF, 1-100 (nil: the coder's own).
    public var quality: Int?
    public static let qualities = 1...100
    /// The scale a vector is drawn at (point size times scale, as UIKit draws it; 1.5 for a
    /// density between catalog scales).
    public var scale: Double
    /// The pixels are Display P3 without a profile saying so (a catalog's P3 bitmap answering an
    /// sRGB request): they are converted to sRGB.
    public var fromDisplayP3 = false

    public init(format: ImageFormat? = nil, width: Int? = nil, height: Int? = nil, fit: Fit = .contain, scale: Double = 1) {
        self.format = format
        self.width = width
        self.height = height
        self.fit = fit
        self.scale = max(1, scale)
    }

    /// `fit=`: what an image becomes in a box of both `w=` and `h=`.
    public enum Fit: String, Sendable, Hashable, CaseIterable {
        /// Inside the box, the aspect ratio kept (one side may be shorter than asked).
        case contain
        /// Scaled to fill the box, the aspect ratio kept, and centre-cropped to exactly w x h (a
        /// launch image at a screen's exact pixel size).
        case cover
        /// Stretched to exactly w x h.
        case fill
    }

    /// Whether both sides are asked, so that `fit` matters.
    var isBox: Bool { width != nil && height != nil }

    /// Nothing to do: the stored bytes answer.
    public var isIdentity: Bool { format == nil && width == nil && height == nil && quality == nil && !fromDisplayP3 }

    /// Part of the key the result is stored under, beside the content's own key.
    public var key: String {
        "format=\(format?.rawValue ?? "");w=\(width.map(String.init) ?? "");h=\(height.map(String.init) ?? "");scale=\(scale == scale.rounded() ? String(Int(scale)) : String(scale))"
            + (isBox && fit != .contain ? ";fit=\(fit.rawValue)" : "") + (quality.map { ";q=\($0)" } ?? "") + (fromDisplayP3 ? ";from=p3" : "")
    }

    /// `format=auto`: the first of AVIF and WebP the client accepts (by `q`), else nil (as stored).
    public static func negotiate(accept: String?) -> ImageFormat? {
        guard let accept else { return nil }
        var accepted: [String: Double] = [:]
        for item in accept.split(separator: ",") {
            let parts = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let type = parts.first?.lowercased() else { continue }
            let quality = parts.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
            accepted[type] = quality
        }
        for format in [ImageFormat.avif, .webp] where (accepted[format.mimeType] ?? 0) > 0 { return format }
        return nil
    }
}
