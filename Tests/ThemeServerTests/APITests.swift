import Foundation
import Testing
import ServiceSupport
import TestSupport

/// Every route of the API against its handler, with typed bodies. (What needs a socket, such as
/// HEAD framing, is in ConnectionTests.)
@Suite("API")
struct APITests {
    @Test("GET /healthz and /metrics: every request is counted by route and status")
    func healthAndMetrics() throws {
        let api = try APIFixture()
        let health = try api.request("/healthz")
        #expect(health.status == 200)
        struct Health: Decodable { var status: String; var themes: Int }
        #expect(try health.decode(Health.self).status == "ok")
        #expect(try api.request("/themes/light/colors/nothing").status == 404)
        let metrics = try api.request("/metrics")
        #expect(metrics.status == 200)
        #expect(metrics.header("Content-Type")?.hasPrefix("text/plain") == true)
        #expect(metrics.text.contains("themed_requests_total{route=\"healthz\",status=\"200\"} 1"))
        #expect(metrics.text.contains("themed_requests_total{route=\"color\",status=\"404\"} 1"))
    }

    @Test("/metrics reports every cache's bytes, budget, hits and evictions, the decodes and their working memory")
    func cacheMetrics() throws {
        let api = try APIFixture()
        let content = api.service.library.content
        content.waitForWarming()
        let warmed = try ["light", "dark"].map { try #require(api.request("/themes/\($0)").decode(ThemeDetailBody.self).warming) }
        #expect(warmed.allSatisfy { $0.complete && $0.done == $0.total } && warmed.map(\.total) == [4, 4])
        let storedBeforeRequests = content.blobs.statistics.blobs
        #expect(try api.request("/themes/light/images/logo?scale=2").status == 200)
        #expect(try api.request("/themes/light/images/logo?scale=2").status == 200)
        #expect(try api.request("/themes/light/images/logo?scale=3").status == 200)
        let text = try api.request("/metrics").text
        for cache in ["responses", "blobs", "catalogs", "atlases"] {
            #expect(text.contains("themed_cache_capacity_bytes{cache=\"\(cache)\"}"), "\(cache)")
        }
        #expect(text.contains("themed_cache_hits_total{cache=\"responses\"} 1"), "the repeated request was a cache hit")
        // Both themes have the same four logo files: their bytes are one content, stored once.
        #expect(text.contains("themed_decodes_total 4"), "each content was encoded once, by the warming, none by a request")
        #expect(text.contains("themed_cache_hits_total{cache=\"blobs\"} 2"), "each cold image found its blob")
        #expect(text.contains("themed_cache_entries{cache=\"blobs\"} \(storedBeforeRequests)"), "the requests stored nothing more")
        #expect(text.contains("themed_decode_memory_bytes 0"), "no decode is under way")
        #expect(text.contains("themed_decode_memory_capacity_bytes \(content.decoding.statistics.capacityBytes)"))
    }

    @Test("GET /themes lists themes; GET /themes/{theme} describes one; unknown theme is a 404 JSON error")
    func themes() throws {
        let api = try APIFixture()
        let list = try api.request("/themes").decode(ThemeListBody.self)
        #expect(list.themes.map(\.name) == ["dark", "light"])
        #expect(list.themes.first?.href == "/themes/dark")
        let detail = try api.request("/themes/light").decode(ThemeDetailBody.self)
        #expect(detail.colors == ["background", "primary"])
        #expect(detail.images == ["logo"])
        #expect(detail.chain == ["light"])
        #expect(detail.status == "ok")
        let current = try api.request("/themes/current").decode(ThemeDetailBody.self)
        #expect(current.name == "light", "current is light when no theme was made active")
        let missing = try api.request("/themes/nope")
        #expect(missing.status == 404)
        #expect(try missing.decode(ErrorBody.self).error.code == "not_found")
    }

    @Test("a colour resolves by appearance and contrast, with hex, css, traits and source")
    func colorLookup() throws {
        let api = try APIFixture()
        let light = try api.request("/themes/dark/colors/primary").decode(ColorBody.self)
        #expect(light.hex == "#E6334DFF")
        #expect(light.css == "rgb(230 51 77 / 1)")
        #expect(light.source.theme == "dark")
        let dark = try api.request("/themes/dark/colors/primary?appearance=dark").decode(ColorBody.self)
        #expect(dark.hex == "#102030FF")
        #expect(dark.traits.appearance == "dark")
        let contrast = try api.request("/themes/dark/colors/primary?contrast=high").decode(ColorBody.self)
        #expect(contrast.hex == "#FF0000FF")
        #expect(try api.request("/themes/dark/colors/nothing").status == 404)
    }

    @Test("traits come from client hints; query parameters win")
    func clientHints() throws {
        let api = try APIFixture()
        let hinted = try api.request("/themes/light/colors/primary", headers: ["Sec-CH-Prefers-Color-Scheme": "\"dark\""])
        #expect(try hinted.decode(ColorBody.self).hex == "#102030FF")
        let overridden = try api.request("/themes/light/colors/primary?appearance=light", headers: ["Sec-CH-Prefers-Color-Scheme": "dark"])
        #expect(try overridden.decode(ColorBody.self).hex == "#1A334DFF")
        let image = try api.request("/themes/light/images/logo", headers: ["Sec-CH-DPR": "2.6"])
        #expect(image.header("X-Themed-Variant")?.contains("scale=3") == true)
    }

    @Test("the response cache keys on the trait headers: the same target with other hints gets its own answer")
    func cacheKeysOnHints() throws {
        let api = try APIFixture()
        let plain = try api.request("/themes/light/colors/primary").decode(ColorBody.self)
        let hinted = try api.request("/themes/light/colors/primary", headers: ["Sec-CH-Prefers-Color-Scheme": "dark"]).decode(ColorBody.self)
        let again = try api.request("/themes/light/colors/primary").decode(ColorBody.self)
        #expect(plain.hex == "#1A334DFF")
        #expect(hinted.hex == "#102030FF")
        #expect(again.hex == plain.hex)
    }

    @Test("bad trait values are 400 naming the parameter")
    func badParameters() throws {
        let api = try APIFixture()
        for (query, parameter) in [("scale=abc", "scale"), ("idiom=toaster", "idiom"), ("gamut=cmyk", "gamut"), ("contrast=max", "contrast")] {
            let response = try api.request("/themes/light/images/logo?\(query)")
            #expect(response.status == 400)
            let error = try response.decode(ErrorBody.self).error
            #expect(error.code == "bad_parameter")
            #expect(error.message.contains("parameter \(parameter)="), "\(error.message)")
        }
    }

    @Test("each colour of a resolved palette names the fallbacks and source its one-name lookup names, as the colours' themes and appearances alternate by name")
    func paletteProvenance() throws {
        // By name, the colours come from base, brand, base, middle, brand, brand, base, base: runs
        // of one provenance and changes between them; a7 has a dark variant, a8 has not.
        let owners = ["a1": "base", "a2": "brand", "a3": "base", "a4": "middle", "a5": "brand", "a6": "brand", "a7": "base", "a8": "base"]
        let api = try APIFixture { f in
            f.write("{\"parent\": \"middle\"}", to: "themes/brand/theme.json")
            f.write("{\"parent\": \"base\"}", to: "themes/middle/theme.json")
            f.colorSet("themes/middle", "m", [(nil, ["red": "0", "green": "0", "blue": "0"], [:])])
            for (name, theme) in owners {
                var variants: [(appearance: String?, components: [String: String], extra: [String: Any])] = [(nil, ["red": "0.5", "green": "0", "blue": "0"], [:])]
                if name == "a7" { variants.append(("dark", ["red": "0.1", "green": "0", "blue": "0"], [:])) }
                f.colorSet("themes/\(theme)", name, variants)
            }
        }
        for appearance in ["light", "dark"] {
            let palette = try api.request("/themes/brand/colors?appearance=\(appearance)").decode(PaletteBody.self)
            #expect(Set(palette.colors.keys) == Set(owners.keys).union(["m"]))
            for (name, color) in palette.colors {
                let single = try api.request("/themes/brand/colors/\(name)?appearance=\(appearance)").decode(ColorBody.self)
                #expect(color.fallbacks == single.fallbacks && color.source == single.source && color.localization == single.localization,
                        "\(appearance) \(name): \(color.fallbacks) from \(color.source.theme), the lookup's \(single.fallbacks) from \(single.source.theme)")
                #expect(color.source.theme == owners[name] ?? "middle")
            }
            if appearance == "dark" { #expect(palette.colors["a7"]?.fallbacks != palette.colors["a8"]?.fallbacks, "a7 is dark, a8 falls back to any") }
        }
    }

    @Test("GET /themes/{theme}/colors lists variants, or resolves every colour in one response")
    func colorList() throws {
        let api = try APIFixture()
        let list = try api.request("/themes/light/colors").decode(ColorListBody.self)
        #expect(list.colors.map(\.name) == ["background", "primary"])
        #expect(list.colors[1].variants.count == 3)
        let palette = try api.request("/themes/light/colors?appearance=dark").decode(PaletteBody.self)
        #expect(palette.traits.appearance == "dark")
        #expect(palette.colors["primary"]?.hex == "#102030FF")
        #expect(palette.colors["background"]?.hex == "#FFFFFFFF")
    }

    @Test("images: bytes with Content-Type, ETag, Cache-Control, Vary and the chosen variant; 304 on If-None-Match")
    func images() throws {
        let api = try APIFixture()
        let image = try api.request("/themes/light/images/logo?scale=2&appearance=dark")
        #expect(image.status == 200)
        #expect(image.header("Content-Type") == "image/png")
        #expect(image.text.hasSuffix("variant 3"))
        let etag = try #require(image.header("ETag"))
        #expect(image.header("Cache-Control")?.contains("max-age") == true)
        #expect(image.header("Vary")?.contains("Sec-CH-DPR") == true)
        #expect(image.header("X-Themed-Variant")?.contains("appearance=dark") == true)

        let notModified = try api.request("/themes/light/images/logo?scale=2&appearance=dark", headers: ["If-None-Match": etag])
        #expect(notModified.status == 304)
        #expect(notModified.body.isEmpty)
        #expect(notModified.header("ETag") == etag)
        let otherTag = try api.request("/themes/light/images/logo?scale=2&appearance=dark", headers: ["If-None-Match": "\"other\""])
        #expect(otherTag.status == 200)

        let fallback = try api.request("/themes/light/images/logo?scale=3&appearance=dark")
        #expect(fallback.text.hasSuffix("variant 3"), "dark 2x beats any 3x")
        #expect(try api.request("/themes/light/images/nothing").status == 404)
    }

    @Test("GET /themes/{theme}/images/{name}.json: the chosen variant and all variants")
    func imageMetadata() throws {
        let api = try APIFixture()
        let metadata = try api.request("/themes/light/images/logo.json?scale=3").decode(ImageMetadataBody.self)
        #expect(metadata.chosen.scale == 3)
        #expect(metadata.variants.count == 4)
        #expect(metadata.href == "/themes/light/images/logo")
    }

    @Test("paths with '..' are 400; other methods are 405; unknown paths 404")
    func badPaths() throws {
        let api = try APIFixture()
        #expect(try api.request("/themes/light/images/../../etc/passwd").status == 400)
        #expect(try api.request("/themes/light", method: .delete).status == 405)
        #expect(try api.request("/nowhere", method: .post).status == 405)
        let unknown = try api.request("/nowhere")
        #expect(unknown.status == 404)
        #expect(try unknown.decode(ErrorBody.self).error.message == "no route for /nowhere")
    }

    @Test("a theme with a broken source reports it and still serves the rest")
    func degradedTheme() throws {
        let api = try APIFixture(themes: { f in
            ServerFixture.standardThemes(f)
            f.write("{ broken", to: "themes/light/Theme.xcassets/bad.colorset/Contents.json")
        })
        let detail = try api.request("/themes/light").decode(ThemeDetailBody.self)
        #expect(detail.status == "degraded")
        #expect(detail.errors.first?.contains("bad.colorset/Contents.json") == true)
        #expect(try api.request("/themes/light/colors/primary").status == 200)
    }

    @Test("PUT /active: loopback clients only without a token; the body names a theme that exists")
    func activeTheme() throws {
        let api = try APIFixture()
        #expect(try api.request("/active", method: .put, body: #"{"theme":"dark"}"#, from: "10.0.0.5:4000").status == 403)
        #expect(try api.request("/active", method: .put, body: "not json").status == 400)
        #expect(try api.request("/active", method: .put, body: #"{"theme":"nope"}"#).status == 404)
        #expect(try api.request("/active", method: .put, body: #"{"theme":"dark"}"#).status == 200)
        #expect(try api.request("/themes/current").decode(ThemeDetailBody.self).name == "dark")
        #expect(try api.request("/active", method: .delete).status == 405)
    }
}
