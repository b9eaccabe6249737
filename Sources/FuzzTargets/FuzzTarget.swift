import AssetCatalog
import Audiences
import BinaryReading
import BOM
import Codecs
import DesignTokens
import FigmaVariables
import Foundation
import HTTPServer
import JSON
import ThemeBundle

/// A function that takes untrusted bytes the way themed does, for libFuzzer and the regression
/// tests. A target may throw (bad input is expected to be an error); it must never crash, hang or
/// allocate without bound.
public struct FuzzTarget: Sendable {
    public let name: String
    /// Which of themed's readers it exercises.
    public let summary: String
    public let run: @Sendable ([UInt8]) -> Void

    /// Every target, by name.
    public static let all: [FuzzTarget] = [
        FuzzTarget(name: "catalog", summary: "AssetCatalog: a .car file opened, and the images of its first renditions decoded") { bytes in
            guard let catalog = try? AssetCatalog(ByteSpan(copying: bytes), path: "fuzz.car") else { return }
            // Large bitmaps spend an execution in the same pixel loops a small one runs, so
            // more than 256K pixels are skipped: executions go to new paths instead.
            for rendition in catalog.renditions.prefix(8)
            where rendition.header.width.multipliedReportingOverflow(by: rendition.header.height).partialValue <= 1 << 18 {
                _ = try? catalog.image(for: rendition)
            }
            _ = catalog.legacyColors
        },
        FuzzTarget(name: "bom", summary: "BOMStore: header, block index, vars and every tree walked") { bytes in
            guard let store = try? BOMStore(ByteSpan(copying: bytes)) else { return }
            for (name, _) in store.vars.prefix(16) {
                _ = try? store.variable(name)
                _ = try? store.tree(name)?.items()
                _ = try? store.tree(name, inlineKeys: true)?.items()
            }
        },
        FuzzTarget(name: "lzfse", summary: "LZFSE decompression (bvx1, bvx2, bvxn, bvx- blocks)") { bytes in
            _ = try? LZFSE.decompress(bytes, limit: 1 << 22)
        },
        FuzzTarget(name: "lzvn", summary: "LZVN decompression") { bytes in
            // A raw LZVN stream has no size: the output buffer is the limit, allocated whole.
            _ = try? LZVN.decompress(bytes, limit: 1 << 18)
        },
        FuzzTarget(name: "zlib", summary: "zlib inflation with an output limit") { bytes in
            _ = bytes.withUnsafeBytes { try? Zlib.decompress($0, limit: 1 << 22) }
        },
        FuzzTarget(name: "png", summary: "PNG decoding, and the JPEG header reader on the same bytes") { bytes in
            let span = ByteSpan(copying: bytes)
            _ = try? PNG.decode(span)
            _ = JPEG.size(of: span)
        },
        FuzzTarget(name: "heif", summary: "the HEIF/AVIF size reader (ISO BMFF boxes: meta, pitm, iprp, ipco, ispe, ipma)") { bytes in
            _ = HEIF.size(of: ByteSpan(copying: bytes))
        },
        FuzzTarget(name: "deepmap", summary: "deepmap and deepmap2 chunks (the first two bytes pick width and rows)") { bytes in
            let (width, rows, chunk) = Self.dimensions(bytes)
            _ = try? Deepmap.decode(ByteSpan(copying: chunk), width: width, rows: rows)
        },
        FuzzTarget(name: "rle", summary: "RLE chunks (the first two bytes pick width and rows)") { bytes in
            let (width, rows, chunk) = Self.dimensions(bytes)
            _ = try? RLE.decode(ByteSpan(copying: chunk), width: width, rows: rows, bytesPerPixel: 4)
        },
        FuzzTarget(name: "palette", summary: "palette-img chunks (the first two bytes pick width and rows)") { bytes in
            let (width, rows, chunk) = Self.dimensions(bytes)
            _ = try? PaletteImage.decode(ByteSpan(copying: chunk), width: width, rows: rows)
        },
        FuzzTarget(name: "http", summary: "the HTTP/1.1 request parser") { bytes in
            let parser = RequestParser(limits: .init(requestLineBytes: 8192, headerBytes: 16384, bodyBytes: 1 << 20))
            var rest = bytes[...]
            // Pipelined requests: parse as the connection would, request after request.
            for _ in 0..<64 {
                guard case .request(let head, _, _, let consumed) = parser.parse(rest, remoteAddress: "127.0.0.1:1"), consumed > 0 else { return }
                // What the parser let through makes its Request, with every field the head has.
                var fields = 0
                head.forEachField { _, _ in fields += 1 }
                guard let request = try? head.request(), request.headers.count == fields else {
                    fatalError("a head the parser checked does not make its Request")
                }
                rest = rest.dropFirst(consumed)
            }
        },
        FuzzTarget(name: "strings", summary: ".strings tables (UTF-8 and UTF-16, comments, escapes)") { bytes in
            _ = try? StringsFile(bytes: bytes)
        },
        FuzzTarget(name: "stringsdict", summary: ".stringsdict plural tables (property lists)") { bytes in
            _ = try? StringsDictionary(bytes: bytes)
        },
        FuzzTarget(name: "xcstrings", summary: "Xcode String Catalogs (JSON)") { bytes in
            _ = try? StringCatalog(bytes: bytes)
        },
        FuzzTarget(name: "infoplist", summary: "Info.plist (XML, binary or OpenStep)") { bytes in
            var info = BundleInfo(path: "/fuzz.bundle")
            info.read(infoPlist: Data(bytes), file: "Info.plist")
        },
        FuzzTarget(name: "json", summary: "the JSON reader of token files (member order, line and column, depth cap)") { bytes in
            guard let value = try? JSONParser.parse(bytes) else { return }
            // What it reads, the writer writes, and it reads that back the same.
            guard let again = try? JSONParser.parse(value.serializedBytes()), again.serialized() == value.serialized() else {
                fatalError("a value the reader gave does not read back from what the writer writes")
            }
        },
        FuzzTarget(name: "tokens", summary: "design tokens: a token file resolved (aliases, $ref, $extends, every type)") { bytes in
            guard let root = try? JSONParser.parse(bytes) else { return }
            let set = TokenSet(sources: [TokenSource(root: root, location: TokenLocation(file: "fuzz.tokens.json", pointer: ""))])
            // A resolved token is never an alias or a pointer left unresolved.
            for token in set.tokens {
                if case .string(let text) = token.value, TokenPath(alias: text) != nil { fatalError("token \(token.path) kept an alias as its value") }
            }
        },
        FuzzTarget(name: "resolver", summary: "a resolver document, every resolution of it (files it names are empty token sets)") { bytes in
            guard let document = try? JSONParser.parse(bytes),
                  let resolver = try? TokenResolver(document: document, path: "fuzz.resolver.json", read: { _ in .object([]) }) else { return }
            for inputs in resolver.allInputs(limit: 8) { _ = resolver.tokens(for: inputs) }
        },
        FuzzTarget(name: "studio", summary: "a Tokens Studio set: its older keys, types and value forms, arithmetic and colour modifiers, resolved") { bytes in
            guard let root = try? JSONParser.parse(bytes),
                  let resolver = try? TokenResolver(tokensStudioThemes: nil, metadata: .object([("tokenSetOrder", .array(["set"]))]), sets: ["set"], read: { _ in root }) else { return }
            _ = resolver.tokens(for: [:])
        },
        FuzzTarget(name: "figma", summary: "a Figma variables answer imported (GET /v1/files/:key/variables/local): every file it writes is JSON, the same bytes twice") { bytes in
            guard let file = try? FigmaFile(bytes: bytes) else { return }
            let (once, again) = (FigmaImport(file), FigmaImport(file))
            guard once.files == again.files else { fatalError("an import wrote different bytes for the same variables") }
            for written in once.files where (try? JSONParser.parse(written.bytes)) == nil { fatalError("\(written.path) is not JSON") }
        },
        FuzzTarget(name: "alias", summary: "an alias document (PUT /aliases): rules, version ranges, locale patterns; what is kept reads back the same, and assigns") { bytes in
            guard let json = try? JSONParser.parse(bytes), let alias = try? Alias(name: "fuzz", json: json) else { return }
            // What the store keeps is the alias's own document: it must read back as the same alias.
            guard let document = try? alias.json else { fatalError("an alias has no document: \(alias)") }
            guard (try? Alias(name: "fuzz", json: document)) == alias else { fatalError("an alias does not read back as kept: \(document.serialized())") }
            let assigner = Assigner(aliases: ["fuzz": alias], generations: Dictionary(alias.themes.map { ($0, 1) }, uniquingKeysWith: { first, _ in first }))
            for query in [["client": "a"], ["client": "b", "platform": "ios", "appVersion": "5.10.1", "locale": "fr-CA", "tier": "beta"]] {
                if let client = try? Client(queryItems: query.map { ($0.key, $0.value) }) { _ = try? assigner.assign("fuzz", to: client) }
            }
        },
        FuzzTarget(name: "contentsjson", summary: "an .xcassets set's Contents.json (colour, image and data sets)") { bytes in
            guard let contents = (try? JSONSerialization.jsonObject(with: Data(bytes))) as? [String: Any] else { return }
            for kind in [XCAssets.Kind.color, .image, .data] {
                _ = XCAssets.set(contents, kind: kind, name: "fuzz", folder: "/nonexistent/fuzz.imageset")
            }
        },
    ]

    public static func named(_ name: String) -> FuzzTarget? {
        all.first { $0.name == name }
    }

    /// Codec chunks need a size: the first two bytes give width and rows (1...64 each).
    static func dimensions(_ bytes: [UInt8]) -> (width: Int, rows: Int, chunk: [UInt8]) {
        guard bytes.count >= 2 else { return (1, 1, bytes) }
        return (Int(bytes[0] % 64) + 1, Int(bytes[1] % 64) + 1, Array(bytes.dropFirst(2)))
    }
}
