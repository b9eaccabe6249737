/// A file the gallery serves: its media type and bytes.
public struct WebFile: Sendable {
    public let contentType: String
    public let bytes: [UInt8]

    init(contentType: String, text: String) {
        self.contentType = contentType
        bytes = Array(text.utf8)
    }
}

/// The web gallery and `themed.js`, kept as plain files in `web/` (no build step) and carried in
/// the binary (`scripts/embed.py`), so a packaged themed serves them without reading files.
public enum Gallery {
    /// The page for `/` and `/themes/{theme}/gallery`; its script reads which from the address.
    public static var page: WebFile? { WebFiles.all["gallery.html"] }

    /// `/themed.js`: the client module web apps import.
    public static var client: WebFile? { WebFiles.all["themed.js"] }

    /// `gallery.css`, `gallery.js`: the page's own assets, under `/gallery/`.
    public static func asset(_ name: String) -> WebFile? {
        name == "gallery.html" || name == "themed.js" ? nil : WebFiles.all[name]
    }
}
