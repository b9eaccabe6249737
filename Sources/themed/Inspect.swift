import ArgumentParser
import AssetCatalog
import Foundation
import JSON
import ThemeBundle

/// `themed inspect FILE.car`: what a catalog holds, like `assetutil --info`; `themed inspect
/// BUNDLE`: how a bundle directory is read.
struct Inspect: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "List a compiled asset catalog's header and renditions, or what a bundle directory holds.",
        discussion: """
            For a .car file: exit status 1 when it cannot be read as a catalog; renditions that fail to decode are \
            listed with their error. For a directory (an .app, .framework, .bundle or plain folder): its layout, \
            Info.plist, localizations, loose files, strings tables, catalogs and nested bundles; with --lang, the \
            localization search list a client with those languages gets.
            """)

    @Argument(help: "The .car file or bundle directory.")
    var file: String

    @Option(help: "For a bundle: the client's languages, best first (fr-CA,en), to show its search list.")
    var lang: String?

    @Flag(help: "Print assetutil-style JSON instead of a table.")
    var json = false

    @Flag(help: "Only parse; do not decode images.")
    var noDecode = false

    func run() throws {
        if FileSystem.isDirectory(file) {
            let report = BundleReport(bundle: ResourceBundle(path: file, themeRoot: file),
                                      languages: lang.map { $0.split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) } })
            print(json ? report.json.serialized(pretty: true) : report.text)
            return
        }
        let catalog = try openCatalog(file)
        let report = CatalogReport(catalog, decodeImages: !noDecode)
        let listing = report.json
        if json {
            print(listing.serialized(pretty: true))
            return
        }
        guard case .array(let entries) = listing, let header = entries.first else { return }
        printHeader(header, catalog: catalog)
        var failures = 0
        for entry in entries.dropFirst() {
            let decoded = entry["Decoded"] == .bool(true)
            if !decoded { failures += 1 }
            let fields = ["AssetType", "Name", "Idiom", "Scale", "Appearance", "PixelWidth", "PixelHeight", "Compression", "Encoding"]
                .compactMap { key -> String? in
                    guard let value = entry[key] else { return nil }
                    return "\(key)=\(text(value))"
                }
            print((decoded ? "  ok   " : "  FAIL ") + fields.joined(separator: " ") + (entry["Error"].map { "  error: \(text($0))" } ?? ""))
        }
        print("\(entries.count - 1) renditions, \(failures) not decoded")
    }

    private func printHeader(_ header: JSONValue, catalog: AssetCatalog) {
        print("\(file)")
        for key in ["MainVersion", "AssetStorageVersion", "StorageVersion", "RenditionCount", "Platform", "PlatformVersion", "ThinningParameters", "Key Format"] {
            if let value = header[key] { print("  \(key): \(text(value))") }
        }
    }

    private func text(_ value: JSONValue) -> String {
        switch value {
        case .string(let string): string
        default: value.serialized()
        }
    }
}
