import Foundation
import Testing
import TestSupport
import ThemeBundle

/// Bundle layouts (lookup-rules.md 1.1), Info.plist in every format (1.2) and what a bundle's
/// resources folder yields, on folders the tests build.
@Suite("bundles on disk")
struct ResourceBundleTests {
    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    @Test("each layout finds its resources folder and Info.plist: flat, Contents, framework with and without links, Support Files")
    func layouts() throws {
        let f = ThemeFixtures()
        defer { f.remove() }
        f.writePlist(["CFBundleIdentifier": "ios.app"], to: "t/Flat.app/Info.plist")
        f.write(Self.png, to: "t/Flat.app/icon.png")
        f.writePlist(["CFBundleIdentifier": "mac.app"], to: "t/Mac.app/Contents/Info.plist", binary: true)
        f.write(Self.png, to: "t/Mac.app/Contents/Resources/icon.png")
        f.writePlist(["CFBundleIdentifier": "kit"], to: "t/Kit.framework/Versions/A/Resources/Info.plist")
        f.write(Self.png, to: "t/Kit.framework/Versions/A/Resources/icon.png")
        try FileManager.default.createSymbolicLink(atPath: f.path("t/Kit.framework/Versions/Current"), withDestinationPath: "A")
        try FileManager.default.createSymbolicLink(atPath: f.path("t/Kit.framework/Resources"), withDestinationPath: "Versions/Current/Resources")
        f.write("{ CFBundleIdentifier = unzipped; }", to: "t/Unzipped.framework/Versions/B/Resources/Info.plist")
        f.write(Self.png, to: "t/Unzipped.framework/Versions/B/Resources/icon.png")
        f.write(Self.png, to: "t/Plain/icon.png")
        f.writePlist(["CFBundleIdentifier": "classic"], to: "t/Old.bundle/Support Files/Info.plist")
        f.write(Self.png, to: "t/Old.bundle/Support Files/Resources/icon.png")

        let cases: [(String, BundleLayout.Kind, String, String?)] = [
            ("Flat.app", .flat, "Flat.app", "ios.app"),
            ("Mac.app", .contents, "Mac.app/Contents/Resources", "mac.app"),
            ("Kit.framework", .resourcesAtRoot, "Kit.framework/Resources", "kit"),
            ("Unzipped.framework", .resourcesAtRoot, "Unzipped.framework/Versions/B/Resources", "unzipped"),
            ("Plain", .flat, "Plain", nil),
            ("Old.bundle", .supportFiles, "Old.bundle/Support Files/Resources", "classic"),
        ]
        for (folder, kind, resources, identifier) in cases {
            let bundle = ResourceBundle(path: f.path("t/\(folder)"), themeRoot: f.path("t"))
            #expect(bundle.layout.kind == kind, "\(folder)")
            #expect(bundle.layout.resourcesPath == f.path("t/\(resources)"), "\(folder)")
            #expect(bundle.info.identifier == identifier, "\(folder)")
            #expect(bundle.files.map(\.name) == ["icon"], "\(folder)")
        }
        #expect(ResourceBundle(path: f.path("t/Unzipped.framework"), themeRoot: f.path("t")).problems.contains { $0.contains("no Resources link") })
    }

    @Test("Info.plist keys: development region, localizations (non-strings dropped), mixed localizations in any spelling")
    func infoPlist() {
        let f = ThemeFixtures()
        defer { f.remove() }
        f.writePlist(["CFBundleDevelopmentRegion": "fr", "CFBundleLocalizations": ["de", 3, "", "it"],
                      "CFBundleAllowMixedLocalizations": "YES"], to: "b/Info.plist")
        var info = BundleInfo(path: f.path("b"))
        info.readInfoPlist(in: f.path("b"))
        #expect(info.developmentRegion == "fr")
        #expect(info.declaredLocalizations == ["de", "it"])
        #expect(info.allowsMixedLocalizations)
        #expect(info.problem == nil)
    }

    @Test("a malformed Info.plist reads as an empty dictionary, with the reason")
    func malformedInfoPlist() {
        let f = ThemeFixtures()
        defer { f.remove() }
        f.write("<?xml version=\"1.0\"?><plist><dict><key>CFBundleIdentifier</key>", to: "b/Info.plist")
        f.write(Self.png, to: "b/icon.png")
        let bundle = ResourceBundle(path: f.path("b"), themeRoot: f.path("b"))
        #expect(bundle.info.identifier == nil)
        #expect(bundle.problems.contains { $0.contains("Info.plist: not a property list") })
        #expect(bundle.files.count == 1, "the bundle's resources are still read")
    }

    @Test("resources: global and .lproj files, sub-folders, strings tables, catalogs; nested bundles kept apart")
    func resources() throws {
        let f = ThemeFixtures()
        defer { f.remove() }
        f.write(Self.png, to: "b/icon@2x~ipad.png")
        f.write(Self.png, to: "b/Posters/poster.jpg")
        f.write(Self.png, to: "b/fr.lproj/flag.png")
        f.write("\"a\" = \"b\";", to: "b/fr.lproj/Localizable.strings")
        f.write("\"a\" = \"b\";", to: "b/Main.strings")
        f.write(Self.png, to: "b/Base.lproj/title.png")
        f.write([1, 2, 3], to: "b/Assets.car")
        f.writeJSON(["info": ["version": 1]], to: "b/Extra.xcassets")
        f.write(Self.png, to: "b/Settings.bundle/inner.png")
        f.write(Self.png, to: "b/__MACOSX/icon.png")
        f.write(Self.png, to: "b/.hidden.png")
        f.write("notes", to: "b/README.txt")
        f.write(Self.png, to: "outside/secret.png")
        try FileManager.default.createSymbolicLink(atPath: f.path("b/Leak"), withDestinationPath: f.path("outside"))

        let bundle = ResourceBundle(path: f.path("b"), themeRoot: f.path("b"))
        #expect(bundle.files.map { "\($0.locale)|\($0.name)|\($0.fileName.scale)|\($0.fileName.device)" }.sorted()
                == ["Base|title|1|", "fr|flag|1|", "|Posters/poster|1|", "|icon|2|ipad"].sorted())
        #expect(bundle.info.localizationFolders == ["Base", "fr"])
        #expect(bundle.strings.map { "\($0.locale)|\($0.table)" }.sorted() == ["fr|Localizable", "|Main"])
        #expect(bundle.catalogs == [f.path("b/Assets.car"), f.path("b/Extra.xcassets")])
        #expect(bundle.nestedBundles == [f.path("b/Settings.bundle")])
        #expect(bundle.problems.contains { $0.contains("Leak: link leaves the theme folder") })
    }

    @Test("an entry that is no link is taken where its folder is; a link is resolved: kept inside the theme, refused outside")
    func linksResolvedAlone() throws {
        let f = ThemeFixtures()
        defer { f.remove() }
        f.write(Self.png, to: "b/icon.png")
        f.write(Self.png, to: "b/Sub/mark.png")
        f.write(Self.png, to: "outside/secret.png")
        let links = FileManager.default
        try links.createSymbolicLink(atPath: f.path("b/alias.png"), withDestinationPath: f.path("b/icon.png"))
        try links.createSymbolicLink(atPath: f.path("b/leak.png"), withDestinationPath: f.path("outside/secret.png"))
        try links.createSymbolicLink(atPath: f.path("b/Out"), withDestinationPath: f.path("outside"))
        try links.createSymbolicLink(atPath: f.path("b/Sub/Up"), withDestinationPath: "..")

        let bundle = ResourceBundle(path: f.path("b"), themeRoot: f.path("b"))
        #expect(bundle.files.map(\.name).sorted() == ["Sub/mark", "alias", "icon"], "a link back up is walked once")
        #expect(bundle.problems.sorted() == ["\(f.path("b/Out")): link leaves the theme folder; ignored",
                                             "\(f.path("b/leak.png")): link leaves the theme folder; ignored"])
    }

    @Test("a path's links resolve as Foundation resolves them: chains, relative links, links to folders above; a dangling link or a missing path as far as it goes; a FIFO is not opened")
    func resolvedPaths() throws {
        let f = ThemeFixtures()
        defer { f.remove() }
        f.write("{}", to: "real/theme/Contents.json")
        let links = FileManager.default
        try links.createSymbolicLink(atPath: f.path("absolute"), withDestinationPath: f.path("real/theme"))
        try links.createSymbolicLink(atPath: f.path("real/relative"), withDestinationPath: "theme")
        try links.createSymbolicLink(atPath: f.path("chain"), withDestinationPath: "real/relative")
        try links.createSymbolicLink(atPath: f.path("real/theme/up"), withDestinationPath: "../..")
        try links.createSymbolicLink(atPath: f.path("dangling"), withDestinationPath: "nowhere/at/all")
        #expect(mkfifo(f.path("fifo"), 0o600) == 0)
        let root = URL(fileURLWithPath: f.root).resolvingSymlinksInPath().path
        let cases: [(String, String)] = [
            ("absolute/Contents.json", "real/theme/Contents.json"), ("chain", "real/theme"), ("chain/", "real/theme"),
            ("real/theme/up/chain/Contents.json", "real/theme/Contents.json"), ("real//theme/./Contents.json", "real/theme/Contents.json"),
            ("fifo", "fifo"), ("missing/file.json", "missing/file.json"),
        ]
        for (path, expected) in cases {
            #expect(ThemePaths.resolved(f.path(path)) == "\(root)/\(expected)", "\(path)")
            #expect(ThemePaths.resolved(f.path(path)) == URL(fileURLWithPath: f.path(path)).resolvingSymlinksInPath().path, "as Foundation: \(path)")
        }
        #expect(ThemePaths.resolved(f.path("dangling")) == URL(fileURLWithPath: f.path("dangling")).resolvingSymlinksInPath().path)
        #expect(ThemePaths.stays(f.path("real/theme/up/chain"), inside: "\(root)/real"))
        #expect(!ThemePaths.stays(f.path("real/theme/up/absolute/up/fifo"), inside: "\(root)/real"), "the FIFO is outside, whatever the path says")
    }

    @Test("a link back to an enclosing folder is walked once, not until the depth cap")
    func linkLoops() throws {
        let f = ThemeFixtures()
        defer { f.remove() }
        f.write(Self.png, to: "b/icon.png")
        f.write(Self.png, to: "b/Art/poster.png")
        try FileManager.default.createSymbolicLink(atPath: f.path("b/Art/again"), withDestinationPath: "..")
        let bundle = ResourceBundle(path: f.path("b"), themeRoot: f.path("b"))
        #expect(bundle.files.map(\.name).sorted() == ["Art/poster", "icon"])
    }

    @Test("an iOS app wrapped for the Mac is read through its WrappedBundle link")
    func wrappedBundle() throws {
        let f = ThemeFixtures()
        defer { f.remove() }
        f.writePlist(["CFBundleIdentifier": "wrapped"], to: "W.app/Wrapper/Inner.app/Info.plist")
        f.write(Self.png, to: "W.app/Wrapper/Inner.app/icon@2x.png")
        try FileManager.default.createSymbolicLink(atPath: f.path("W.app/WrappedBundle"), withDestinationPath: "Wrapper/Inner.app")
        let bundle = ResourceBundle(path: f.path("W.app"), themeRoot: f.path("W.app"))
        #expect(bundle.info.identifier == "wrapped")
        #expect(bundle.files.map(\.name) == ["icon"])
        #expect(bundle.nestedBundles.isEmpty)
    }

    @Test("a macOS app's frameworks and plug-ins are nested bundles, found outside Resources")
    func nestedInContents() {
        let f = ThemeFixtures()
        defer { f.remove() }
        f.writePlist(["CFBundleIdentifier": "app"], to: "A.app/Contents/Info.plist")
        f.write(Self.png, to: "A.app/Contents/Resources/icon.png")
        f.write(Self.png, to: "A.app/Contents/Frameworks/Kit.framework/Resources/icon.png")
        f.write(Self.png, to: "A.app/Contents/PlugIns/P.bundle/Contents/Resources/icon.png")
        let bundle = ResourceBundle(path: f.path("A.app"), themeRoot: f.path("A.app"))
        #expect(bundle.nestedBundles.sorted() == [f.path("A.app/Contents/Frameworks/Kit.framework"), f.path("A.app/Contents/PlugIns/P.bundle")])
        #expect(bundle.files.map(\.path) == [f.path("A.app/Contents/Resources/icon.png")])
    }
}
