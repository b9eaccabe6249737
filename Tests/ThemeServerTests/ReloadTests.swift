import AssetCatalog
import Foundation
import Testing
import ServiceSupport
import TestSupport
import ThemeIndex
@testable import ThemeServer
import HTTPServer
import Synchronization

/// Hot reload, change events and the active theme, with the real server and real files.
@Suite("reload and events", .serialized)
struct ReloadTests {
    static let first = "SMzig__balador-ios__Assets.car"
    static let second = "thusvill__LiveWallpaperMacOS__Assets.car"

    /// A theme `app` whose Assets.car is a copy of a corpus catalog.
    static func catalogTheme(_ f: ThemeFixtures) {
        try? FileManager.default.createDirectory(atPath: f.path("themes/app"), withIntermediateDirectories: true)
        try? FileManager.default.copyItem(atPath: Corpus.path(first), toPath: f.path("themes/app/Assets.car"))
        ServerFixture.standardThemes(f)
    }

    /// Copies `bytes` next to the target, then renames it into place, as careful writers do.
    static func publish(_ bytes: Data, to path: String) throws {
        let temporary = (path as NSString).deletingLastPathComponent + "/.incoming.tmp"
        try bytes.write(to: URL(fileURLWithPath: temporary))
        guard rename(temporary, path) == 0 else { throw ThemeError("rename failed") }
    }

    static func colorNames(of catalog: String) throws -> [String] {
        Array(Set(try AssetCatalog(path: Corpus.path(catalog)).namedColors.map(\.rendition.name))).sorted()
    }

    static func servedNames(_ client: TestClient) throws -> [String] {
        ((try client.request("/themes/app/colors").json["colors"] as? [[String: Any]]) ?? []).compactMap { $0["name"] as? String }
    }

    @Test("a reload that finds nothing changed leaves what is served as it is; one that only mends a theme.json serves the theme without its error")
    func reloadOfNothing() throws {
        let server = try ServerFixture()
        let library = server.service.library
        let epoch = library.epoch
        #expect(try server.service.reload(only: "light").changedNothing)
        #expect(library.epoch == epoch, "the same snapshot serves")

        server.fixtures.write("{\"parent\": ", to: "themes/light/theme.json")
        #expect(try server.service.reload(only: "light").errors.count == 1)
        #expect(library.current.theme(named: "light")?.error.isEmpty == false && library.epoch > epoch)
        server.fixtures.write("{}", to: "themes/light/theme.json")
        let mended = try server.service.reload(only: "light")
        #expect(mended.restatedThemes == ["light"] && mended.changedThemes.isEmpty, "the same parent, the same sources")
        #expect(library.current.theme(named: "light")?.error == "", "served without the error")
    }

    @Test("a reload of one theme reads again only what it may change: its snapshot is what a whole read of the index gives, step by step")
    func reloadOfOneTheme() throws {
        let server = try ServerFixture(themes: { f in
            ServerFixture.standardThemes(f)
            f.write(##"{"brand": {"$type": "color", "$value": "#112233"}}"##, to: "themes/base/colors.tokens.json")
            for (theme, parent) in [("brand", "base"), ("sub", "brand"), ("other", nil)] {
                f.write(parent.map { ##"{"parent": "\##($0)"}"## } ?? "{}", to: "themes/\(theme)/theme.json")
                f.write(##"{"\##(theme)": {"$type": "color", "$value": "#445566"}}"##, to: "themes/\(theme)/colors.tokens.json")
            }
            // Enough themes besides that a change of one is read again alone, as on a platform.
            for number in 1...24 { f.write(##"{"bystander": {"$type": "color", "$value": "#000000"}}"##, to: "themes/bystander\(number)/colors.tokens.json") }
        })
        let library = server.service.library
        /// Each theme as the snapshot holds it, and as a whole read of the index does.
        func described(_ themes: [ThemeInfo]) -> [String] {
            themes.map { "\($0.name) g\($0.generation) parent \($0.parent ?? "-") \($0.colorCount)/\($0.imageCount)/\($0.fileCount) "
                + "[\($0.error)] [\($0.warning)] \($0.sources.map(\.path))" }
        }
        func reload(_ theme: String, _ step: String) throws {
            let epoch = library.epoch
            let touched = try server.service.reload(only: theme).touchedThemes ?? []
            #expect(library.epoch > epoch, "\(step): a new snapshot")
            #expect(!touched.isEmpty && touched.count * 4 < library.current.themes.count, "\(step): read again alone: \(touched.sorted())")
            #expect(described(library.current.themes) == described(try library.index.reader.themes()), "\(step)")
            let found = library.current.themes.compactMap { library.current.theme(named: $0.name) }
            #expect(described(found) == described(try library.index.reader.themes()), "\(step): each found by its name")
        }
        let subColors = library.current.theme(named: "sub")?.colorCount ?? 0

        server.fixtures.write(##"{"brand": {"$type": "color", "$value": "#112233"}, "accent": {"$type": "color", "$value": "#778899"}}"##,
                              to: "themes/base/colors.tokens.json")
        try reload("base", "a colour added to base: every theme below it counts one more")
        #expect(library.current.theme(named: "sub")?.colorCount == subColors + 1)
        try FileManager.default.removeItem(atPath: server.fixtures.path("themes/brand"))
        try reload("brand", "brand's folder goes while sub inherits from it: kept, with why")
        server.fixtures.write(##"{"brand": {"$type": "color", "$value": "#112233"}, "accent": {"$type": "color", "$value": "#778899"}, "extra": {"$type": "color", "$value": "#000000"}}"##,
                              to: "themes/base/colors.tokens.json")
        try reload("base", "another colour in base: brand, kept without a folder, counts it too")

        server.fixtures.write(##"{"fresh": {"$type": "color", "$value": "#000000"}}"##, to: "themes/fresh/colors.tokens.json")
        try reload("fresh", "a new theme")
        server.fixtures.write(##"{"parent": "other"}"##, to: "themes/sub/theme.json")
        try reload("sub", "sub moves under other")
        #expect(library.current.theme(named: "sub")?.parent == "other")
        try FileManager.default.removeItem(atPath: server.fixtures.path("themes/other"))
        try reload("other", "other's folder goes while sub inherits from it: kept, with why")
        #expect(library.current.theme(named: "other")?.error.contains("sub inherits from it") == true)
        try FileManager.default.removeItem(atPath: server.fixtures.path("themes/fresh"))
        try reload("fresh", "a theme removed")
        #expect(library.current.theme(named: "fresh") == nil)
    }

    @Test("a new catalog renamed into place while clients hammer lookups: no failed request, the new content appears", .needsCorpus)
    func reloadUnderLoad() throws {
        let server = try ServerFixture(watch: true, themes: Self.catalogTheme)
        let observer = try server.client()
        #expect(try Self.servedNames(observer) == (try Self.colorNames(of: Self.first)))
        let revision = try observer.request("/themes/app").json["revision"] as? String

        let stop = Flag(), failures = Counter(), requests = Counter()
        let port = server.port
        let done = DispatchGroup()
        // Dedicated threads, so that a busy Dispatch pool cannot starve the load.
        for worker in 0..<6 {
            done.enter()
            Thread {
                defer { done.leave() }
                guard let client = try? TestClient(port: port) else { failures.add(); return }
                while !stop.isSet {
                    let path = worker % 2 == 0 ? "/themes/app/colors" : "/themes/app"
                    if (try? client.request(path).status) != 200 { failures.add() }
                    requests.add()
                }
            }.start()
        }
        #expect(waitUntil(20) { requests.value >= 30 })
        try Self.publish(Data(contentsOf: URL(fileURLWithPath: Corpus.path(Self.second))), to: server.fixtures.path("themes/app/Assets.car"))
        let expected = try Self.colorNames(of: Self.second)
        #expect(try waitUntil(10) { try Self.servedNames(observer) == expected })
        let served = requests.value
        #expect(waitUntil(20) { requests.value >= served + 30 })
        stop.set()
        done.wait()
        #expect(try Self.servedNames(observer) == expected)
        #expect((try observer.request("/themes/app").json["revision"] as? String) != revision, "new bytes, a new revision")
        #expect(failures.value == 0)
        #expect(requests.value >= 60)
    }

    @Test("a truncated catalog never replaces the serving one; a theme-error event says why", .needsCorpus)
    func corruptDrop() throws {
        let server = try ServerFixture(watch: true, themes: Self.catalogTheme)
        let events = try server.client()
        events.send("GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
        _ = try events.readUntil("retry:")
        let client = try server.client()
        let before = try Self.servedNames(client)
        // Served once, as the start-up warming would have encoded it by now on an idle machine: its
        // bytes are kept by content. (One never served nor warmed before its catalog is renamed
        // over has nothing left to decode from: the old file is gone.)
        #expect(try client.request("/themes/app/images/AppLogo?scale=2").status == 200)

        let bytes = try Data(contentsOf: URL(fileURLWithPath: Corpus.path(Self.second)))
        try Self.publish(bytes.prefix(bytes.count / 2), to: server.fixtures.path("themes/app/Assets.car"))
        let stream = try events.readUntil("event: theme-error")
        #expect(stream.contains("\"theme\":\"app\""))
        #expect(try Self.servedNames(client) == before)
        let detail = try client.request("/themes/app")
        #expect(detail.json["status"] as? String == "stale", "the last good catalog serves whole")
        #expect((detail.json["errors"] as? [String])?.contains { $0.contains("Assets.car") } == true)
        let sources = detail.json["sources"] as? [[String: Any]] ?? []
        #expect(sources.contains { $0["kept"] as? Bool == true && ($0["path"] as? String)?.hasSuffix("Assets.car") == true })
        // The old generation's image still serves.
        #expect(try client.request("/themes/app/images/AppLogo?scale=2").status == 200)
    }

    @Test("a theme.json edited in place to a parent that does not exist: the brand keeps serving from its parent, with a theme-error event and its errors saying why")
    func brokenSettingsKeepServing() throws {
        let server = try ServerFixture(watch: true) { f in
            ServerFixture.standardThemes(f)
            f.colorSet("themes/brand", "accent", [(nil, ["red": "1", "green": "0", "blue": "0"], [:])])
            f.write(#"{"parent": "light"}"#, to: "themes/brand/theme.json")
        }
        let events = try server.client()
        events.send("GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
        _ = try events.readUntil("retry:")
        let client = try server.client()
        let inherited = try client.request("/themes/brand/colors/primary")
        #expect(inherited.status == 200 && inherited.json["hex"] != nil)
        #expect(try client.request("/themes").json["themes"].flatMap { $0 as? [[String: Any]] }?.first { $0["name"] as? String == "brand" }?["colors"] as? Int == 3,
                "/themes counts what the brand answers: its accent and light's two colours")

        server.fixtures.write(#"{"parent": "ligth"}"#, to: "themes/brand/theme.json")
        let stream = try events.readUntil("event: theme-error")
        #expect(stream.contains(#""theme":"brand""#) && stream.contains("did you mean"), "\(stream)")
        let after = try client.request("/themes/brand/colors/primary")
        #expect(after.status == 200 && after.json["hex"] as? String == inherited.json["hex"] as? String, "still inheriting from light")
        let detail = try client.request("/themes/brand")
        #expect(detail.json["chain"] as? [String] == ["brand", "light"])
        #expect((detail.json["errors"] as? [String])?.contains { $0.contains(#"parent "ligth" (theme.json) is not a theme"#) } == true, "\(detail.json)")

        // A misspelt key: the same, naming the key it meant.
        server.fixtures.write(#"{"parnet": "light"}"#, to: "themes/brand/theme.json")
        _ = try events.readUntil(#"unknown key \"parnet\""#)
        #expect(try client.request("/themes/brand/colors/primary").status == 200)
    }

    @Test("in-place edits of an .xcassets folder are picked up; new theme folders start serving; removed ones answer 404")
    func folderChanges() throws {
        let server = try ServerFixture(watch: true)
        let client = try server.client()
        #expect(try client.request("/themes/light/colors/background").json["hex"] as? String == "#FFFFFFFF")
        server.fixtures.colorSet("themes/light", "background", [(nil, ["red": "0", "green": "0", "blue": "0"], [:])])
        try waitFor { try client.request("/themes/light/colors/background").json["hex"] as? String == "#000000FF" }

        server.fixtures.colorSet("themes/fresh", "primary", [(nil, ["red": "1", "green": "0", "blue": "0"], [:])])
        try waitFor { try client.request("/themes/fresh/colors/primary").status == 200 }

        try FileManager.default.removeItem(atPath: server.fixtures.path("themes/fresh"))
        try waitFor { try client.request("/themes/fresh/colors/primary").status == 404 }
    }

    @Test("bundles reload too: an edited .strings table serves its new values, a broken one keeps its old ones, a new .lproj appears")
    func bundleChanges() throws {
        let server = try ServerFixture(watch: true, themes: { f in
            f.writePlist(["CFBundleDevelopmentRegion": "en"], to: "themes/app/Info.plist")
            f.write("\"title\" = \"Title\";", to: "themes/app/en.lproj/Localizable.strings")
            f.write("\"title\" = \"Titre\";", to: "themes/app/fr.lproj/Localizable.strings")
        })
        let client = try server.client()
        func title(_ language: String) throws -> String? {
            try client.request("/themes/app/strings/Localizable/title?lang=\(language)").json["value"] as? String
        }
        #expect(try title("fr") == "Titre")
        server.fixtures.write("\"title\" = \"Le titre\";", to: "themes/app/fr.lproj/Localizable.strings")
        try waitFor { try title("fr") == "Le titre" }

        server.fixtures.write("\"title\" = \"Broken", to: "themes/app/fr.lproj/Localizable.strings")
        try waitFor { ((try client.request("/themes/app").json["errors"] as? [String]) ?? []).contains { $0.contains("string is not closed") } }
        #expect(try title("fr") == "Le titre", "a table that no longer parses keeps its entries")

        server.fixtures.write("\"title\" = \"Titel\";", to: "themes/app/de.lproj/Localizable.strings")
        try waitFor { try title("de") == "Titel" }
    }

    @Test("SSE clients get events in order; Last-Event-ID resumes from the history")
    func eventOrder() throws {
        let server = try ServerFixture()
        let subscriber = try server.client()
        subscriber.send("GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
        let head = try subscriber.readUntil("retry:")
        #expect(head.contains("Content-Type: text/event-stream"))

        server.fixtures.colorSet("themes/light", "extra", [(nil, ["red": "1", "green": "0", "blue": "0"], [:])])
        try server.service.reload()
        server.fixtures.colorSet("themes/dark", "extra", [(nil, ["red": "1", "green": "0", "blue": "0"], [:])])
        try server.service.reload()
        let stream = try subscriber.readUntil("\"theme\":\"dark\"")
        let source = server.service.events.source
        // The ids of events (the opening's id-only message says where the stream starts).
        // (A reload of the active theme also tells clients of `current` to ask for their assignment again.)
        let ids = stream.components(separatedBy: "\n\n").filter { $0.contains("event: theme-reloaded") }
            .compactMap { $0.split(separator: "\n").first { $0.hasPrefix("id: \(source)-") }.map { String($0.dropFirst(4)) } }
        let numbers = ids.compactMap { Int($0.dropFirst(source.count + 1)) }
        #expect(numbers.count == 2 && numbers[0] < numbers[1])
        #expect(stream.range(of: "\"theme\":\"light\"")?.lowerBound ?? stream.endIndex < stream.range(of: "\"theme\":\"dark\"")?.lowerBound ?? stream.startIndex)

        let resumed = try server.client()
        resumed.send("GET /events HTTP/1.1\r\nHost: x\r\nLast-Event-ID: \(ids[0])\r\n\r\n")
        let replay = try resumed.readUntil("id: \(ids[1])")
        #expect(!replay.contains("id: \(ids[0])\n"))
        #expect(replay.contains("event: theme-reloaded"))
    }

    @Test("event ids continue after a restart; an id the history no longer covers, or never gave, gets a resync event")
    func eventIDsAcrossRestarts() throws {
        let server = try ServerFixture()
        server.fixtures.colorSet("themes/light", "extra", [(nil, ["red": "1", "green": "0", "blue": "0"], [:])])
        try server.service.reload()
        let before = try #require(server.service.events.events(after: 0).last?.id)

        // The same index, as after a restart: the numbering goes on, so Last-Event-ID still means something.
        let app = try server.fixtures.restartedApplication()
        defer { app.shutdown() }
        let restarted = try #require(app.service)
        server.fixtures.colorSet("themes/dark", "extra", [(nil, ["red": "1", "green": "0", "blue": "0"], [:])])
        try restarted.reload()
        let after = try #require(restarted.events.events(after: 0).first?.id)
        #expect(after > before)
        #expect(restarted.events.source == server.service.events.source, "the same numbering, so the same ids")

        // Another server's id (a replica behind the same balancer): a resync, never its numbers read as ours.
        let other = try ServerFixture()
        let foreign = RecordingStream()
        other.service.events.subscribe(foreign, after: "\(server.service.events.source)-1")
        #expect(other.service.events.source != server.service.events.source)
        #expect(foreign.text.contains("event: resync") && foreign.text.contains("unknown event id \(server.service.events.source)-1"))

        let small = EventHub(historyLimit: 2)
        for number in 0..<5 { small.publish(.theme(.reloaded, ThemeRevision(theme: "t\(number)"))) }
        let stream = RecordingStream()
        small.subscribe(stream, after: "1")
        #expect(stream.text.contains("event: resync\ndata: {\"reason\":\"events after 1 are no longer kept\"}"))
        #expect(stream.text.contains("id: 5\n"), "the resync carries the newest id, to resume from")
        let unknown = RecordingStream()
        small.subscribe(unknown, after: "99")
        #expect(unknown.text.contains("event: resync") && unknown.text.contains("unknown event id 99"))
        let current = RecordingStream()
        small.subscribe(current, after: "3")
        #expect(!current.text.contains("resync") && current.text.contains("id: 4\n") && current.text.contains("id: 5\n"))
    }

    @Test("PUT /active switches what current means, announces it, and survives a restart")
    func activeTheme() throws {
        let server = try ServerFixture()
        let client = try server.client()
        #expect(try client.request("/active").json["theme"] as? String == "light")
        let events = try server.client()
        events.send("GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
        _ = try events.readUntil("retry:")

        #expect(try client.request("/themes/current/colors/primary").json["theme"] as? String == "light")
        let changed = try client.request("/active", method: "PUT", body: "{\"theme\":\"dark\"}")
        #expect(changed.status == 200)
        #expect(try client.request("/themes/current/colors/primary").json["theme"] as? String == "dark")
        #expect(try events.readUntil("event: active-changed").contains("\"theme\":\"dark\""))
        #expect(try client.request("/active", method: "PUT", body: "{\"theme\":\"nope\"}").status == 404)
        #expect(try client.request("/active", method: "PUT", body: "not json").status == 400)

        let app = try server.fixtures.restartedApplication()
        defer { app.shutdown() }
        #expect(app.service?.library.activeTheme == "dark")
    }

    @Test("with a token configured, PUT /active needs it")
    func activeToken() throws {
        let server = try ServerFixture(activeToken: "s3cret")
        let client = try server.client()
        #expect(try client.request("/active", method: "PUT", body: "{\"theme\":\"dark\"}").status == 401)
        #expect(try client.request("/active", method: "PUT", headers: ["Authorization": "Bearer wrong"], body: "{\"theme\":\"dark\"}").status == 401)
        #expect(try client.request("/active", method: "PUT", headers: ["Authorization": "Bearer s3cret"], body: "{\"theme\":\"dark\"}").status == 200)
    }

    func waitFor(_ condition: () throws -> Bool, sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(try waitUntil(5, condition), "not so within 5 s", sourceLocation: sourceLocation)
    }
}

final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    func set() { lock.lock(); value = true; lock.unlock() }
    var isSet: Bool { lock.lock(); defer { lock.unlock() }; return value }
}
