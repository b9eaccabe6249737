import HTTPServer
import HTTPTypes
import ThemeContent

/// Headers for the caches in front of themed on every name route (`/themes/{theme}/...`):
/// `Cache-Control` from the configured policy, and `Surrogate-Key` (Fastly's name) and `xkey`
/// (Varnish's) naming the theme, its ancestors and the asset, so that a CDN or Varnish can purge
/// one theme when it reloads.
///
/// Its JSON answers are also kept as blobs (in the background) and point at them with
/// `Content-Location`, as images do, so that they too have an immutable URL.
struct SharedCacheMiddleware: Middleware {
    let library: ThemeLibrary
    let policy: CachePolicy

    func respond(to request: Request, next: (Request) -> RoutedResponse) -> RoutedResponse {
        var routed = next(request)
        guard routed.cacheable else { return routed }
        let keys = surrogateKeys(request)
        routed.response = routed.response.map { [library, policy] response in
            guard response.status == .ok else { return response }
            var response = response
            response.headers[.cacheControl] = policy.nameRoute
            if let keys {
                response.headers[.surrogateKey] = keys
                response.headers[.xkey] = keys
            }
            if response.headers[.contentLocation] == nil, case .bytes = response.body, let content = ContentResponse.content(of: response) {
                response.headers[.contentLocation] = ContentResponse.blobPath(content.digest, contentType: content.contentType)
                library.content.keepInBackground(content)
            }
            return response
        }
        return routed
    }

    /// `theme:dark theme:base dark/images/flag`: each theme of the chain (a parent's reload
    /// changes its children's answers), then the asset as the path names it. Keys are tokens, so
    /// spaces and other separators in names are percent-encoded.
    private func surrogateKeys(_ request: Request) -> String? {
        let segments = request.pathSegments
        guard segments.count >= 2, segments[0] == "themes" else { return nil }
        let name = segments[1] == "current" ? (library.activeTheme ?? "current") : segments[1]
        let chain = (try? library.chain(of: name).map(\.name)) ?? [name]
        var keys = chain.map { "theme:\(Self.token($0))" }
        if segments[1] == "current" { keys.append("current") }
        keys.append(([name] + segments.dropFirst(2)).map(Self.token).joined(separator: "/"))
        return keys.joined(separator: " ")
    }

    static func token(_ text: String) -> String {
        var token = ""
        for byte in text.utf8 {
            if byte > 0x20 && byte < 0x7F && byte != UInt8(ascii: "%") && byte != UInt8(ascii: ",") && byte != UInt8(ascii: "\"") {
                token.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                token += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return token
    }
}

private extension String {
    func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
