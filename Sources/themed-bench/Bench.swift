import AssetCatalog
import BinaryReading
import Codecs
import Foundation

/// Measurements behind `make bench` (scripts/bench.py runs this beside Apple's C decoder):
///
///     themed-bench lzfse CORPUS DUMP   decode every LZFSE payload of the corpus; also write them
///                                      to DUMP so the reference decoder times the same bytes
///     themed-bench deepmap CORPUS      decode every deepmap / deepmap2 chunk
///     themed-bench catalogs CORPUS     open, enumerate and decode all catalogs
///     themed-bench lookups CORPUS      uncached trait, file and string lookups (LookupBench)
///     themed-bench coders THEMES       WebP against cwebp, and a 1024 -> 256 px downscale
///     themed-bench hotpath THEMES      parsing a request and answering it from a kept answer,
///                                      in nanoseconds per request (HotPathBench)
///     themed-bench tokens FOLDER       a 4,000-token design system (4 x 3 contexts) made in FOLDER:
///                                      resolve one context, index all, compile 2,000 colours
///     themed-bench combinations FOLDER the same tokens behind 1 and behind 6 modifiers of 5
///                                      contexts: index time, resolutions on demand, peak RSS
///     themed-bench review FOLDER THEMED  `themed check` and `themed diff` of a 4,200- and a
///                                      20,000-token system of 24 combinations: seconds, peak RSS
///     themed-bench client URL          the Swift client against a running themed: palette fetches
///                                      and switch-to-listener times (ClientBench)
///     themed-bench encode CORPUS DUMP  LZFSE-encode the decoded corpus payloads (the first 64 MB);
///                                      DUMP gets them too, for Apple's encoder to compress
///
/// Each prints one JSON object: bytes decoded, best-of-N seconds, MB/s, peak RSS.
@main
enum Bench {
    static func main() throws {
        let arguments = CommandLine.arguments
        guard arguments.count >= 3 else {
            print("usage: themed-bench lzfse|deepmap|catalogs|lookups|encode CORPUS [DUMP], or coders|hotpath THEMES")
            exit(2)
        }
        if arguments[1] == "coders" { return try CoderBench.run(themes: arguments[2]) }
        if arguments[1] == "client" { return try ClientBench.run(server: arguments[2]) }
        if arguments[1] == "hotpath" { return try HotPathBench.run(themes: arguments[2]) }
        if arguments[1] == "tokens" { return try TokenBench.run(folder: arguments[2]) }
        if arguments[1] == "combinations" { return try CombinationsBench.run(folder: arguments[2]) }
        if arguments[1] == "combinations-one" { return try CombinationsBench.measure(themes: arguments[2]) }
        if arguments[1] == "review", arguments.count > 3 { return try ReviewBench.run(folder: arguments[2], themed: arguments[3]) }
        let catalogs = try FileManager.default.contentsOfDirectory(atPath: "\(arguments[2])/car")
            .filter { $0.hasSuffix(".car") }.sorted().map { "\(arguments[2])/car/\($0)" }
        switch arguments[1] {
        case "lzfse": try lzfse(catalogs, dump: arguments.count > 3 ? arguments[3] : nil)
        case "deepmap": try deepmap(catalogs)
        case "catalogs": try wholeCatalogs(catalogs)
        case "lookups": try LookupBench.run(corpus: catalogs)
        case "encode": try encode(catalogs, dump: arguments.count > 3 ? arguments[3] : nil)
        default: print("unknown benchmark \(arguments[1])"); exit(2)
        }
    }

    /// Best of `rounds` timings of `body`, in seconds.
    static func best(_ rounds: Int, _ body: () throws -> Void) rethrows -> Double {
        var fastest = Double.infinity
        for _ in 0..<rounds {
            let start = DispatchTime.now().uptimeNanoseconds
            try body()
            fastest = min(fastest, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        }
        return fastest
    }

    static func report(_ name: String, bytes: Int, items: Int, seconds: Double) {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        print("{\"benchmark\":\"\(name)\",\"items\":\(items),\"bytes\":\(bytes),\"seconds\":\(seconds),"
              + "\"mbPerSecond\":\(Double(bytes) / seconds / 1e6),\"peakRSSMB\":\(Double(usage.ru_maxrss) / 1024)}")
    }

    /// The LZFSE containers of the corpus: CELM compression-4 chunks and RAWD version-1 data.
    static func lzfse(_ paths: [String], dump: String?) throws {
        var payloads: [ByteSpan] = []
        for path in paths {
            let catalog = try AssetCatalog(path: path)
            for rendition in catalog.renditions {
                switch rendition.content {
                case .bitmap(4): payloads += try CELM.chunks(of: rendition).map(\.data)
                case .rawData(let bytes, true): payloads.append(bytes)
                default: break
                }
            }
        }
        if let dump {
            // Records of u32 compressed length, u32 decoded length, bytes: what the C harness reads.
            var file = Data()
            for payload in payloads {
                let decodedLength = try LZFSE.decompress(payload.buffer).count
                for value in [payload.count, decodedLength] {
                    var word = UInt32(value).littleEndian
                    file.append(Data(bytes: &word, count: 4))
                }
                file.append(contentsOf: payload.buffer)
            }
            try file.write(to: URL(fileURLWithPath: dump))
        }
        var decoded = 0
        let seconds = try best(5) {
            decoded = 0
            for payload in payloads { decoded += try LZFSE.decompress(payload.buffer).count }
        }
        report("lzfse", bytes: decoded, items: payloads.count, seconds: seconds)
    }

    /// What Xcode compresses: the decoded contents of the corpus's LZFSE payloads, re-encoded.
    static func encode(_ paths: [String], dump: String?) throws {
        var inputs: [[UInt8]] = []
        var total = 0
        search: for path in paths {
            let catalog = try AssetCatalog(path: path)
            for rendition in catalog.renditions {
                guard case .bitmap(4) = rendition.content else { continue }
                for chunk in try CELM.chunks(of: rendition) {
                    let decoded = try LZFSE.decompress(chunk.data.buffer)
                    inputs.append(decoded)
                    total += decoded.count
                    if total > 64 << 20 { break search }
                }
            }
        }
        if let dump {
            var file = Data()
            for input in inputs {
                var length = UInt32(input.count).littleEndian
                file.append(Data(bytes: &length, count: 4))
                file.append(contentsOf: input)
            }
            try file.write(to: URL(fileURLWithPath: dump))
        }
        var compressed = 0
        let seconds = best(3) {
            compressed = 0
            for input in inputs { compressed += LZFSEEncoder.compress(input).count }
        }
        print("{\"benchmark\":\"encode\",\"items\":\(inputs.count),\"bytes\":\(total),\"compressedBytes\":\(compressed),"
              + "\"seconds\":\(seconds),\"mbPerSecond\":\(Double(total) / seconds / 1e6)}")
    }

    static func deepmap(_ paths: [String]) throws {
        var chunks: [(data: ByteSpan, width: Int, rows: Int)] = []
        for path in paths {
            let catalog = try AssetCatalog(path: path)
            for rendition in catalog.renditions {
                guard case .bitmap(let compression) = rendition.content, compression == 10 || compression == 11 else { continue }
                chunks += try CELM.chunks(of: rendition).map { ($0.data, rendition.header.width, $0.rows) }
            }
        }
        var decoded = 0
        let seconds = try best(3) {
            decoded = 0
            for chunk in chunks { decoded += try Deepmap.decode(chunk.data, width: chunk.width, rows: chunk.rows).pixels.count }
        }
        report("deepmap", bytes: decoded, items: chunks.count, seconds: seconds)
    }

    static func wholeCatalogs(_ paths: [String]) throws {
        var renditions = 0, pixelBytes = 0, failures = 0
        let seconds = try best(3) {
            renditions = 0; pixelBytes = 0; failures = 0
            for path in paths {
                let catalog = try AssetCatalog(path: path)
                for rendition in catalog.renditions {
                    renditions += 1
                    switch rendition.content {
                    case .bitmap, .link, .rawData:
                        do {
                            switch try catalog.image(for: rendition) {
                            case .bitmap(let bitmap): pixelBytes += bitmap.pixels.count
                            case .data(let bytes, _): pixelBytes += bytes.count
                            }
                        } catch { failures += 1 }
                    default: break
                    }
                }
            }
        }
        report("catalogs", bytes: pixelBytes, items: renditions, seconds: seconds)
        if failures > 0 { print("{\"failures\":\(failures)}") }
    }
}
