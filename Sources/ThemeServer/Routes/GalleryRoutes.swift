import Gallery
import Hashing
import HTTPServer
import HTTPTypes

/// The web gallery (`/`, `/themes/{theme}/gallery`, `/gallery/{file}`) and the client module
/// web apps import (`/themed.js`). The files are carried in the binary; they revalidate by ETag
/// so an upgraded server is seen at once. The page allows scripts and styles from this server
/// only: names from theme files are shown as text, and even a slip could not run a script.
struct GalleryRoutes: RouteCollection {
    static let contentSecurityPolicy = "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'"

    var routes: [Route] {
        [
            .get("/", label: "gallery") { _ in try Self.serve(Gallery.page) },
            .get("/themes/{theme}/gallery", label: "gallery") { context in
                _ = try context.chain()
                return try Self.serve(Gallery.page)
            },
            .get("/gallery/{file}", label: "gallery") { context in try Self.serve(Gallery.asset(context.parameter("file"))) },
            .get("/themed.js", label: "themed.js") { _ in try Self.serve(Gallery.client) },
        ]
    }

    private static func serve(_ file: WebFile?) throws -> Response {
        guard let file else { throw APIError.notFound("no such gallery file") }
        var headers: HTTPFields = [
            .contentType: file.contentType,
            .cacheControl: "no-cache",
            .eTag: ContentResponse.etag(ContentHash.of(file.bytes)),
            HTTPField.Name("X-Content-Type-Options")!: "nosniff",
        ]
        if file.contentType.hasPrefix("text/html") { headers[HTTPField.Name("Content-Security-Policy")!] = contentSecurityPolicy }
        return Response(status: .ok, headers: headers, body: file.bytes)
    }
}
