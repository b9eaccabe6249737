import BlobStore
import Foundation
import HTTPServer
import JSON
import ThemeContent
import ThemeIndex
import ThemeServer
import ThemeVocabulary

/// `themed export THEME --format bootstrap`: the answers a client would fetch first, in one file
/// an app ships in its assets, so that its first frame has the theme's colours before any
/// request (docs/CLIENTS.md, "Precedence and staleness").
///
/// Each answer is the server's own: the palette route (`/themes/{t}/colors?resolve=1`) asked of a
/// `ThemeService` over the same index, for each appearance and contrast, with its body as sent and
/// its ETag. A client that starts from it keeps the ETag, so its first request is a revalidation
/// (a 304 when the theme has not changed since the export).
enum Bootstrap {
    /// The appearance and contrast of each palette, as the clients' query parameters name them.
    static let cases: [(appearance: String, contrast: String)] = [("light", "normal"), ("dark", "normal"), ("light", "high"), ("dark", "high")]

    /// The file for `theme` of the themes `index` holds (its blobs beside the index, as the
    /// server keeps them).
    static func file(theme: String, index: ThemeIndex, themesDirectory: String) throws -> [UInt8] {
        var configuration = ThemeServiceConfiguration(themesDirectory: themesDirectory)
        // No warming after the reload: the command exits once the file is written, and would
        // encode images it never serves.
        configuration.content = ContentStore(blobs: try BlobStore(directory: FilePaths.directory(of: index.databasePath) + "/blobs"), configuration: .init(warmsAfterReload: false))
        let service = try ThemeService(index: index, configuration: configuration)
        try service.reload()
        guard let info = service.library.theme(named: theme) else { throw Startup.failure("no theme named \(theme)") }
        var palettes: [JSONValue] = []
        for (appearance, contrast) in cases {
            let target = "/themes/\(theme)/colors?resolve=1&appearance=\(appearance)" + (contrast == "high" ? "&contrast=high" : "")
            let response = service.handle(try Request(method: .get, target: target)).waitForCompletion()
            guard response.status == .ok, let etag = response.headers[.eTag] else {
                throw Startup.failure("\(target) answered \(response.status.code): \(String(decoding: response.bodyBytes(), as: UTF8.self))")
            }
            // A client that takes compressed answers (every browser, URLSession, OkHttp) is sent
            // another ETag, the encoded bytes': the bootstrap names each, and the client
            // revalidates with all of them (If-None-Match takes a list).
            var etags = [etag]
            for coding in ContentCoding.allCases {
                let encoded = service.handle(try Request(method: .get, target: target, headers: [.acceptEncoding: coding.rawValue])).waitForCompletion()
                if let other = encoded.headers[.eTag], !etags.contains(other) { etags.append(other) }
            }
            palettes.append(.object([
                ("appearance", .string(appearance)), ("contrast", .string(contrast)), ("path", .string(target)),
                ("etag", .string(etag)), ("etags", .array(etags.map(JSONValue.string))),
                ("body", .string(String(decoding: response.bodyBytes(), as: UTF8.self))),
            ]))
        }
        let document: JSONValue = .object([
            ("format", .string("themed-bootstrap")), ("version", .int(1)), ("theme", .string(theme)), ("generation", .int(Int(info.generation))),
            ("exportedAt", .string(ISO8601DateFormatter().string(from: Date()))), ("palettes", .array(palettes)),
        ])
        return Array((document.serialized(pretty: true) + "\n").utf8)
    }
}
