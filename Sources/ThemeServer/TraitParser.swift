import HTTPServer
import HTTPTypes
import ThemeIndex
import ThemeVocabulary

/// Reads the traits of a request from its query (which wins) and its client-hint headers.
enum TraitParser {
    struct BadParameter: Error {
        var name: String
        var value: String
        var expected: String
    }

    /// The query parameters that select traits; any of them makes `/colors` resolve.
    static let parameterNames: Set<String> = ["appearance", "contrast", "idiom", "scale", "gamut", "lang", "direction", "subtype",
                                              "widthClass", "heightClass", "memory", "graphics"]

    static let colorScheme = HTTPField.Name("Sec-CH-Prefers-Color-Scheme")!
    static let contrast = HTTPField.Name("Sec-CH-Prefers-Contrast")!
    static let devicePixelRatio = HTTPField.Name("Sec-CH-DPR")!
    static let legacyDevicePixelRatio = HTTPField.Name("DPR")!

    static func traits(of request: Request) throws(BadParameter) -> TraitRequest {
        var traits = TraitRequest()
        let headers = request.headers
        // Client hints first, so that query parameters override them.
        if let scheme = headers[colorScheme]?.trimmingQuotes() {
            if scheme == "dark" || scheme == "light" { traits.appearance = Appearance(name: scheme) }
        }
        if headers[contrast]?.trimmingQuotes() == "more" {
            traits.appearance.highContrast = true
        }
        if let dpr = (headers[devicePixelRatio] ?? headers[legacyDevicePixelRatio]).flatMap(Double.init), dpr > 0, dpr.isFinite {
            // A hint is taken as it comes: below 1 is 1, past 4 is 4.
            _ = traits.setDensity(min(TraitRequest.densities.upperBound, max(1, dpr)))
        }
        if let languages = headers[.acceptLanguage] { traits.languages = AcceptLanguage.parse(languages) }

        let query = request.query
        if let value = query["appearance"] {
            guard !value.isEmpty, value.count <= 100 else { throw BadParameter(name: "appearance", value: value, expected: "any, light, dark, tinted or a catalog appearance name") }
            let contrast = traits.appearance.highContrast
            traits.appearance = Appearance(name: value)
            if contrast && value != "any" { traits.appearance.highContrast = true }
        }
        if let value = query["contrast"] {
            guard let contrast = Contrast(name: value) else { throw BadParameter(name: "contrast", value: value, expected: "normal or high") }
            traits.appearance.highContrast = contrast == .high
        }
        if let value = query["idiom"] {
            guard let idiom = Idiom(requestName: value) else {
                throw BadParameter(name: "idiom", value: value, expected: Idiom.requestNames.joined(separator: ", "))
            }
            traits.idiom = idiom
        }
        if let value = query["dpr"] {
            guard let dpr = Double(value), traits.setDensity(dpr) else {
                throw BadParameter(name: "dpr", value: value, expected: "a pixel density from 1 to 4, such as 1.5 or 2.625 (in eighths)")
            }
        }
        if let value = query["scale"] {
            guard let scale = Scale.parse(value) else { throw BadParameter(name: "scale", value: value, expected: "1, 2 or 3") }
            traits.scale = scale
            traits.density = nil
        }
        if let value = query["gamut"] {
            guard let gamut = Gamut(requestName: value) else { throw BadParameter(name: "gamut", value: value, expected: "srgb or p3") }
            traits.gamut = gamut
        }
        if let value = query["direction"] {
            guard let direction = LayoutDirection(requestName: value) else { throw BadParameter(name: "direction", value: value, expected: "ltr or rtl") }
            traits.direction = direction
        }
        if let value = query["size"] {
            guard let size = Int(value), (1...10_000).contains(size) else { throw BadParameter(name: "size", value: value, expected: "a size in points, such as 60") }
            traits.pointSize = size
        }
        if let value = query["subtype"] {
            guard let subtype = Int(value), (0...65535).contains(subtype) else { throw BadParameter(name: "subtype", value: value, expected: "a number") }
            traits.subtype = subtype
        }
        for (name, keyPath) in [("widthClass", \TraitRequest.sizeClassHorizontal), ("heightClass", \TraitRequest.sizeClassVertical)] {
            guard let value = query[name] else { continue }
            guard let sizeClass = SizeClass(name: value) else { throw BadParameter(name: name, value: value, expected: "any, compact or regular") }
            traits[keyPath: keyPath] = sizeClass
        }
        if let value = query["memory"] {
            guard let memory = MemoryClass.parseGigabytes(value), (1...1024).contains(memory) else { throw BadParameter(name: "memory", value: value, expected: "a size in GB such as 4 or 4GB") }
            traits.memoryGB = memory
        }
        if let value = query["graphics"] {
            guard let graphics = Int(value), (1...1000).contains(graphics) else { throw BadParameter(name: "graphics", value: value, expected: "a graphics family number") }
            traits.graphics = graphics
        }
        if let value = query["lang"] {
            let languages = AcceptLanguage.parse(value)
            guard !languages.isEmpty else { throw BadParameter(name: "lang", value: value, expected: "a language tag such as fr or en-GB") }
            traits.languages = languages
        }
        return traits
    }
}

/// `Accept-Language` values: tags ordered by q-value, then by position.
enum AcceptLanguage {
    static func parse(_ header: String) -> [String] {
        var entries: [(tag: String, quality: Double, position: Int)] = []
        for (position, part) in header.split(separator: ",").enumerated() {
            let pieces = part.split(separator: ";").map { $0.trimmingCharacters() }
            guard let tag = pieces.first, !tag.isEmpty, tag != "*", tag.count <= 35,
                  tag.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }) else { continue }
            var quality = 1.0
            for parameter in pieces.dropFirst() where parameter.hasPrefix("q=") {
                quality = Double(parameter.dropFirst(2)) ?? 0
            }
            if quality > 0 { entries.append((tag, quality, position)) }
        }
        return entries.sorted { $0.quality != $1.quality ? $0.quality > $1.quality : $0.position < $1.position }.map(\.tag)
    }
}

extension StringProtocol {
    func trimmingQuotes() -> String {
        trimmingCharacters().replacingQuotes()
    }
}

extension String {
    func replacingQuotes() -> String {
        filter { $0 != "\"" }
    }
}
