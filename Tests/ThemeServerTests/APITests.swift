import Foundation
import Testing
import TestSupport

/// Every route of the API through a real server and real sockets.
@Suite("API", .serialized)
struct APITests {
    @Test("GET /healthz and /metrics")
    func healthAndMetrics() throws {
        let server = try ServerFixture()
        let client = try server.client()
        let health = try client.request("/healthz")
        #expect(health.status == 200)
        #expect(health.json["status"] as? String == "ok")
        let metrics = try client.request("/metrics")
        #expect(metrics.status == 200)
        #expect(metrics.headers["content-type"]?.hasPrefix("text/plain") == true)
        #expect(metrics.text.contains("themed_requests_total{route=\"healthz\",status=\"200\"} 1"))
    }

    @Test("GET /themes lists themes; GET /themes/{theme} describes one; unknown theme is a 404 JSON error")
    func themes() throws {
        let server = try ServerFixture()
        let client = try server.client()
        let list = try client.request("/themes")
        let names = (list.json["themes"] as? [[String: Any]])?.compactMap { $0["name"] as? String }
        #expect(names == ["dark", "light"])
        let detail = try client.request("/themes/light")
        #expect(detail.json["colors"] as? [String] == ["background", "primary"])
        #expect(detail.json["images"] as? [String] == ["logo"])
        let missing = try client.request("/themes/nope")
        #expect(missing.status == 404)
        #expect((missing.json["error"] as? [String: Any])?["code"] as? String == "not_found")
    }

    @Test("a colour resolves by appearance and contrast, with hex, css, traits and source")
    func colorLookup() throws {
        let server = try ServerFixture()
        let client = try server.client()
        let light = try client.request("/themes/dark/colors/primary")
        #expect(light.status == 200)
        #expect(light.json["hex"] as? String == "#E6334DFF")
        #expect(light.json["css"] as? String == "rgb(230 51 77 / 1)")
        #expect((light.json["source"] as? [String: Any])?["theme"] as? String == "dark")
        let dark = try client.request("/themes/dark/colors/primary?appearance=dark")
        #expect(dark.json["hex"] as? String == "#102030FF")
        #expect((dark.json["traits"] as? [String: Any])?["appearance"] as? String == "dark")
        let contrast = try client.request("/themes/dark/colors/primary?contrast=high")
        #expect(contrast.json["hex"] as? String == "#FF0000FF")
        #expect(try client.request("/themes/dark/colors/nothing").status == 404)
    }

    @Test("traits come from client hints; query parameters win")
    func clientHints() throws {
        let server = try ServerFixture()
        let client = try server.client()
        let hinted = try client.request("/themes/light/colors/primary", headers: ["Sec-CH-Prefers-Color-Scheme": "\"dark\""])
        #expect(hinted.json["hex"] as? String == "#102030FF")
        let overridden = try client.request("/themes/light/colors/primary?appearance=light", headers: ["Sec-CH-Prefers-Color-Scheme": "dark"])
        #expect(overridden.json["hex"] as? String == "#1A334DFF")
        let image = try client.request("/themes/light/images/logo", headers: ["Sec-CH-DPR": "2.6"])
        #expect(image.headers["x-themed-variant"]?.contains("scale=3") == true)
    }

    @Test("bad trait values are 400 naming the parameter")
    func badParameters() throws {
        let server = try ServerFixture()
        let client = try server.client()
        for (query, parameter) in [("scale=abc", "scale"), ("idiom=toaster", "idiom"), ("gamut=cmyk", "gamut"), ("contrast=max", "contrast")] {
            let response = try client.request("/themes/light/images/logo?\(query)")
            #expect(response.status == 400)
            let message = (response.json["error"] as? [String: Any])?["message"] as? String ?? ""
            #expect(message.contains("parameter \(parameter)="), "\(message)")
        }
    }

    @Test("GET /themes/{theme}/colors lists variants, or resolves every colour in one response")
    func colorList() throws {
        let server = try ServerFixture()
        let client = try server.client()
        let list = try client.request("/themes/light/colors")
        let colors = try #require(list.json["colors"] as? [[String: Any]])
        #expect(colors.map { $0["name"] as? String } == ["background", "primary"])
        #expect((colors[1]["variants"] as? [Any])?.count == 3)
        let resolved = try client.request("/themes/light/colors?appearance=dark")
        let palette = try #require(resolved.json["colors"] as? [String: [String: Any]])
        #expect(palette["primary"]?["hex"] as? String == "#102030FF")
        #expect(palette["background"]?["hex"] as? String == "#FFFFFFFF")
    }

    @Test("images: bytes with Content-Type, ETag, Cache-Control, Vary and the chosen variant; 304 on If-None-Match; HEAD")
    func images() throws {
        let server = try ServerFixture()
        let client = try server.client()
        let image = try client.request("/themes/light/images/logo?scale=2&appearance=dark")
        #expect(image.status == 200)
        #expect(image.headers["content-type"] == "image/png")
        #expect(image.text.hasSuffix("variant 3"))
        let etag = try #require(image.headers["etag"])
        #expect(image.headers["cache-control"]?.contains("max-age") == true)
        #expect(image.headers["vary"]?.contains("Sec-CH-DPR") == true)
        #expect(image.headers["x-themed-variant"]?.contains("appearance=dark") == true)

        let notModified = try client.request("/themes/light/images/logo?scale=2&appearance=dark", headers: ["If-None-Match": etag])
        #expect(notModified.status == 304)
        #expect(notModified.body.isEmpty)
        #expect(notModified.headers["etag"] == etag)

        let head = try client.request("/themes/light/images/logo?scale=2&appearance=dark", method: "HEAD")
        #expect(head.status == 200)
        #expect(head.headers["content-length"] == String(image.body.count))

        let fallback = try client.request("/themes/light/images/logo?scale=3&appearance=dark")
        #expect(fallback.text.hasSuffix("variant 3"), "dark 2x beats any 3x")
        #expect(try client.request("/themes/light/images/nothing").status == 404)
    }

    @Test("GET /themes/{theme}/images/{name}.json: the chosen variant and all variants")
    func imageMetadata() throws {
        let server = try ServerFixture()
        let client = try server.client()
        let metadata = try client.request("/themes/light/images/logo.json?scale=3")
        #expect((metadata.json["chosen"] as? [String: Any])?["scale"] as? Int == 3)
        #expect((metadata.json["variants"] as? [Any])?.count == 4)
    }

    @Test("paths with '..' are 400; other methods are 405")
    func badPaths() throws {
        let server = try ServerFixture()
        let client = try server.client()
        #expect(try client.request("/themes/light/images/../../etc/passwd").status == 400)
        #expect(try client.request("/themes/light", method: "DELETE").status == 405)
    }

    @Test("a theme with a broken source reports it and still serves the rest")
    func degradedTheme() throws {
        let server = try ServerFixture(themes: { f in
            ServerFixture.standardThemes(f)
            f.write("{ broken", to: "themes/light/Theme.xcassets/bad.colorset/Contents.json")
        })
        let client = try server.client()
        let detail = try client.request("/themes/light")
        #expect(detail.json["status"] as? String == "degraded")
        #expect((detail.json["errors"] as? [String])?.first?.contains("bad.colorset/Contents.json") == true)
        #expect(try client.request("/themes/light/colors/primary").status == 200)
    }
}
