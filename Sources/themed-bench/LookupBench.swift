import AssetCatalog
import Foundation
import SQLite
import ThemeIndex
import ThemeVocabulary

/// `themed-bench lookups CORPUS`: uncached lookups through `ThemeIndex` (what a response-cache miss
/// costs) on a theme made of the corpus's largest catalog, a bundle with localized loose files and
/// strings, and a child theme inheriting it. The reference, run in the same process on the same
/// database, is a primary-key SELECT through the same SQLite wrapper: the ratio says how many
/// point queries one lookup costs.
enum LookupBench {
    static func run(corpus catalogs: [String]) throws {
        let root = NSTemporaryDirectory() + "themed-bench-\(getpid())"
        defer { try? FileManager.default.removeItem(atPath: root) }
        // The catalog with the most named images: the widest choice of names to look up.
        let largest = catalogs.max { imageNameCount($0) < imageNameCount($1) } ?? ""
        try makeThemes(in: "\(root)/themes", catalog: largest)
        let index = try ThemeIndex(databasePath: "\(root)/index.sqlite")
        try index.writer.sync(themesDirectory: "\(root)/themes")
        let reader = index.reader
        let chain = try ThemeInfo.chain(of: "child", in: try reader.themes())
        let imageNames = try reader.names(.image, in: chain)
        guard !imageNames.isEmpty else { throw ThemeError("\(largest): no named images to look up") }
        let languages = [["fr"], ["de-CH", "en"], ["ja"], ["en-GB"], []]

        func requests(_ count: Int) -> [TraitRequest] {
            (0..<count).map { number in
                var request = TraitRequest()
                request.scale = 1 + number % 3
                request.idiom = number % 2 == 0 ? .phone : .universal
                request.appearance = Appearance(name: number % 4 == 0 ? "dark" : "light")
                request.languages = languages[number % languages.count]
                return request
            }
        }
        let catalogRequests = requests(2_000), fileRequests = requests(2_000), stringRequests = requests(2_000)
        var found = 0
        let catalogSeconds = try Bench.best(3) {
            found = 0
            for (number, request) in catalogRequests.enumerated() where try reader.resolve(.image, named: imageNames[number % imageNames.count], in: chain, for: request) != nil {
                found += 1
            }
        }
        let fileSeconds = try Bench.best(3) {
            for (number, request) in fileRequests.enumerated() { _ = try reader.resolveFile(named: "icon\(number % 50)", in: chain, for: request) }
        }
        let stringSeconds = try Bench.best(3) {
            for (number, request) in stringRequests.enumerated() { _ = try reader.localizedString("key\(number % 200)", table: "Localizable", in: chain, languages: request.languages) }
        }
        let database = try Database(path: "\(root)/index.sqlite", readOnly: true)
        let referenceSeconds = try Bench.best(3) {
            for number in 0..<2_000 {
                _ = try database.cachedStatement("SELECT * FROM variant WHERE id = ?1").rows([.integer(Int64(1 + number % 500))])
            }
        }
        let perLookup = { (seconds: Double) in seconds / 2_000 * 1e6 }
        print("{\"benchmark\":\"lookups\",\"catalog\":\"\((largest as NSString).lastPathComponent)\",\"variants\":\(imageNames.count),"
              + "\"catalogMicroseconds\":\(perLookup(catalogSeconds)),\"fileMicroseconds\":\(perLookup(fileSeconds)),"
              + "\"stringMicroseconds\":\(perLookup(stringSeconds)),\"referenceMicroseconds\":\(perLookup(referenceSeconds)),\"found\":\(found)}")
    }

    static func imageNameCount(_ path: String) -> Int {
        guard let catalog = try? AssetCatalog(path: path) else { return 0 }
        return Set(catalog.renditions.filter { if case .bitmap = $0.content { true } else { false } }.map(\.name)).count
    }

    /// `base`: the catalog and a bundle with 50 icons (three scales, some per .lproj) and a
    /// 200-key strings table in five localizations; `child`: inherits `base`, overrides a few.
    static func makeThemes(in folder: String, catalog: String) throws {
        let manager = FileManager.default
        let bundle = "\(folder)/base/Kit.bundle"
        let languages = ["en", "fr", "de", "ja", "en_GB"]
        for language in languages { try manager.createDirectory(atPath: "\(bundle)/\(language).lproj", withIntermediateDirectories: true) }
        try manager.copyItem(atPath: catalog, toPath: "\(folder)/base/Assets.car")
        let info = "<?xml version=\"1.0\"?><plist version=\"1.0\"><dict><key>CFBundleDevelopmentRegion</key><string>en</string></dict></plist>"
        try Data(info.utf8).write(to: URL(fileURLWithPath: "\(bundle)/Info.plist"))
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        for number in 0..<50 {
            for suffix in ["", "@2x", "@3x~iphone"] { try Data(png).write(to: URL(fileURLWithPath: "\(bundle)/icon\(number)\(suffix).png")) }
            let language = languages[number % languages.count]
            try Data(png).write(to: URL(fileURLWithPath: "\(bundle)/\(language).lproj/icon\(number)@2x.png"))
        }
        for (position, language) in languages.enumerated() {
            let table = (0..<200).filter { $0 % (position + 1) == 0 }.map { "\"key\($0)\" = \"\(language) \($0)\";\n" }.joined()
            try Data(table.utf8).write(to: URL(fileURLWithPath: "\(bundle)/\(language).lproj/Localizable.strings"))
        }
        try manager.createDirectory(atPath: "\(folder)/child/en.lproj", withIntermediateDirectories: true)
        try Data("{\"parent\": \"base\"}".utf8).write(to: URL(fileURLWithPath: "\(folder)/child/theme.json"))
        try Data("\"key1\" = \"child\";".utf8).write(to: URL(fileURLWithPath: "\(folder)/child/en.lproj/Localizable.strings"))
    }
}
