import Foundation
import TestSupport

/// The LZFSE/LZVN vectors written by scripts/make-codec-vectors.py with Apple's encoder.
enum Vectors {
    struct Entry {
        var name: String
        var decodedLength: Int
        var sha256: String
        var blockMagics: [String]
    }

    static let directory: URL = Bundle.module.resourceURL!.appendingPathComponent("Vectors")

    static let entries: [Entry] = {
        let text = (try? String(contentsOf: directory.appendingPathComponent("vectors.tsv"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { line in
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            return Entry(name: fields[0], decodedLength: Int(fields[1]) ?? -1, sha256: fields[2],
                         blockMagics: fields[3].split(separator: ",").map(String.init))
        }
    }()

    static func bytes(_ file: String) -> [UInt8] {
        [UInt8]((try? Data(contentsOf: directory.appendingPathComponent(file))) ?? Data())
    }
}

/// Wraps bytes in an LZFSE container of one stored (`bvx-`) block, as deepmap and palette
/// streams may be.
func storedContainer(_ bytes: [UInt8]) -> [UInt8] {
    Array("bvx-".utf8) + le32(bytes.count) + bytes + Array("bvx$".utf8)
}

/// A raw LZVN stream holding `bytes` as literals only.
func literalLZVN(_ bytes: [UInt8]) -> [UInt8] {
    var stream: [UInt8] = []
    var rest = bytes[...]
    while !rest.isEmpty {
        let count = min(rest.count, 271)
        if count >= 16 {
            stream += [0xE0, UInt8(count - 16)]
        } else {
            stream.append(0xE0 | UInt8(count))
        }
        stream += rest.prefix(count)
        rest = rest.dropFirst(count)
    }
    return stream + [0x06, 0, 0, 0, 0, 0, 0, 0]
}

func le16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }
func le32(_ value: Int) -> [UInt8] { (0..<4).map { UInt8(value >> (8 * $0) & 0xFF) } }
func le64(_ value: Int) -> [UInt8] { (0..<8).map { UInt8(value >> (8 * $0) & 0xFF) } }
