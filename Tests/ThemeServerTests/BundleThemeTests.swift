import CatalogWriter
import Codecs
import Foundation
import Testing
import ServiceSupport
import TestSupport
@testable import ThemeServer

/// Themes made of bundles: every layout served, catalogs against loose files, inheritance of
/// strings and files, and broken bundles that still serve what is intact.
@Suite("bundle themes", .serialized)
struct BundleThemeTests {
    @Test("every bundle layout in one theme: flat iOS app, macOS app (with its Assets.car), framework with links, loadable bundle")
    func layouts() throws {
        let api = try APIFixture(themes: { f in
            f.writePlist(["CFBundleIdentifier": "com.example.ios", "CFBundleDevelopmentRegion": "en"], to: "themes/apps/Phone.app/Info.plist", binary: true)
            f.looseImage("themes/apps/Phone.app/phone@2x.png")
            f.write("\"hello\" = \"Hello from the phone\";", to: "themes/apps/Phone.app/en.lproj/Phone.strings")
            f.writePlist(["CFBundleIdentifier": "com.example.mac", "CFBundleDevelopmentRegion": "en"], to: "themes/apps/Desk.app/Contents/Info.plist")
            f.looseImage("themes/apps/Desk.app/Contents/Resources/desk.png")
            f.looseImage("themes/apps/Desk.app/Contents/MacOS/not-a-resource.png")
            try? Self.compileCatalog(f, to: "themes/apps/Desk.app/Contents/Resources/Assets.car", scales: [1, 2], idiom: "universal")
            f.writePlist(["CFBundleIdentifier": "com.example.kit"], to: "themes/apps/Kit.framework/Versions/A/Resources/Info.plist")
            f.looseImage("themes/apps/Kit.framework/Versions/A/Resources/kit.png")
            try? FileManager.default.createSymbolicLink(atPath: f.path("themes/apps/Kit.framework/Versions/Current"), withDestinationPath: "A")
            try? FileManager.default.createSymbolicLink(atPath: f.path("themes/apps/Kit.framework/Resources"), withDestinationPath: "Versions/Current/Resources")
            f.writePlist(["CFBundleIdentifier": "com.example.plugin"], to: "themes/apps/Filter.bundle/Contents/Info.plist")
            f.looseImage("themes/apps/Filter.bundle/Contents/Resources/filter.gif")
        })
        for (name, file) in [("phone", "Phone.app/phone@2x.png"), ("desk", "Desk.app/Contents/Resources/desk.png"),
                             ("kit", "Kit.framework/Resources/kit.png"), ("filter", "Filter.bundle/Contents/Resources/filter.gif")] {
            let response = try api.request("/themes/apps/images/\(name).json?scale=2")
            #expect(response.status == 200, "\(name): \(response.text)")
            #expect(try response.decode(ImageMetadataBody.self).chosen.file == "apps/\(file)")
        }
        #expect(try api.request("/themes/apps/images/not-a-resource").status == 404, "Contents/MacOS is not a resources folder")
        let catalogIcon = try api.request("/themes/apps/images/icon.json?scale=2").decode(ImageMetadataBody.self)
        #expect(catalogIcon.source.path == "apps/Desk.app/Contents/Resources/Assets.car")
        let detail = try api.request("/themes/apps").decode(ThemeDetailBody.self)
        #expect(Set(detail.sources.compactMap(\.identifier)) == ["com.example.ios", "com.example.mac", "com.example.kit", "com.example.plugin"])
        #expect(detail.sources.map(\.kind) == ["car", "bundle", "bundle", "bundle", "bundle"])
        #expect(detail.files == ["desk", "filter", "kit", "phone"])
        let listed = try api.request("/themes").decode(ThemeListBody.self).themes.first { $0.name == "apps" }
        #expect(listed?.files == 4)
        #expect(detail.strings == ["Phone"])
        let hello = try api.request("/themes/apps/strings/Phone/hello?lang=de").decode(StringBody.self)
        #expect(hello.value == "Hello from the phone")
        #expect(hello.localization == "en")
    }

    /// A compiled catalog with `icon` at the given scales and idiom.
    static func compileCatalog(_ f: ThemeFixtures, to relative: String, scales: [Int], idiom: String) throws {
        var images: [[String: Any]] = []
        for scale in scales {
            let bitmap = Bitmap(width: scale, height: scale, layout: .bgra8, pixels: Array(repeating: 0x80, count: scale * scale * 4))
            f.write(PNG.encode(bitmap), to: "src/\(relative).xcassets/icon.imageset/icon@\(scale)x.png")
            images.append(["idiom": idiom, "scale": "\(scale)x", "filename": "icon@\(scale)x.png"])
        }
        f.writeJSON(["images": images], to: "src/\(relative).xcassets/icon.imageset")
        f.makeDirectory((relative as NSString).deletingLastPathComponent)
        try CatalogCompiler().compile(f.path("src/\(relative).xcassets"), to: f.path(relative))
    }

    @Test("T5 and T6: inside a theme the catalog answers before loose files; loose files answer what it cannot")
    func catalogBeforeLooseFiles() throws {
        let api = try APIFixture(themes: { f in
            try? Self.compileCatalog(f, to: "themes/t5/Assets.car", scales: [1], idiom: "universal")
            f.looseImage("themes/t5/icon@2x.png")
            try? Self.compileCatalog(f, to: "themes/t6/Assets.car", scales: [2], idiom: "iphone")
            f.looseImage("themes/t6/icon@2x.png")
        })
        let t5 = try api.request("/themes/t5/images/icon.json?idiom=phone&scale=2").decode(ImageMetadataBody.self)
        #expect(t5.source.path == "t5/Assets.car")
        #expect(t5.chosen.scale == 1)
        let t6 = try api.request("/themes/t6/images/icon.json?idiom=pad&scale=2").decode(ImageMetadataBody.self)
        #expect(t6.chosen.file == "t6/icon@2x.png")
        let t6phone = try api.request("/themes/t6/images/icon.json?idiom=phone&scale=2").decode(ImageMetadataBody.self)
        #expect(t6phone.source.path == "t6/Assets.car")
    }

    @Test("a catalog inside a bundle takes the bundle's localization when the client's languages match none of its own (4.5)")
    func catalogFollowsItsBundle() throws {
        let api = try APIFixture(themes: { f in
            f.writePlist(["CFBundleDevelopmentRegion": "en"], to: "themes/t/Kit.bundle/Info.plist")
            for folder in ["en", "fr"] { f.makeDirectory("themes/t/Kit.bundle/\(folder).lproj") }
            f.imageSet("themes/t/Kit.bundle", "banner", [["scale": "1x"], ["scale": "1x", "locale": "en"], ["scale": "1x", "locale": "de"]])
        })
        func variant(_ language: String) throws -> String {
            String(decoding: try api.request("/themes/t/images/banner?lang=\(language)").body.dropFirst(8), as: UTF8.self)
        }
        #expect(try variant("de") == "variant 2", "the catalog's own match")
        #expect(try variant("ja") == "variant 1", "no match: the bundle chose en (its development region), and the catalog has en")
        #expect(try variant("fr") == "variant 0", "the bundle chose fr, which the catalog lacks: unlocalized")
        let metadata = try api.request("/themes/t/images/banner.json?lang=ja").decode(ImageMetadataBody.self)
        #expect(metadata.localization == "en")
    }

    @Test("a String Catalog (.xcstrings) serves its languages like the .lproj tables Xcode builds from it")
    func stringCatalog() throws {
        let catalog = """
            {"sourceLanguage": "en", "strings": {
              "title": {"localizations": {"en": {"stringUnit": {"state": "translated", "value": "Settings"}},
                                          "fr": {"stringUnit": {"state": "translated", "value": "Réglages"}},
                                          "de": {"stringUnit": {"state": "translated", "value": "Einstellungen"}}}},
              "Done": {"localizations": {"de": {"stringUnit": {"state": "translated", "value": "Fertig"}}}},
              "%lld items": {"localizations": {"ru": {"variations": {"plural": {
                "one": {"stringUnit": {"state": "translated", "value": "%lld элемент"}},
                "few": {"stringUnit": {"state": "translated", "value": "%lld элемента"}},
                "many": {"stringUnit": {"state": "translated", "value": "%lld элементов"}},
                "other": {"stringUnit": {"state": "translated", "value": "%lld элемента"}}}}}}}}}
            """
        let api = try APIFixture(themes: { f in
            f.writePlist(["CFBundleDevelopmentRegion": "en"], to: "themes/t/Info.plist")
            f.write(catalog, to: "themes/t/Localizable.xcstrings")
        })
        func string(_ key: String, _ languages: String) throws -> StringBody {
            try api.request("/themes/t/strings/Localizable/\(key)", headers: ["Accept-Language": languages]).decode()
        }
        #expect(try string("title", "fr-CA").value == "Réglages")
        #expect(try string("title", "de-CH, fr;q=0.5").value == "Einstellungen")
        #expect(try string("title", "ja").value == "Settings")
        let done = try string("Done", "fr")
        #expect(done.value == "Done", "missing in fr: the development region's value, the key itself")
        #expect(done.localization == "fr")
        #expect(done.fallbacks == ["localization:en"])
        let detail = try api.request("/themes/t").decode(ThemeDetailBody.self)
        #expect(detail.sources.first?.localizations == ["de", "en", "fr", "ru"])
        for (count, value) in [(1, "%lld элемент"), (3, "%lld элемента"), (5, "%lld элементов"), (21, "%lld элемент")] {
            let entry = try api.request("/themes/t/strings/Localizable/%25lld%20items?lang=ru&count=\(count)").decode(StringBody.self)
            #expect(entry.value == value, "ru \(count)")
        }
    }

    @Test("a .stringsdict entry wins over the .strings entry of the same key; its other forms are served")
    func stringsDictionary() throws {
        let rule: [String: Any] = ["NSStringLocalizedFormatKey": "%#@count@",
                                   "count": ["NSStringFormatSpecTypeKey": "NSStringPluralRuleType", "one": "%d fichier", "other": "%d fichiers"]]
        let api = try APIFixture(themes: { f in
            f.writePlist(["CFBundleDevelopmentRegion": "en"], to: "themes/t/Info.plist")
            f.write("\"%d files\" = \"%d fichier(s)\";\n\"hello\" = \"Bonjour\";", to: "themes/t/fr.lproj/Localizable.strings")
            f.writePlist(["%d files": rule], to: "themes/t/fr.lproj/Localizable.stringsdict")
        })
        let table = try api.request("/themes/t/strings/Localizable?lang=fr").decode(StringTableBody.self)
        #expect(table.strings == ["%d files": "%d fichiers", "hello": "Bonjour"])
        // With a count, the form French uses for it (0 and 1 are "one" in French).
        for (count, value) in [(0, "%d fichier"), (1, "%d fichier"), (2, "%d fichiers")] {
            let entry = try api.request("/themes/t/strings/Localizable/%25d%20files?lang=fr&count=\(count)").decode(StringBody.self)
            #expect(entry.value == value, "count \(count)")
            #expect(entry.forms == ["one": "%d fichier", "other": "%d fichiers"])
        }
        #expect(try api.request("/themes/t/strings/Localizable?lang=fr&count=1").decode(StringTableBody.self).strings
                == ["%d files": "%d fichier", "hello": "Bonjour"])
        #expect(try api.request("/themes/t/strings/Localizable/hello?count=-1").status == 400)
    }

    @Test("inheritance: strings and loose files fall through to the parent; the nearest theme answers")
    func inheritance() throws {
        let api = try APIFixture(themes: { f in
            f.writePlist(["CFBundleDevelopmentRegion": "en"], to: "themes/base/Info.plist")
            f.write("\"ok\" = \"OK\";\n\"cancel\" = \"Cancel\";", to: "themes/base/en.lproj/Localizable.strings")
            f.write("\"ok\" = \"D'accord\";\n\"cancel\" = \"Annuler\";", to: "themes/base/fr.lproj/Localizable.strings")
            f.looseImage("themes/base/badge.png")
            f.looseImage("themes/base/icon.png")
            f.write("{\"parent\": \"base\"}", to: "themes/brand/theme.json")
            f.writePlist(["CFBundleDevelopmentRegion": "en"], to: "themes/brand/Info.plist")
            f.write("\"ok\" = \"Let's go\";", to: "themes/brand/en.lproj/Localizable.strings")
            f.looseImage("themes/brand/icon.png")
        })
        let ok = try api.request("/themes/brand/strings/Localizable/ok?lang=en").decode(StringBody.self)
        #expect(ok.value == "Let's go")
        let cancel = try api.request("/themes/brand/strings/Localizable/cancel?lang=fr").decode(StringBody.self)
        #expect(cancel.value == "Annuler")
        #expect(cancel.fallbacks == ["theme:base"])
        let table = try api.request("/themes/brand/strings/Localizable?lang=en").decode(StringTableBody.self)
        #expect(table.strings == ["ok": "Let's go", "cancel": "Cancel"])
        let icon = try api.request("/themes/brand/images/icon.json").decode(ImageMetadataBody.self)
        #expect(icon.chosen.file == "brand/icon.png")
        let badge = try api.request("/themes/brand/images/badge.json").decode(ImageMetadataBody.self)
        #expect(badge.chosen.file == "base/badge.png")
        #expect(badge.fallbacks == ["theme:base"])
        #expect(try api.request("/themes/brand/strings/Localizable/missing").status == 404)
        #expect(try api.request("/themes/brand/strings/Nope").status == 404)
    }

    @Test("a malformed Info.plist, .strings or Contents.json is reported; the rest of the theme serves")
    func brokenSources() throws {
        let (logger, log) = RecordingLogHandler.logger()
        let api = try APIFixture(logger: logger, themes: { f in
            f.write("<?xml version=\"1.0\"?><plist><dict><key>oops", to: "themes/broken/Info.plist")
            f.looseImage("themes/broken/icon.png")
            f.write("\"fine\" = \"yes\";", to: "themes/broken/en.lproj/Good.strings")
            f.write("\"a\" = \"b\"\n\"c\" = \"d\";", to: "themes/broken/en.lproj/Bad.strings")
            f.writeJSON(["colors": [["idiom": "universal", "color": ["components": ["red": "1", "green": "0", "blue": "0"]]]]],
                        to: "themes/broken/Skin.bundle/Skin.xcassets/red.colorset")
            f.write("{ not json", to: "themes/broken/Skin.bundle/Skin.xcassets/blue.colorset/Contents.json")
            f.looseImage("outside/secret.png")
            try? FileManager.default.createSymbolicLink(atPath: f.path("themes/broken/secret.png"), withDestinationPath: f.path("outside/secret.png"))
        })
        let detail = try api.request("/themes/broken").decode(ThemeDetailBody.self)
        let errors = detail.errors.joined(separator: "\n")
        #expect(detail.status == "degraded")
        #expect(errors.contains("Info.plist: not a property list"))
        #expect(errors.contains("Bad.strings: line 2: expected ';' after the entry for \"a\""))
        #expect(errors.contains("blue.colorset/Contents.json: not valid JSON"))
        #expect(errors.contains("secret.png: link leaves the theme folder"))
        for problem in ["Info.plist: not a property list", "Bad.strings: line 2", "blue.colorset/Contents.json", "secret.png: link leaves"] {
            #expect(log.all.contains { $0.hasPrefix("warning theme source problem") && $0.contains(problem) }, "\(problem) is logged")
        }
        #expect(try api.request("/themes/broken/images/icon").status == 200)
        #expect(try api.request("/themes/broken/images/secret").status == 404)
        #expect(try api.request("/themes/broken/strings/Good/fine").decode(StringBody.self).value == "yes")
        #expect(try api.request("/themes/broken/strings/Bad/a").status == 404)
        #expect(try api.request("/themes/broken/colors/red").status == 200)
    }

    @Test("names compare after NFC: a file named in NFD (as HFS+ wrote it) answers an NFC request, and the other way round")
    func unicodeNormalization() throws {
        let decomposed = "cafe\u{301}", composed = "caf\u{E9}"
        let api = try APIFixture(themes: { f in
            f.looseImage("themes/t/\(decomposed).png")
            f.looseImage("themes/t/\(composed)-2.png")
        })
        #expect(try api.request("/themes/t/images/caf%C3%A9").status == 200, "NFC request, NFD file")
        #expect(try api.request("/themes/t/images/cafe%CC%81-2").status == 200, "NFD request, NFC file")
    }

    @Test("names with '..', backslashes or encoded separators are rejected or stay inside the theme")
    func hostileNames() throws {
        let api = try APIFixture(themes: { f in f.looseImage("themes/t/icon.png") })
        #expect(try api.request("/themes/t/images/../../etc/passwd").status == 400)
        #expect(try api.request("/themes/t/images/%2E%2E/icon").status == 400)
        #expect(try api.request("/themes/t/images/a%5Cb").status == 400)
        #expect(try api.request("/themes/t/strings/..%2F..%2Fx/y").status == 400)
    }

    @Test("Accept-Language: q-values order, ties keep their order, * and q=0 are dropped")
    func acceptLanguage() {
        #expect(AcceptLanguage.parse("fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5") == ["fr-CH", "fr", "en", "de"])
        #expect(AcceptLanguage.parse("en;q=0.5, fr, de") == ["fr", "de", "en"])
        #expect(AcceptLanguage.parse("ja;q=0, it;q=bogus, es") == ["es"])
        #expect(AcceptLanguage.parse("") == [])
    }
}
