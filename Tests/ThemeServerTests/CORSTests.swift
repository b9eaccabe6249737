import HTTPServer
@testable import ThemeServer
import ServiceSupport
import Testing

/// Pages of other origins read palettes, images and events; they never reach the admin routes.
@Suite("cross-origin reads (CORS)")
struct CORSTests {
    let page = ["Origin": "https://app.example"]

    @Test("public reads answer any origin by default and expose the headers a client needs; 304s too")
    func publicReads() throws {
        let api = try APIFixture()
        let palette = try api.request("/themes/light/colors?appearance=dark", headers: page)
        #expect(palette.status == 200 && palette.header("Access-Control-Allow-Origin") == "*")
        #expect(palette.header("Access-Control-Expose-Headers")?.contains("ETag") == true)
        let etag = try #require(palette.header("ETag"))
        let revalidated = try api.request("/themes/light/colors?appearance=dark", headers: page.merging(["If-None-Match": etag]) { $1 })
        #expect(revalidated.status == 304 && revalidated.header("Access-Control-Allow-Origin") == "*")
        // A browser keeps the answer a same-origin page got (no Origin) and reuses it for a page
        // elsewhere: it must allow that page too (Chromium found this; see check-browser.py).
        #expect(try api.request("/themes/light/colors").header("Access-Control-Allow-Origin") == "*", "asked without Origin, still *")
        let events = try api.service.handle(Request(target: "/events", headers: [.origin: "https://app.example"]))
        #expect(events.headers[.accessControlAllowOrigin] == "*", "EventSource from another origin")
    }

    @Test("the admin routes never answer another origin, preflight included")
    func adminRoutes() throws {
        let api = try APIFixture()
        for target in ["/active", "/metrics", "/healthz"] {
            #expect(try api.request(target, headers: page).header("Access-Control-Allow-Origin") == nil, "\(target)")
        }
        let preflight = try api.request("/active", method: .options, headers: page.merging(["Access-Control-Request-Method": "PUT"]) { $1 })
        #expect(preflight.status == 204 && preflight.header("Access-Control-Allow-Origin") == nil)
        #expect(try api.request("/active", method: .put, headers: page, body: #"{"theme":"dark"}"#).header("Access-Control-Allow-Origin") == nil)
    }

    @Test("preflight of a public route: 204 with the methods and only the request headers themed reads")
    func preflight() throws {
        let api = try APIFixture()
        let answer = try api.request("/themes/light/colors/primary", method: .options, headers: page.merging([
            "Access-Control-Request-Method": "GET", "Access-Control-Request-Headers": "if-none-match, x-evil, last-event-id",
        ]) { $1 })
        #expect(answer.status == 204)
        #expect(answer.header("Access-Control-Allow-Origin") == "*")
        #expect(answer.header("Access-Control-Allow-Methods") == "GET, HEAD")
        #expect(answer.header("Access-Control-Allow-Headers") == "if-none-match, last-event-id")
        #expect(answer.header("Access-Control-Max-Age") == "600")
        #expect(answer.header("Allow") == "GET, HEAD, OPTIONS")
        #expect(try api.request("/nowhere", method: .options, headers: page).status == 404)
    }

    @Test("with a list of origins, only those are answered, echoed with Vary: Origin")
    func listedOrigins() throws {
        let api = try APIFixture(allowedOrigins: ["https://app.example"])
        let listed = try api.request("/themes/light/colors/primary", headers: page)
        #expect(listed.header("Access-Control-Allow-Origin") == "https://app.example")
        #expect(listed.header("Vary")?.contains("Origin") == true)
        let other = try api.request("/themes/light/colors/primary", headers: ["Origin": "https://elsewhere.example"])
        #expect(other.status == 200 && other.header("Access-Control-Allow-Origin") == nil)
        let sameOrigin = try api.request("/themes/light/colors/primary")
        #expect(sameOrigin.header("Access-Control-Allow-Origin") == nil && sameOrigin.header("Vary")?.contains("Origin") == true,
                "an answer without Origin varies by it too, so a cache does not hand it to a listed origin")
    }
}
