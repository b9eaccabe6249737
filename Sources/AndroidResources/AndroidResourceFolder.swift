import Foundation
import ImageCoders
import ThemeBundle
import ThemeContent
import ThemeExport
import ThemeIndex
import ThemeVocabulary

/// `themed export THEME --format android`: a resource folder an Android build takes as it is.
///
/// - `values/colors.xml`, `values-night/colors.xml`: the colours, and a token theme's other
///   design tokens in `dimens.xml`, `integers.xml` and `styles.xml` (`AndroidExport`).
/// - `drawable-<density>/<name>.png` for mdpi to xxxhdpi (1, 1.5, 2, 3, 4 pixels a dp), each made
///   from the image's best stored scale for that density by the coders of the image routes (a
///   vector drawn at it, a bitmap resized to its points times the density); `drawable-night-...`
///   where the dark image differs, `drawable-<locale>-...` where a localization's does.
/// - `values/strings.xml` (the development region's strings, every key) and
///   `values-<locale>/strings.xml` (each localization's own values), with `<plurals>` from
///   `.stringsdict` and `.xcstrings`.
///
/// Resource names follow the one name rule (`NameStyle.androidResource`); collisions get numbers
/// and are listed in `problems`, as is anything that could not be made (an image no coder reads).
public struct AndroidResourceFolder: Sendable {
    public struct File: Sendable, Equatable {
        public var path: String
        public var bytes: [UInt8]
    }

    public private(set) var files: [File] = []
    public private(set) var problems: [String] = []

    /// The image formats drawables are made from (data and other files are not drawables).
    static let imageFormats: Set<String> = ["png", "jpeg", "jpg", "gif", "webp", "heic", "avif", "pdf", "svg"]

    /// The prefix `ExportOptions.prefix` puts before every resource name.
    let prefix: String

    public init(chain: [ThemeInfo], colors: ColorTable, tokens: TokenTable = .empty, reader: IndexReader, content: ContentStore, prefix: String = "") throws {
        self.prefix = prefix
        for file in AndroidExport(colors, tokens: tokens, prefix: prefix).files { files.append(File(path: file.path, bytes: Array(file.contents.utf8))) }
        problems += ExportFormat.android.warnings(for: colors, prefix: prefix)
        let bundles = chain.flatMap(\.sources).compactMap(\.bundle)
        let developmentRegion = bundles.compactMap(\.developmentRegion).first ?? "en"
        var localizations: [(name: String, qualifier: String)] = []
        for name in bundles.flatMap(\.availableLocalizations) {
            guard let qualifier = AndroidLocale.qualifier(name), LanguageTag.normalized(name) != LanguageTag.normalized(developmentRegion),
                  !localizations.contains(where: { $0.qualifier == qualifier }) else { continue }
            localizations.append((name, qualifier))
        }
        try addStrings(chain: chain, reader: reader, developmentRegion: developmentRegion, localizations: localizations)
        try addDrawables(chain: chain, reader: reader, content: content, developmentRegion: developmentRegion, localizations: localizations)
        files.sort { $0.path < $1.path }
    }

    // MARK: Strings

    private mutating func addStrings(chain: [ThemeInfo], reader: IndexReader, developmentRegion: String,
                                     localizations: [(name: String, qualifier: String)]) throws {
        let tables = try reader.stringTables(in: chain)
        guard !tables.isEmpty else { return }
        func resourceName(_ table: String, _ key: String) -> String { table == "Localizable" ? key : "\(table)_\(key)" }
        var sets: [(folder: String, entries: [(name: String, string: IndexReader.LocalizedString)])] = []
        var defaults: [(name: String, string: IndexReader.LocalizedString)] = []
        for table in tables {
            defaults += try reader.localizedTable(table, in: chain, languages: [developmentRegion]).map { (resourceName(table, $0.key), $0) }
        }
        sets.append(("values", defaults))
        for localization in localizations {
            let wanted = LanguageTag.normalized(localization.name)
            var entries: [(name: String, string: IndexReader.LocalizedString)] = []
            for table in tables {
                entries += try reader.localizedTable(table, in: chain, languages: [localization.name])
                    .filter { !$0.locale.isEmpty && LanguageTag.normalized($0.locale) == wanted }
                    .map { (resourceName(table, $0.key), $0) }
            }
            if !entries.isEmpty { sets.append(("values-\(localization.qualifier)", entries)) }
        }
        let allNames = Array(Set(sets.flatMap { $0.entries.map(\.name) })).sorted()
        let names = ExportNames(allNames, style: .androidResource, prefix: prefix)
        problems += names.report.map { "string name collision: " + $0 }
        for (folder, entries) in sets {
            var out = "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<!-- Strings of theme \"\(Self.comment(chain.first?.name ?? ""))\", exported by themed. Do not edit: export again. -->\n<resources>\n"
            for (name, string) in entries.sorted(by: { names[$0.name] < names[$1.name] }) {
                if names[name] != name { out += "    <!-- \(Self.comment(name)) -->\n" }
                let forms = string.forms.filter { Self.quantities.contains($0.key) }
                if forms.isEmpty {
                    out += "    <string name=\"\(names[name])\">\(AndroidString.escaped(string.value))</string>\n"
                } else {
                    out += "    <plurals name=\"\(names[name])\">\n"
                    for quantity in Self.quantities {
                        guard let form = forms[quantity] else { continue }
                        out += "        <item quantity=\"\(quantity)\">\(AndroidString.escaped(form))</item>\n"
                    }
                    out += "    </plurals>\n"
                }
            }
            files.append(File(path: "\(folder)/strings.xml", bytes: Array((out + "</resources>\n").utf8)))
        }
    }

    /// CLDR's plural categories, in Android's order.
    static let quantities = ["zero", "one", "two", "few", "many", "other"]

    static func comment(_ text: String) -> String {
        var result = String(String.UnicodeScalarView(text.unicodeScalars.map { $0.value < 0x20 ? " " : $0 }))
        while result.contains("--") { result = result.replacingOccurrences(of: "--", with: "- -") }
        return result
    }

    // MARK: Drawables

    private mutating func addDrawables(chain: [ThemeInfo], reader: IndexReader, content: ContentStore, developmentRegion: String,
                                       localizations: [(name: String, qualifier: String)]) throws {
        let names = Array(Set(try reader.names(.image, in: chain) + reader.names(.file, in: chain))).sorted()
        var drawable: [String] = []
        for name in names {
            var traits = TraitRequest()
            traits.languages = [developmentRegion]
            guard let resolution = try reader.resolveImage(named: name, in: chain, for: traits),
                  Self.imageFormats.contains(resolution.variant.format.lowercased()) else { continue }
            drawable.append(name)
        }
        let exportNames = ExportNames(drawable, style: .androidResource, prefix: prefix)
        problems += exportNames.report.map { "drawable name collision: " + $0 }
        var made: [String: [UInt8]] = [:]
        for name in drawable {
            // What the development region's light image is at each density: the others are
            // written only where they differ from it (or, for dark, from their locale's light).
            var light: [String: String] = [:]
            var plain: [String: String] = [:]
            for (languages, locale) in [([developmentRegion], nil as String?)] + localizations.map({ ([$0.name], Optional($0.qualifier)) }) {
                for dark in [false, true] {
                    for density in AndroidDensity.allCases {
                        var traits = TraitRequest()
                        _ = traits.setDensity(density.scale)
                        traits.languages = languages
                        if dark { traits.appearance = Appearance(.dark) }
                        guard let resolution = try reader.resolveImage(named: name, in: chain, for: traits) else { continue }
                        let key = resolution.variant.contentKey + (resolution.isMirrored ? "#mirrored" : "")
                        let slot = "\(dark ? "night" : "day")-\(density)"
                        if locale == nil { plain[slot] = key }
                        if !dark { light["\(locale ?? "")-\(density)"] = key }
                        if dark, light["\(locale ?? "")-\(density)"] == key { continue }
                        if locale != nil, plain[slot] == key { continue }
                        let qualifiers = [locale, dark ? "night" : nil, density.rawValue].compactMap { $0 }
                        let cacheKey = "\(key)@\(density.scale)"
                        do {
                            let bytes = try made[cacheKey] ?? Self.render(resolution, at: density.scale, with: content)
                            made[cacheKey] = bytes
                            files.append(File(path: "drawable-\(qualifiers.joined(separator: "-"))/\(exportNames[name]).png", bytes: bytes))
                        } catch {
                            problems.append("image \"\(name)\" at \(density.rawValue) (\(density.scale)x): \(error)")
                        }
                    }
                }
            }
        }
    }

    /// The image as PNG at `density`, made by the content store (and kept there like a route's).
    static func render(_ resolution: Resolution, at density: Double, with content: ContentStore) throws -> [UInt8] {
        try content.bytes(of: content.loadWaiting(resolution, as: ImageDensity.request(resolution.variant, at: density, format: .png)))
    }
}
