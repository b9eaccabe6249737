import Foundation
import ServiceSupport
import Testing

@Suite("gallery routes")
struct GalleryRouteTests {
    /// web/ in this checkout, which the binary carries (scripts/embed.py).
    static let webFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("web")

    @Test("/ and /themes/{t}/gallery serve the page with a policy that allows this server's scripts only")
    func page() throws {
        let api = try APIFixture()
        let root = try api.request("/")
        #expect(root.status == 200 && root.header("Content-Type") == "text/html; charset=utf-8")
        #expect(root.header("Content-Security-Policy")?.contains("default-src 'self'") == true)
        #expect(root.header("X-Content-Type-Options") == "nosniff")
        #expect(root.text == (try String(contentsOf: Self.webFolder.appendingPathComponent("gallery.html"), encoding: .utf8)))
        #expect(try api.request("/themes/light/gallery").text == root.text)
        #expect(try api.request("/themes/nope/gallery").status == 404)
    }

    @Test("themed.js and the gallery's assets are the files in web/, revalidated by ETag")
    func assets() throws {
        let api = try APIFixture()
        for (target, file, type) in [("/themed.js", "themed.js", "text/javascript; charset=utf-8"),
                                     ("/gallery/gallery.js", "gallery.js", "text/javascript; charset=utf-8"),
                                     ("/gallery/gallery.css", "gallery.css", "text/css; charset=utf-8")] {
            let response = try api.request(target)
            #expect(response.status == 200 && response.header("Content-Type") == type, "\(target)")
            #expect(response.text == (try String(contentsOf: Self.webFolder.appendingPathComponent(file), encoding: .utf8)),
                    "\(target) is web/\(file): run scripts/embed.py after editing it")
            let etag = try #require(response.header("ETag"))
            #expect(try api.request(target, headers: ["If-None-Match": etag]).status == 304)
        }
        #expect(try api.request("/gallery/gallery.html").status == 404, "the page has its own routes")
        #expect(try api.request("/gallery/../index.sqlite").status >= 400, "no way out of the embedded files")
    }
}
