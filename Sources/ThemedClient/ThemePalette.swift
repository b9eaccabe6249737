import Foundation
import ThemeVocabulary

/// The traits a client asks for; sent as the query parameters of docs/API.md.
public struct ThemeTraits: Sendable, Equatable {
    public var appearance: Appearance
    public var scale: Int?
    public var idiom: Idiom?
    public var gamut: Gamut?
    /// Preferred languages, most preferred first (strings).
    public var languages: [String]

    public init(appearance: Appearance = .any, scale: Int? = nil, idiom: Idiom? = nil, gamut: Gamut? = nil, languages: [String] = []) {
        (self.appearance, self.scale, self.idiom, self.gamut, self.languages) = (appearance, scale, idiom, gamut, languages)
    }

    /// Always at least `resolve=1`, so that a palette comes back resolved.
    var queryItems: [URLQueryItem] {
        var items = [URLQueryItem(name: "resolve", value: "1")]
        if appearance.luminosity != .any { items.append(URLQueryItem(name: "appearance", value: Appearance(appearance.luminosity).label)) }
        if appearance.highContrast { items.append(URLQueryItem(name: "contrast", value: "high")) }
        if let scale { items.append(URLQueryItem(name: "scale", value: String(scale))) }
        if let idiom { items.append(URLQueryItem(name: "idiom", value: idiom.name)) }
        if let gamut { items.append(URLQueryItem(name: "gamut", value: gamut.name)) }
        if !languages.isEmpty { items.append(URLQueryItem(name: "lang", value: languages.joined(separator: ","))) }
        return items
    }
}

/// One resolved colour.
public struct ThemeColor: Sendable, Equatable, Codable {
    public var hex: String
    public var css: String
    public var colorSpace: String
    public var components: [Double]

    public init(hex: String, css: String, colorSpace: String, components: [Double]) {
        (self.hex, self.css, self.colorSpace, self.components) = (hex, css, colorSpace, components)
    }
}

/// Every colour of a theme resolved for some traits: what an app draws with.
public struct ThemePalette: Sendable, Equatable, Codable {
    public var theme: String
    public var colors: [String: ThemeColor]

    public init(theme: String, colors: [String: ThemeColor]) {
        (self.theme, self.colors) = (theme, colors)
    }

    /// A palette answer of `GET /themes/{theme}/colors?resolve=1`; an error names what is wrong.
    public init(json: Data) throws(ThemedClientError) {
        let object = try? JSONSerialization.jsonObject(with: json)
        guard let body = object as? [String: Any], let theme = body["theme"] as? String,
              let colors = body["colors"] as? [String: Any] else {
            throw .invalidResponse("not a resolved palette (expected an object with \"theme\" and \"colors\")")
        }
        var resolved: [String: ThemeColor] = [:]
        for (name, value) in colors {
            guard let color = value as? [String: Any], let hex = color["hex"] as? String, let css = color["css"] as? String,
                  let colorSpace = color["colorSpace"] as? String, let components = color["components"] as? [Double] else {
                throw .invalidResponse("colour \"\(name)\" lacks hex, css, colorSpace or components")
            }
            resolved[name] = ThemeColor(hex: hex, css: css, colorSpace: colorSpace, components: components)
        }
        self.init(theme: theme, colors: resolved)
    }
}

/// A palette answer as the server sent it: the palette, and whether the server serves its theme
/// whole (`"status": "degraded"`: a source was refused, and some colours may be missing).
///
/// Its `revisions` name what each theme of the palette's chain held when it was answered: an
/// event whose revision is the one held announces nothing the palette lacks.
struct PaletteAnswer: Sendable {
    var palette: ThemePalette
    var degraded: Bool
    var revisions: [String: String]

    init(json: Data) throws(ThemedClientError) {
        palette = try ThemePalette(json: json)
        let object = try? JSONSerialization.jsonObject(with: json) as? [String: Any]
        degraded = object?["status"] as? String == "degraded"
        revisions = object?["revisions"] as? [String: String] ?? [:]
    }
}

/// Why a request of the client failed. The client keeps its last good values either way.
public enum ThemedClientError: Error, Sendable, Equatable, CustomStringConvertible {
    case status(Int, URL)
    case invalidResponse(String)
    case transport(String)
    /// The cache folder could not be written: the app starts from an older copy next time.
    case cache(String)
    /// A bootstrap file the app shipped that cannot be used (cut, not a bootstrap, another theme's).
    case bootstrap(String)
    /// The client was closed.
    case closed

    public var description: String {
        switch self {
        case .status(let code, let url): "\(url.path) answered \(code)"
        case .invalidResponse(let reason): "invalid response: \(reason)"
        case .transport(let reason): "transport: \(reason)"
        case .cache(let reason): "cache: \(reason)"
        case .bootstrap(let reason): "bootstrap: \(reason)"
        case .closed: "the client is closed"
        }
    }
}

/// Where the client stands with the server: what a status line or an offline banner shows.
public enum ThemedClientStatus: Sendable, Equatable {
    /// No answer from the server yet.
    case connecting
    /// The last palette came from the server whole.
    case live
    /// The server could not be reached or answered wrong: the last good palette is shown.
    case offline(ThemedClientError)
    /// The server serves the theme without some colours (a broken source): their last good
    /// values are kept and named here.
    case degraded(missing: [String])
}
