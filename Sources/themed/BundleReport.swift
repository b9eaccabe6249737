import Foundation
import JSON
import ThemeBundle

/// What `themed inspect` says about a bundle directory: its layout, Info.plist, localizations
/// (and, for given languages, the search list a client would get), loose files, strings tables,
/// catalogs, nested bundles and problems. The tool for "why did this client get that file?".
struct BundleReport {
    let bundle: ResourceBundle
    let languages: [String]?

    var json: JSONValue {
        let info = bundle.info
        var members: [(String, JSONValue)] = [
            ("path", .string(bundle.path)),
            ("layout", .string(bundle.layout.kind.rawValue)),
            ("resources", .string(bundle.layout.resourcesPath)),
            ("identifier", info.identifier.map(JSONValue.string) ?? .null),
            ("developmentRegion", info.developmentRegion.map(JSONValue.string) ?? .null),
            ("declaredLocalizations", .array(info.declaredLocalizations.map(JSONValue.string))),
            ("localizations", .array(info.availableLocalizations.map(JSONValue.string))),
        ]
        if let languages {
            let list = Localization.searchList(for: info, preferences: languages)
            members.append(("languages", .array(languages.map(JSONValue.string))))
            members.append(("searchList", .array(list.map(JSONValue.string))))
        }
        members.append(("files", .array(bundle.files.map { file in
            .object([
                ("name", .string(file.name)), ("folder", .string(file.locale.isEmpty ? "" : "\(file.locale).lproj")),
                ("scale", .int(file.fileName.scale)), ("device", .string(file.fileName.device)),
                ("platform", .string(file.fileName.platform)), ("extension", .string(file.fileName.pathExtension)),
                ("path", .string(file.path)),
            ])
        })))
        members.append(("strings", .array(bundle.strings.map { table in
            var entry: [(String, JSONValue)] = [("table", .string(table.table)), ("folder", .string(table.locale.isEmpty ? "" : "\(table.locale).lproj"))]
            do {
                let file = try StringsFile(bytes: Array(FileManager.default.contents(atPath: table.path) ?? Data()))
                entry.append(("keys", .int(file.entries.count)))
            } catch {
                entry.append(("error", .string("\(error)")))
            }
            return .object(entry)
        })))
        members.append(("stringCatalogs", .array(bundle.stringCatalogs.map { JSONValue.string($0.path) })))
        members.append(("catalogs", .array(bundle.catalogs.map(JSONValue.string))))
        members.append(("nestedBundles", .array(bundle.nestedBundles.map(JSONValue.string))))
        members.append(("problems", .array(bundle.problems.map(JSONValue.string))))
        return .object(members)
    }

    /// A few lines for a terminal.
    var text: String {
        let info = bundle.info
        var lines = ["\(bundle.path)", "  layout \(bundle.layout.kind.rawValue); resources \(bundle.layout.resourcesPath)"]
        lines.append("  identifier \(info.identifier ?? "-"); development region \(info.developmentRegion ?? "-")")
        lines.append("  localizations: \(info.availableLocalizations.joined(separator: ", "))")
        if let languages {
            lines.append("  search list for [\(languages.joined(separator: ", "))]: \(Localization.searchList(for: info, preferences: languages).joined(separator: ", "))")
        }
        lines.append("  \(bundle.files.count) loose files:")
        for file in bundle.files {
            let traits = ["@\(file.fileName.scale)x", file.fileName.device.isEmpty ? nil : "~\(file.fileName.device)",
                          file.fileName.platform.isEmpty ? nil : "-\(file.fileName.platform)"].compactMap { $0 }.joined(separator: " ")
            lines.append("    \(file.locale.isEmpty ? "" : "\(file.locale).lproj/")\(file.name).\(file.fileName.pathExtension)  \(traits)")
        }
        let tables = bundle.strings.map { "\($0.locale.isEmpty ? "" : "\($0.locale).lproj/")\($0.table)" }
        lines.append("  strings: \(tables.isEmpty ? "-" : tables.joined(separator: ", "))")
        if !bundle.stringCatalogs.isEmpty { lines.append("  string catalogs: \(bundle.stringCatalogs.map(\.path).joined(separator: ", "))") }
        if !bundle.catalogs.isEmpty { lines.append("  catalogs: \(bundle.catalogs.joined(separator: ", "))") }
        if !bundle.nestedBundles.isEmpty { lines.append("  nested bundles: \(bundle.nestedBundles.joined(separator: ", "))") }
        for problem in bundle.problems { lines.append("  problem: \(problem)") }
        return lines.joined(separator: "\n")
    }
}
