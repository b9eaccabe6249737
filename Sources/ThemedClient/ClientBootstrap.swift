import Foundation

/// A bootstrap the app ships: `themed export THEME --format bootstrap` (docs/EXPORTS.md), the
/// server's own palette answers with their ETags, so the first frame has the theme's colours and
/// the first request is a revalidation (a 304 while the theme is as exported, whatever density or
/// language the device asks with: a palette's bytes do not depend on them).
extension ThemedClient {
    /// Publishes the bootstrap's palette for the client's appearance and contrast, and keeps it as
    /// the disk copy with its ETag, unless the disk copy was written after the file was exported
    /// (the disk copy is then published: it is newer). A file that is cut, is no bootstrap or is
    /// another theme's is an error, and changes nothing.
    @discardableResult
    public func loadBootstrap(_ file: Data) throws(ThemedClientError) -> ThemePalette {
        let (theme, traits, url) = state.withLock { ($0.theme, $0.traits, paletteURL($0)) }
        guard let root = (try? JSONSerialization.jsonObject(with: file)) as? [String: Any], root["format"] as? String == "themed-bootstrap" else {
            throw .bootstrap("not a themed bootstrap file (or cut short)")
        }
        guard let exported = root["theme"] as? String, exported == theme || theme == "current" else {
            throw .bootstrap("exported for theme \(root["theme"] as? String ?? "?"), the client follows \(theme)")
        }
        guard let exportedAt = (root["exportedAt"] as? String).flatMap(ISO8601DateFormatter().date(from:)) else {
            throw .bootstrap("no exportedAt time")
        }
        let appearance = traits.appearance.luminosity == .dark ? "dark" : "light", contrast = traits.appearance.highContrast ? "high" : "normal"
        guard let entry = (root["palettes"] as? [[String: Any]])?.first(where: { $0["appearance"] as? String == appearance && $0["contrast"] as? String == contrast }),
              let body = (entry["body"] as? String).map({ Data($0.utf8) }) else {
            throw .bootstrap("no palette for appearance \(appearance), contrast \(contrast)")
        }
        let answer: PaletteAnswer
        do { answer = try PaletteAnswer(json: body) } catch { throw .bootstrap("its \(appearance) palette: \(error)") }
        if let written = cache?.written(for: url), written >= exportedAt, let newer = loadCached() { return newer }
        if let cache {
            // Every encoding's ETag of the body: the server sends the one of the encoding it chose.
            let etags = (entry["etags"] as? [String]) ?? (entry["etag"] as? String).map { [$0] } ?? []
            let validator = etags.isEmpty ? nil : etags.joined(separator: ", ")
            do { try cache.store(ResponseCache.Entry(body: body, etag: validator), for: url) } catch { report(error, offline: false) }
        }
        publish(answer.palette, .cached, source: url, revisions: answer.revisions)
        return answer.palette
    }
}
