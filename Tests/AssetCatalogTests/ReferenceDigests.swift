import Foundation

/// Digests that scripts/make-corpus-digests.py recorded from the reference decoders.
enum ReferenceDigests {
    struct Image {
        var position: Int
        var width: Int
        var height: Int
        var isData: Bool
        var sha256: String
    }

    struct LZFSEPayload {
        var position: Int
        var chunk: Int
        var length: Int
        var sha256: String
    }

    static let fixtures = Bundle.module.resourceURL!.appendingPathComponent("Fixtures")

    private static func rows(_ file: String) -> [[String]] {
        let text = (try? String(contentsOf: fixtures.appendingPathComponent(file), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { $0.split(separator: "\t").map(String.init) }
    }

    /// Reference images by catalog name.
    static let images: [String: [Image]] = Dictionary(grouping: rows("corpus-pixels.tsv"), by: { $0[0] }).mapValues { rows in
        rows.map { Image(position: Int($0[1]) ?? -1, width: Int($0[2]) ?? -1, height: Int($0[3]) ?? -1, isData: $0[4] == "data", sha256: $0[5]) }
    }

    /// Reference LZFSE payloads by catalog name.
    static let lzfsePayloads: [String: [LZFSEPayload]] = Dictionary(grouping: rows("corpus-lzfse.tsv"), by: { $0[0] }).mapValues { rows in
        rows.map { LZFSEPayload(position: Int($0[1]) ?? -1, chunk: Int($0[2]) ?? -1, length: Int($0[3]) ?? -1, sha256: $0[4]) }
    }
}
