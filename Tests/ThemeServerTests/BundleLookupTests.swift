import Foundation
import Testing
import ServiceSupport
import TestSupport

/// The loose-file and localization examples of ../shared/docs/lookup-rules.md (7.2, 7.3) against
/// the API's handler: one theme per example, built on disk by the test, answers decoded as typed
/// bodies.
@Suite("bundle lookups", .serialized)
struct BundleLookupTests {
    /// F1-F22: a request, the files of a bundle whose development region is en with en, fr, de and
    /// Base localizations, and the file expected (nil for a 404).
    struct FileExample: CustomTestStringConvertible, Sendable {
        var id: String
        var name: String
        var query: String
        var files: [String]
        var expected: String?
        var folders = ["en", "fr", "de", "Base"]
        var testDescription: String { id }
    }

    static let fileExamples: [FileExample] = [
        FileExample(id: "F1 ~ipad is not for phone", name: "icon", query: "idiom=phone&scale=2",
                    files: ["icon.png", "icon@2x.png", "icon@2x~ipad.png"], expected: "icon@2x.png"),
        FileExample(id: "F2 device file in the same folder wins", name: "icon", query: "idiom=pad&scale=2",
                    files: ["icon.png", "icon@2x.png", "icon@2x~ipad.png"], expected: "icon@2x~ipad.png"),
        FileExample(id: "F3 scale 1 exists", name: "icon", query: "idiom=pad&scale=1",
                    files: ["icon.png", "icon@2x.png", "icon@2x~ipad.png"], expected: "icon.png"),
        FileExample(id: "F4 lower scale first", name: "icon", query: "idiom=phone&scale=3", files: ["icon.png", "icon@2x.png"], expected: "icon@2x.png"),
        FileExample(id: "F5 lower before higher", name: "icon", query: "idiom=phone&scale=2", files: ["icon.png", "icon@3x.png"], expected: "icon.png"),
        FileExample(id: "F6 only file: higher scale", name: "icon", query: "idiom=phone&scale=1", files: ["icon@2x.png"], expected: "icon@2x.png"),
        FileExample(id: "F7 other device never chosen", name: "icon", query: "idiom=pad&scale=2", files: ["icon~iphone.png", "icon@2x~iphone.png"], expected: nil),
        FileExample(id: "F8 tv suffix", name: "icon", query: "idiom=tv&scale=1", files: ["icon.png", "icon~appletv.png"], expected: "icon~appletv.png"),
        FileExample(id: "F9 mac has no device suffix", name: "icon", query: "idiom=mac&scale=2", files: ["icon@2x~ipad.png"], expected: nil),
        FileExample(id: "F10 device before platform before plain", name: "icon", query: "idiom=pad&scale=2",
                    files: ["icon@2x.png", "icon@2x-iphoneos.png", "icon@2x~ipad.png"], expected: "icon@2x~ipad.png"),
        FileExample(id: "F11 chosen localization", name: "flag", query: "lang=fr",
                    files: ["en.lproj/flag.png", "fr.lproj/flag.png", "de.lproj/flag.png"], expected: "fr.lproj/flag.png"),
        FileExample(id: "F12 development region", name: "flag", query: "lang=ja",
                    files: ["en.lproj/flag.png", "fr.lproj/flag.png", "de.lproj/flag.png"], expected: "en.lproj/flag.png"),
        FileExample(id: "F13 global folder first", name: "logo", query: "lang=fr", files: ["logo.png", "fr.lproj/logo.png"], expected: "logo.png"),
        FileExample(id: "F14 global, fr, Base, en", name: "title", query: "lang=fr",
                    files: ["Base.lproj/title.png", "en.lproj/title.png"], expected: "Base.lproj/title.png"),
        FileExample(id: "F15 Base precedes the fallback en", name: "title", query: "lang=en-GB",
                    files: ["Base.lproj/title.png", "en.lproj/title.png"], expected: "Base.lproj/title.png", folders: ["en_GB", "en", "Base"]),
        FileExample(id: "F16 scale outranks folder", name: "icon", query: "idiom=phone&scale=2&lang=fr",
                    files: ["icon.png", "fr.lproj/icon@2x.png"], expected: "fr.lproj/icon@2x.png"),
        FileExample(id: "F17 folder outranks device", name: "icon", query: "idiom=pad&scale=2&lang=fr",
                    files: ["icon@2x.png", "fr.lproj/icon@2x~ipad.png"], expected: "icon@2x.png"),
        FileExample(id: "F18 sub-folder only when named", name: "Posters/p", query: "idiom=phone&scale=1",
                    files: ["Posters/p.png", "p.png"], expected: "Posters/p.png"),
        FileExample(id: "F19 sub-folders are not searched", name: "p", query: "idiom=phone&scale=1", files: ["Posters/p.png"], expected: nil),
        FileExample(id: "F20 case-sensitive", name: "icon", query: "idiom=phone&scale=1", files: ["Icon.png"], expected: nil),
        FileExample(id: "F21 png first", name: "photo", query: "idiom=phone&scale=1", files: ["photo.jpg", "photo.png"], expected: "photo.png"),
        FileExample(id: "F22 framework without symlinks", name: "icon", query: "idiom=pad&scale=2",
                    files: ["Kit.framework/Versions/A/Resources/icon@2x.png"], expected: "Kit.framework/Versions/A/Resources/icon@2x.png", folders: []),
    ]

    static func themeName(_ id: String) -> String { String(id.prefix { $0 != " " }).lowercased() }

    /// One API for all of F1-F22.
    static func fileAPI() throws -> APIFixture {
        try APIFixture(themes: { f in
            for example in fileExamples {
                let theme = "themes/\(themeName(example.id))"
                if !example.folders.isEmpty { f.writePlist(["CFBundleDevelopmentRegion": "en", "CFBundleIdentifier": "test.\(themeName(example.id))"], to: "\(theme)/Info.plist") }
                for folder in example.folders { f.makeDirectory("\(theme)/\(folder).lproj") }
                for file in example.files { f.looseImage("\(theme)/\(file)") }
            }
        })
    }

    @Test("worked examples F1-F22", arguments: fileExamples)
    func fileExample(_ example: FileExample) throws {
        let api = try Self.fileAPI()
        let theme = Self.themeName(example.id)
        let response = try api.request("/themes/\(theme)/images/\(example.name)?\(example.query)")
        guard let expected = example.expected else {
            #expect(response.status == 404, "\(response.text)")
            if example.id.hasPrefix("F20") { #expect(try response.decode(ErrorBody.self).error.message.contains("did you mean \"Icon\"")) }
            return
        }
        #expect(response.status == 200, "\(response.text)")
        #expect(response.body == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array("themes/\(theme)/\(expected)".utf8))
        let metadata = try api.request("/themes/\(theme)/images/\(example.name).json?\(example.query)").decode(ImageMetadataBody.self)
        #expect(metadata.chosen.file == "\(theme)/\(expected)")
    }

    /// L1-L23: every folder's Localizable.strings says which folder it is; "fallback"
    /// is in every folder but the chosen one, so it shows the search list's second entry.
    struct LanguageExample: CustomTestStringConvertible, Sendable {
        var id: String
        var languages: String?
        var folders: [String]
        var developmentRegion: String?
        var chosen: String
        var second: String?
        var testDescription: String { id }
    }

    static let languageExamples: [LanguageExample] = [
        LanguageExample(id: "L1", languages: "fr", folders: ["en", "fr", "de"], developmentRegion: "en", chosen: "fr", second: "en"),
        LanguageExample(id: "L2", languages: "de-CH, fr;q=0.5", folders: ["en", "fr", "de"], developmentRegion: "en", chosen: "de", second: "en"),
        LanguageExample(id: "L3", languages: "ja", folders: ["en", "fr", "de"], developmentRegion: "en", chosen: "en"),
        LanguageExample(id: "L4", languages: "fr-CA", folders: ["en", "fr"], developmentRegion: "en", chosen: "fr", second: "en"),
        LanguageExample(id: "L5", languages: "ja, en", folders: ["zh-Hans", "en"], developmentRegion: "zh-Hans", chosen: "en", second: "zh-Hans"),
        LanguageExample(id: "L6", languages: "ja", folders: ["zh-Hans", "en"], developmentRegion: "zh-Hans", chosen: "zh-Hans"),
        LanguageExample(id: "L7", languages: "en-AU", folders: ["en", "en_GB"], developmentRegion: "en", chosen: "en_GB", second: "en"),
        LanguageExample(id: "L8", languages: "en-IN", folders: ["en", "en_AU", "en_GB"], developmentRegion: "en", chosen: "en_GB", second: "en"),
        LanguageExample(id: "L9", languages: "en-CA", folders: ["en", "en_AU", "en_GB"], developmentRegion: "en", chosen: "en"),
        LanguageExample(id: "L10", languages: "pt-PT, en", folders: ["pt-BR", "en"], developmentRegion: "en", chosen: "en"),
        LanguageExample(id: "L11", languages: "pt-PT", folders: ["pt-BR", "en"], developmentRegion: "en", chosen: "pt-BR", second: "en"),
        LanguageExample(id: "L12", languages: "pt-PT", folders: ["pt", "pt-BR"], developmentRegion: "pt", chosen: "pt"),
        LanguageExample(id: "L13", languages: "es-MX", folders: ["es", "es_419"], developmentRegion: "es", chosen: "es_419", second: "es"),
        LanguageExample(id: "L14", languages: "zh-HK", folders: ["zh-Hans", "zh-Hant"], developmentRegion: "en", chosen: "zh-Hant"),
        LanguageExample(id: "L15", languages: "zh", folders: ["zh_CN", "zh_TW"], developmentRegion: "en", chosen: "zh_CN"),
        LanguageExample(id: "L16", languages: "zh-Hant-TW", folders: ["zh_CN", "zh_TW"], developmentRegion: "en", chosen: "zh_TW"),
        LanguageExample(id: "L17", languages: "it", folders: ["it_CH", "it_IT"], developmentRegion: "it", chosen: "it_IT"),
        LanguageExample(id: "L18", languages: "fr-CH, fr-CA", folders: ["fr_FR", "fr_CA"], developmentRegion: "en", chosen: "fr_CA"),
        LanguageExample(id: "L19", languages: "en-US", folders: ["English", "fr"], developmentRegion: nil, chosen: "English"),
        LanguageExample(id: "L20", languages: "ja", folders: ["fr", "en"], developmentRegion: nil, chosen: "en"),
        LanguageExample(id: "L21", languages: "ja", folders: ["fr", "de"], developmentRegion: nil, chosen: "de"),
        LanguageExample(id: "L22", languages: nil, folders: ["en", "fr"], developmentRegion: "fr", chosen: "fr"),
    ]

    static func languageAPI() throws -> APIFixture {
        try APIFixture(themes: { f in
            for example in languageExamples {
                let theme = "themes/\(example.id.lowercased())"
                var info: [String: Any] = ["CFBundleIdentifier": "test.\(example.id)"]
                if let region = example.developmentRegion { info["CFBundleDevelopmentRegion"] = region }
                f.writePlist(info, to: "\(theme)/Info.plist")
                for folder in example.folders {
                    var text = "\"which\" = \"\(folder)\";\n"
                    if folder != example.chosen { text += "\"fallback\" = \"\(folder)\";\n" }
                    f.write(text, to: "\(theme)/\(folder).lproj/Localizable.strings")
                }
            }
            // L23: a plain theme folder holding a bundle is no main bundle; the bundle chooses.
            f.writePlist(["CFBundleDevelopmentRegion": "en"], to: "themes/l23/X.bundle/Info.plist")
            for folder in ["en", "fr"] { f.write("\"which\" = \"\(folder)\";", to: "themes/l23/X.bundle/\(folder).lproj/Localizable.strings") }
            // The same bundle inside a theme folder that has localizations of its own (only en):
            // the theme folder is the main bundle and X.bundle follows its choice.
            f.writePlist(["CFBundleDevelopmentRegion": "en"], to: "themes/l23-main/Info.plist")
            f.write("\"title\" = \"Main\";", to: "themes/l23-main/en.lproj/Main.strings")
            f.writePlist(["CFBundleDevelopmentRegion": "en"], to: "themes/l23-main/X.bundle/Info.plist")
            for folder in ["en", "fr"] { f.write("\"which\" = \"\(folder)\";", to: "themes/l23-main/X.bundle/\(folder).lproj/Localizable.strings") }
        })
    }

    @Test("worked examples L1-L22: the chosen localization and its fallback", arguments: languageExamples)
    func languageExample(_ example: LanguageExample) throws {
        let api = try Self.languageAPI()
        let theme = example.id.lowercased()
        // L2 comes as an Accept-Language header with q-values; the others as lang=.
        let headers = example.id == "L2" ? ["Accept-Language": example.languages ?? ""] : [:]
        let query = example.id == "L2" ? "" : example.languages.map { "?lang=\($0.replacingOccurrences(of: " ", with: ""))" } ?? ""
        let response = try api.request("/themes/\(theme)/strings/Localizable/which\(query)", headers: headers)
        let which = try response.decode(StringBody.self)
        #expect(which.value == example.chosen)
        #expect(which.localization == example.chosen)
        #expect(response.header("Content-Language") == example.chosen.replacingOccurrences(of: "_", with: "-"))
        let fallback = try api.request("/themes/\(theme)/strings/Localizable/fallback\(query)", headers: headers)
        if let second = example.second {
            let body = try fallback.decode(StringBody.self)
            #expect(body.value == second)
            #expect(body.fallbacks == ["localization:\(second)"])
        } else {
            #expect(fallback.status == 404, "only the chosen folder is searched: \(fallback.text)")
        }
    }

    @Test("L23: a plain theme folder is no main bundle; a theme folder with localizations is")
    func plainFolderIsNoMainBundle() throws {
        let api = try Self.languageAPI()
        #expect(try api.request("/themes/l23/strings/Localizable/which?lang=fr").decode(StringBody.self).value == "fr")
        #expect(try api.request("/themes/l23-main/strings/Localizable/which?lang=fr").decode(StringBody.self).value == "en")
    }
}
