/// The JSON bodies of the API as typed values, decoded by the tests (what a client library would
/// decode). Members a response does not always carry are optional.

struct ErrorBody: Decodable {
    struct Detail: Decodable {
        var code: String
        var message: String
    }

    var error: Detail
}

struct SourceBody: Decodable, Equatable {
    var theme: String
    var path: String
}

struct TraitsBody: Decodable, Equatable {
    var appearance: String
    var idiom: String
    var gamut: String
}

/// `GET /themes/{theme}/colors/{name}`, and each entry of a resolved palette.
struct ColorBody: Decodable {
    var theme: String?
    var name: String?
    var colorSpace: String
    var components: [Double]
    var hex: String?
    var css: String?
    var systemColor: String?
    var traits: TraitsBody
    var fallbacks: [String]
    var source: SourceBody
    var localization: String?
}

/// `GET /themes/{theme}/colors?appearance=...`: every colour resolved.
struct PaletteBody: Decodable {
    /// The traits asked that choose colours (no scale: colours ignore it).
    struct RequestTraits: Decodable {
        var appearance: String
        var idiom: String
        var gamut: String
    }

    var theme: String
    /// `ok`, or `degraded` when a source of the chain was refused.
    var status: String
    var traits: RequestTraits
    var colors: [String: ColorBody]
}

/// `GET /themes/{theme}/colors`: every colour with its variants.
struct ColorListBody: Decodable {
    struct Entry: Decodable {
        var name: String
        var variants: [VariantColor]
    }

    struct VariantColor: Decodable {
        var traits: TraitsBody
        var colorSpace: String
        var components: [Double]
        var hex: String?
        var theme: String
    }

    var theme: String
    var colors: [Entry]
}

/// `GET /themes/{theme}/images/{name}.json`.
struct ImageMetadataBody: Decodable {
    struct VariantBody: Decodable {
        var scale: Int
        var idiom: String
        var appearance: String
        var gamut: String
        var pixelWidth: Int
        var pixelHeight: Int
        var format: String
        /// The SHA-256 of the bytes served, and their `/blobs/` URL.
        var etag: String?
        var blob: String?
        /// Loose files: the file and its `.lproj` folder.
        var file: String?
        var folder: String?
    }

    var theme: String
    var name: String
    var chosen: VariantBody
    var localization: String?
    var mirrored: Bool
    var fallbacks: [String]
    var source: SourceBody
    var href: String
    var variants: [VariantBody]
}

/// `GET /themes/{theme}/strings/{table}/{key}`.
struct StringBody: Decodable {
    var theme: String
    var table: String
    var key: String
    var value: String
    var localization: String?
    var fallbacks: [String]
    var source: SourceBody
    var forms: [String: String]?
}

/// `GET /themes/{theme}/strings/{table}`.
struct StringTableBody: Decodable {
    var theme: String
    var table: String
    var localization: String?
    var strings: [String: String]
}

/// `GET /themes`.
struct ThemeListBody: Decodable {
    struct Theme: Decodable {
        var name: String
        var parent: String?
        var revision: String
        var colors: Int
        var images: Int
        var files: Int
        var href: String
        var errors: [String]?
    }

    var themes: [Theme]
}

/// `GET /themes/{theme}`.
struct ThemeDetailBody: Decodable {
    struct Source: Decodable {
        var path: String
        var kind: String
        var identifier: String?
        var developmentRegion: String?
        var localizations: [String]?
        var errors: [String]?
    }

    struct Warming: Decodable {
        var done: Int
        var total: Int
        var complete: Bool
    }

    var name: String
    var revision: String
    var parent: String?
    var chain: [String]
    var warming: Warming?
    var status: String
    var errors: [String]
    var sources: [Source]
    var colors: [String]
    var images: [String]
    var data: [String]
    var files: [String]
    var strings: [String]
}

struct ImageListBody: Decodable {
    struct Entry: Decodable, Equatable {
        var name: String
        var kind: String
        var variants: Int
        var href: String
    }

    var theme: String
    var total: Int
    var images: [Entry]
    var next: String?
}
