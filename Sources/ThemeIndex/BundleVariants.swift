import Hashing
import Foundation
import ThemeBundle

/// The loose files and `.strings` entries a bundle offers (lookup-rules.md 3).
enum BundleVariants {
    static func variants(of bundle: ResourceBundle) -> [Variant] {
        bundle.files.map { file in
            var traits = VariantTraits()
            traits.idiom = file.fileName.idiom
            traits.scale = file.fileName.scale
            traits.locale = file.locale
            traits.fileExtension = file.fileName.pathExtension
            traits.platform = file.fileName.platform
            var variant = Variant(kind: .file, name: file.name, traits: traits)
            variant.sortKey = file.path
            var hash = ContentHash()
            FolderVariants.describeFile(file.path, in: &variant, hash: &hash)
            variant.contentKey = hash.hex
            return variant
        }
    }

    /// Every entry of every `.strings` table; a table that cannot be read is left out, named in
    /// `problems` and listed in `unreadable` (so that sync can keep what it had), the others
    /// still load.
    static func strings(of bundle: ResourceBundle, problems: inout [String], unreadable: inout [String]) -> [StringEntry] {
        var entries: [StringEntry] = []
        // A .stringsdict entry wins over the .strings entry of the same table, folder and key.
        var pluralKeys = Set<String>()
        for table in bundle.strings.sorted(by: { $0.path.hasSuffix(".stringsdict") && !$1.path.hasSuffix(".stringsdict") }) {
            do {
                guard let data = FileManager.default.contents(atPath: table.path) else { throw ThemeError("cannot be read") }
                let isDictionary = table.path.hasSuffix(".stringsdict")
                let dictionary = isDictionary ? try StringsDictionary(bytes: Array(data)) : nil
                let values = try dictionary?.entries ?? StringsFile(bytes: Array(data)).entries
                for (key, value) in values.sorted(by: { $0.key < $1.key }) {
                    let identity = "\(table.table)\u{0}\(table.locale)\u{0}\(key)"
                    if isDictionary { pluralKeys.insert(identity) } else if pluralKeys.contains(identity) { continue }
                    entries.append(StringEntry(table: table.table, key: key, value: value, locale: table.locale, file: table.path,
                                               forms: dictionary?.forms[key] ?? [:]))
                }
            } catch {
                problems.append("\(table.path): \(error)")
                unreadable.append(table.path)
            }
        }
        for file in bundle.stringCatalogs {
            // A catalog that does not parse was reported when the bundle was read.
            guard let data = FileManager.default.contents(atPath: file.path), let catalog = try? StringCatalog(bytes: Array(data)) else {
                unreadable.append(file.path)
                continue
            }
            for language in catalog.languages {
                for (key, value) in (catalog.values[language] ?? [:]).sorted(by: { $0.key < $1.key }) {
                    entries.append(StringEntry(table: file.table, key: key, value: value, locale: language, file: file.path,
                                               forms: catalog.forms[language]?[key] ?? [:]))
                }
            }
        }
        return entries
    }
}
