import ThemeVocabulary

/// Who may make themed transform an image (`w=`, `h=`, `fit=`, `q=`, `format=`): every transform
/// is a decode and an encode, and what it makes is kept (within `derivedImageBytes`), so a server
/// reachable by anyone should not make any size for anyone.
public enum ImageTransformRule: String, Sendable, CaseIterable {
    /// Anyone may ask any transform (a local folder's default; the log warns when the server
    /// listens beyond loopback).
    case open
    /// Named presets for anyone; any other transform only with a valid `sig=` (`themed sign`).
    case signed
    /// Named presets only.
    case presets
}

/// A named transform from the configuration (`"imagePresets": {"thumb": {"w": 120, ...}}`),
/// asked as `?preset=thumb`.
public struct ImagePreset: Sendable, Equatable {
    public var width: Int?
    public var height: Int?
    public var fit: ImageRequest.Fit
    public var format: ImageFormat?
    public var quality: Int?

    public init(width: Int? = nil, height: Int? = nil, fit: ImageRequest.Fit = .contain, format: ImageFormat? = nil, quality: Int? = nil) {
        (self.width, self.height, self.fit, self.format, self.quality) = (width, height, fit, format, quality)
    }

    /// The keys a preset's object may have.
    public static let keys = ["w", "h", "fit", "format", "q"]

    /// A preset from its JSON object; the error says which key is wrong and what it takes.
    public init(json object: [String: Any], maxDimension: Int) throws(ImagePresetError) {
        self.init()
        for key in object.keys where !Self.keys.contains(key) {
            throw ImagePresetError("unknown key \"\(key)\"; a preset has \(Self.keys.joined(separator: ", "))")
        }
        func whole(_ key: String, _ range: ClosedRange<Int>) throws(ImagePresetError) -> Int? {
            guard let value = object[key] else { return nil }
            guard let number = value as? Int, range.contains(number) else { throw ImagePresetError("\(key) must be a whole number in \(range.lowerBound)...\(range.upperBound)") }
            return number
        }
        width = try whole("w", 1...maxDimension)
        height = try whole("h", 1...maxDimension)
        quality = try whole("q", ImageRequest.qualities)
        if let value = object["fit"] {
            guard let name = value as? String, let fit = ImageRequest.Fit(rawValue: name) else {
                throw ImagePresetError("fit must be one of \(ImageRequest.Fit.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            self.fit = fit
        }
        if let value = object["format"] {
            guard let name = value as? String, let format = ImageRequest.outputFormats.first(where: { $0.rawValue == name }) else {
                throw ImagePresetError("format must be one of \(ImageRequest.outputFormats.map(\.rawValue).joined(separator: ", "))")
            }
            self.format = format
        }
        if width == nil, height == nil, format == nil, quality == nil { throw ImagePresetError("a preset needs at least one of w, h, format, q") }
    }

    /// The request made this preset's transform.
    public func apply(to request: inout ImageRequest) {
        (request.width, request.height, request.fit) = (width, height, fit)
        if let format { request.format = format }
        request.quality = quality
    }
}

public struct ImagePresetError: Error, CustomStringConvertible, Equatable {
    public var description: String
    public init(_ description: String) { self.description = description }
}
