/// What name routes tell the caches between themed and its clients: how long an answer stays
/// fresh for a browser (`max-age`) and for a shared cache or CDN (`s-maxage`), and how long a
/// stale answer may be served while it is revalidated (`stale-while-revalidate`). Blobs are
/// immutable and cached for a year whatever this says.
public struct CachePolicy: Sendable, Equatable {
    public var maxAgeSeconds = 60
    public var sharedMaxAgeSeconds = 300
    public var staleWhileRevalidateSeconds = 60

    public init(maxAgeSeconds: Int = 60, sharedMaxAgeSeconds: Int = 300, staleWhileRevalidateSeconds: Int = 60) {
        (self.maxAgeSeconds, self.sharedMaxAgeSeconds, self.staleWhileRevalidateSeconds) =
            (maxAgeSeconds, sharedMaxAgeSeconds, staleWhileRevalidateSeconds)
    }

    /// `Cache-Control` of a name route's answer.
    var nameRoute: String {
        "public, max-age=\(maxAgeSeconds), s-maxage=\(sharedMaxAgeSeconds), stale-while-revalidate=\(staleWhileRevalidateSeconds)"
    }

    /// `Cache-Control` of a `/blobs/` answer: the URL names the bytes, so they never change.
    static let immutable = "public, max-age=31536000, immutable"
}
