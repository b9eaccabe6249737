import HTTPServer
import Hashing
import ThemeContent

/// `GET /blobs/{hash}` (an extension may follow the hash): stored bytes by their SHA-256,
/// immutable. Name routes point here with `Content-Location`, so a client or CDN can keep the
/// bytes forever and switch content by switching URLs.
struct BlobRoutes: RouteCollection {
    let library: ThemeLibrary

    var routes: [Route] {
        [.get("/blobs/{name}", label: "blob") { try blob($0) }]
    }

    private func blob(_ context: RequestContext) throws -> Response {
        let name = context.parameter("name")
        guard let digest = Digest(hex: name.split(separator: ".", maxSplits: 1).first ?? "") else {
            throw APIError.badRequest("a blob is named by the 64 hex digits of its SHA-256, optionally with an extension: \(name)")
        }
        let store = library.content
        if let blob = store.verifiedBlob(digest) { return ContentResponse.make(.init(blob), cacheControl: CachePolicy.immutable) }
        return Response(deferred: { complete in
            store.loadBlob(digest) { result in
                switch result {
                case .success(let content): complete(ContentResponse.make(content, cacheControl: CachePolicy.immutable))
                case .failure: complete(APIError.notFound("no blob \(digest)").response)
                }
            }
        })
    }
}
