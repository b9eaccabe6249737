import Foundation
import Testing
import TestSupport
@testable import ThemeBundle

/// Info.plist, `.stringsdict` and plist `.strings` files go through Foundation's property-list
/// reader. Mutated binary and XML lists must give a value or an error, never a crash: a theme
/// folder is untrusted input.
@Suite("property list mutations")
struct PropertyListMutationTests {
    static var dictionary: [String: Any] { [
        "CFBundleIdentifier": "com.example.theme", "CFBundleDevelopmentRegion": "en",
        "CFBundleLocalizations": ["en", "fr", "de"], "CFBundleAllowMixedLocalizations": true,
        "Nested": ["NSStringLocalizedFormatKey": "%#@n@", "n": ["one": "%d file", "other": "%d files"]], "Count": 3,
    ] }

    @Test("3,000 mutated binary and XML property lists: a dictionary or an error, never a crash")
    func mutations() throws {
        var random = SplitMix(seed: 0xB0B)
        let seeds = try [PropertyListSerialization.PropertyListFormat.binary, .xml].map {
            Array(try PropertyListSerialization.data(fromPropertyList: Self.dictionary, format: $0, options: 0))
        }
        let folder = NSTemporaryDirectory() + "plist-mutations-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var read = 0, rejected = 0
        for round in 0..<3_000 {
            let bytes = random.mutated(seeds[round % 2], by: [.flip, .overwrite([0x00, 0xFF, 0x7F, 0x80, 0x0F]), .truncate], maximum: 7)
            try Data(bytes).write(to: URL(fileURLWithPath: "\(folder)/Info.plist"))
            var info = BundleInfo(path: folder)
            info.readInfoPlist(in: folder)
            if info.problem == nil { read += 1 } else { rejected += 1 }
            _ = try? StringsDictionary(bytes: bytes)
            _ = try? StringsFile(bytes: bytes)
        }
        #expect(read + rejected == 3_000)
        #expect(rejected > 0, "mutations reach the error path: \(read) read, \(rejected) rejected")
    }
}
