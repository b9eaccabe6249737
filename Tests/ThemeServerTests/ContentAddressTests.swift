import BlobStore
import Codecs
import Foundation
import Hashing
import HTTPServer
import Testing
import ServiceSupport
import TestSupport
import ThemeContent
import ThemeIndex
import ThemeServer

/// Content named by its bytes: the same ETags on every machine, immutable blob URLs, nothing
/// decoded twice, compressed encodings that decode back, headers for the caches in between.
@Suite("content addressing")
struct ContentAddressTests {
    /// Every kind of answer a client or CDN caches.
    static let routes = [
        "/themes", "/themes/light", "/themes/light/colors", "/themes/light/colors?appearance=dark", "/themes/light/colors/primary",
        "/themes/light/images/logo?scale=2", "/themes/light/images/logo?scale=2&appearance=dark", "/themes/light/images/logo.json?scale=3",
        "/themes/dark/images/logo", "/themes/light/strings", "/themes/light/strings/Main?lang=de", "/themes/light/strings/Main/greeting",
    ]

    static func themes(_ f: ThemeFixtures) {
        ServerFixture.standardThemes(f)
        f.write("\"greeting\" = \"Hello\";\n", to: "themes/light/en.lproj/Main.strings")
        f.write("\"greeting\" = \"Hallo\";\n", to: "themes/light/de.lproj/Main.strings")
    }

    @Test("two servers on copies of one theme folder (other mtimes, other index history) give the same ETags on every route")
    func sameETagsEverywhere() throws {
        let first = try APIFixture(themes: Self.themes)
        let second = try APIFixture(themes: { f in
            // An index with a history of its own: other themes came and went before these.
            f.colorSet("themes/old", "gone", [(nil, ["red": "1", "green": "0", "blue": "0"], [:])])
        })
        try second.service.reload()
        try FileManager.default.removeItem(atPath: second.fixtures.path("themes/old"))
        try FileManager.default.copyItem(atPath: first.fixtures.path("themes/light"), toPath: second.fixtures.path("themes/light"))
        try FileManager.default.copyItem(atPath: first.fixtures.path("themes/dark"), toPath: second.fixtures.path("themes/dark"))
        try touchEverything(under: second.fixtures.path("themes"))
        try second.service.reload()
        for fixture in [first, second] { fixture.service.library.content.waitForWarming() }

        for route in Self.routes {
            for encoding in ["", "gzip", "br"] {
                let headers = encoding.isEmpty ? [:] : ["Accept-Encoding": encoding]
                let (a, b) = (try first.request(route, headers: headers), try second.request(route, headers: headers))
                #expect(a.status == 200 && b.status == 200, "\(route)")
                let etag = try #require(a.header("ETag"), "\(route) has an ETag")
                #expect(etag == b.header("ETag"), "\(route) \(encoding)")
                #expect(a.body == b.body, "\(route) \(encoding)")
                #expect(etag == "\"\(ContentHash.of(a.body).hex)\"", "\(route) \(encoding): the ETag is the SHA-256 of the bytes sent")
                #expect(a.header("Content-Encoding") == b.header("Content-Encoding"))
            }
        }
    }

    private func touchEverything(under folder: String) throws {
        let later = Date().addingTimeInterval(3600)
        for case let path as String in FileManager.default.enumerator(atPath: folder)?.allObjects ?? [] {
            try FileManager.default.setAttributes([.modificationDate: later], ofItemAtPath: "\(folder)/\(path)")
        }
    }

    @Test("a restart with a warm blob store decodes nothing, and serves the same bytes")
    func restartDecodesNothing() throws {
        let api = try APIFixture()
        api.service.library.content.waitForWarming()
        let before = try Self.routes.filter { $0.contains("/images/") }.map { try api.request($0).body }
        #expect(api.service.library.content.decodes > 0)

        let app = try api.fixtures.restartedApplication()
        defer { app.shutdown() }
        let restarted = try #require(app.service)
        restarted.library.content.waitForWarming()
        let after = try Self.routes.filter { $0.contains("/images/") }.map { route in
            try APIResponse(restarted.handle(Request(target: route)).waitForCompletion()).body
        }
        #expect(after == before)
        let metrics = try APIResponse(restarted.handle(Request(target: "/metrics"))).text
        #expect(metrics.contains("themed_decodes_total 0"))
    }

    @Test("the first request after a dropped image is not a decode: the change was warmed; /themes/{t} says how far")
    func warmAfterChange() throws {
        let api = try APIFixture()
        let content = api.service.library.content
        content.waitForWarming()
        api.fixtures.imageSet("themes/light", "badge", [["scale": "1x"], ["scale": "2x"]])
        try api.service.reload()
        content.waitForWarming()
        let warming = try #require(try api.request("/themes/light").decode(ThemeDetailBody.self).warming)
        #expect(warming.complete && warming.total == 6)
        let decodes = content.decodes
        #expect(try api.request("/themes/light/images/badge?scale=2").status == 200)
        #expect(content.decodes == decodes)
    }

    @Test("blobs: immutable by hash, with or without an extension; name routes point at them")
    func blobRoute() throws {
        let api = try APIFixture()
        let image = try api.request("/themes/light/images/logo?scale=2")
        let location = try #require(image.header("Content-Location"))
        #expect(location.hasPrefix("/blobs/") && location.hasSuffix(".png"))
        let blob = try api.request(location)
        #expect(blob.status == 200 && blob.body == image.body && blob.header("ETag") == image.header("ETag"))
        #expect(blob.header("Cache-Control") == "public, max-age=31536000, immutable")
        #expect(try api.request(String(location.dropLast(4))).body == image.body, "the extension is optional")
        #expect(try api.request("/blobs/nothex").status == 400)
        let png = try api.request(location, headers: ["Accept-Encoding": "gzip, br"])
        #expect(png.header("Content-Encoding") == nil && png.header("Vary") == nil, "PNGs are compressed already: sent as they are")
        #expect(try api.request("/blobs/" + String(repeating: "0", count: 64)).status == 404)

        let palette = try api.request("/themes/light/colors?appearance=dark")
        let paletteBlob = try #require(palette.header("Content-Location"))
        api.service.library.content.waitForWarming() // JSON blobs are written in the background
        #expect(try waitUntil(5) { try api.request(paletteBlob).status == 200 })
        #expect(try api.request(paletteBlob).body == palette.body)

        let metadata = try api.request("/themes/light/images/logo.json?scale=2").decode(ImageMetadataBody.self)
        #expect(metadata.chosen.blob == location && metadata.chosen.etag.map { "\"\($0)\"" } == image.header("ETag"))
        #expect(metadata.variants.allSatisfy { $0.blob?.hasPrefix("/blobs/") == true })
    }

    @Test("every encoding decodes back to the identity bytes; Vary names Accept-Encoding; q=0 refuses")
    func compression() throws {
        let api = try APIFixture(themes: { f in
            for index in 0..<120 {
                f.colorSet("themes/big", "color\(index)", [(nil, ["red": "0.\(index % 10)", "green": "0.5", "blue": "0.25"], [:]),
                                                           ("dark", ["red": "0.1", "green": "0.\(index % 7)", "blue": "0.3"], [:])])
            }
        })
        let identity = try api.request("/themes/big/colors?appearance=dark")
        #expect(identity.header("Content-Encoding") == nil && identity.header("Vary")?.contains("Accept-Encoding") == true)
        for (header, coding) in [("gzip", ContentCoding.gzip), ("br", .brotli), ("gzip;q=0.5, br;q=0.9", .brotli), ("*", .brotli),
                                 ("br;q=0, gzip", .gzip)] {
            let encoded = try api.request("/themes/big/colors?appearance=dark", headers: ["Accept-Encoding": header])
            #expect(encoded.header("Content-Encoding") == coding.rawValue, "\(header)")
            #expect(encoded.body.count * 4 < identity.body.count, "\(header): \(encoded.body.count) of \(identity.body.count)")
            #expect(try coding.decode(encoded.body, limit: 1 << 20) == identity.body, "\(header)")
            #expect(encoded.header("ETag") != identity.header("ETag"))
            #expect(encoded.header("Vary")?.contains("Accept-Encoding") == true)
        }
        let refused = try api.request("/themes/big/colors?appearance=dark", headers: ["Accept-Encoding": "gzip;q=0, br;q=0"])
        #expect(refused.header("Content-Encoding") == nil && refused.body == identity.body)
        let before = api.service.library.content.encodings
        _ = try api.request("/themes/big/colors?appearance=dark", headers: ["Accept-Encoding": "gzip", "Accept-Language": "fr"])
        #expect(api.service.library.content.encodings == before, "an encoding is made once per content")
        // A 304 for the encoded answer's own ETag.
        let gzipped = try api.request("/themes/big/colors?appearance=dark", headers: ["Accept-Encoding": "gzip"])
        let revalidated = try api.request("/themes/big/colors?appearance=dark",
                                          headers: ["Accept-Encoding": "gzip", "If-None-Match": gzipped.header("ETag") ?? ""])
        #expect(revalidated.status == 304)
        #expect(try api.request("/themes/big/colors", headers: ["Accept-Encoding": "gzip"]).header("Content-Encoding") == "gzip")
    }

    @Test("name routes tell shared caches how long, and name the theme, its parents and the asset for purging")
    func sharedCacheHeaders() throws {
        let api = try APIFixture(themes: { f in
            ServerFixture.standardThemes(f)
            f.write("{\"parent\": \"light\"}", to: "themes/brand/theme.json")
            f.colorSet("themes/brand", "accent", [(nil, ["red": "1", "green": "0", "blue": "0"], [:])])
        })
        let color = try api.request("/themes/brand/colors/primary")
        #expect(color.header("Cache-Control") == "public, max-age=60, s-maxage=300, stale-while-revalidate=60")
        #expect(color.header("Surrogate-Key") == "theme:brand theme:light brand/colors/primary")
        #expect(color.header("xkey") == color.header("Surrogate-Key"))
        let image = try api.request("/themes/light/images/logo")
        #expect(image.header("Surrogate-Key") == "theme:light light/images/logo")
        #expect(try api.request("/healthz").header("Surrogate-Key") == nil)
    }

    @Test("a corrupt blob is found on first use after a restart and rebuilt; collection keeps every referenced blob")
    func corruptionAndCollection() throws {
        let api = try APIFixture()
        api.service.library.content.waitForWarming()
        let image = try api.request("/themes/light/images/logo?scale=2")
        let original = image.body // read now: the body is sent from the pack, which is damaged below
        let blobs = api.fixtures.path("blobs")
        // Flip a byte of the image's blob on disk.
        let digest = try #require(Digest(hex: (image.header("ETag") ?? "").dropFirst().dropLast()))
        let stored = try #require(api.service.library.content.blobs.verifiedBlob(digest))
        let handle = try #require(FileHandle(forUpdatingAtPath: stored.pack.path))
        try handle.seek(toOffset: UInt64(stored.offset + 2))
        try handle.write(contentsOf: [original[2] ^ 0xFF])
        try handle.close()
        let app = try api.fixtures.restartedApplication { $0.blobGraceSeconds = 0 }
        defer { app.shutdown() }
        let restarted = try #require(app.service)
        restarted.library.content.waitForWarming()
        for route in Self.routes where route.contains("/images/logo?") || route == "/themes/dark/images/logo" {
            let response = try APIResponse(restarted.handle(Request(target: route)).waitForCompletion())
            #expect(response.status == 200 && response.header("ETag") == "\"\(ContentHash.of(response.body).hex)\"", "\(route)")
        }
        let rebuilt = try APIResponse(restarted.handle(Request(target: "/themes/light/images/logo?scale=2")).waitForCompletion())
        #expect(rebuilt.body == original)
        #expect(restarted.library.content.blobs.statistics.corrupt == 1 && restarted.library.content.decodes == 1, "the damaged blob was rebuilt, nothing else decoded")

        // Remove an image: after collection (grace zero) its blob is gone, every other stays.
        try FileManager.default.removeItem(atPath: api.fixtures.path("themes/light/Theme.xcassets/logo.imageset"))
        try FileManager.default.removeItem(atPath: api.fixtures.path("themes/dark/Theme.xcassets/logo.imageset"))
        api.fixtures.imageSet("themes/dark", "mark", [["scale": "1x"]])
        try restarted.reload()
        restarted.library.content.waitForWarming()
        let kept = try #require(try APIResponse(restarted.handle(Request(target: "/themes/dark/images/mark")).waitForCompletion()).header("Content-Location"))
        #expect(try APIResponse(restarted.handle(Request(target: kept)).waitForCompletion()).status == 200)
        let statistics = restarted.library.content.blobs.statistics
        #expect(statistics.blobs == 1, "only the referenced blob is left: \(statistics)")
    }
}
