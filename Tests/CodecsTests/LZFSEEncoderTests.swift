import Foundation
@testable import Codecs
import Testing
import TestSupport

/// The LZFSE encoder, checked by decoding what it writes: with our decoder, and with Apple's
/// (the Python `lzfse` package wraps Apple's C library) when it is installed.
@Suite("LZFSE encoder")
struct LZFSEEncoderTests {
    /// Inputs of every kind the compiler meets and the corner cases of the format: empty, one
    /// byte, text, pixels with runs and gradients, incompressible noise, long zero runs (longest
    /// matches), and more sequences than one block may hold.
    static func inputs() -> [(name: String, bytes: [UInt8])] {
        var random = SplitMix(seed: 0x1F5E)
        let noise = (0..<70_000).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        let text = Array(String(repeating: "The quick brown fox jumps over the lazy dog. Pack my box with five dozen liquor jugs. ", count: 400).utf8)
        var pixels: [UInt8] = []
        for y in 0..<256 { for x in 0..<256 { pixels += [UInt8(x / 32 * 36), UInt8(y / 16 * 16), 128, x < 64 ? 0 : 255] } }
        // Short random words with repeats: many short matches, so several blocks of 10,000 sequences.
        let words = (0..<64).map { _ in (0..<5).map { _ in UInt8(truncatingIfNeeded: random.next()) } }
        let manyMatches = (0..<60_000).flatMap { _ in words[Int(random.next() % 64)] + [UInt8(truncatingIfNeeded: random.next())] }
        // Noise said twice: two sequences, so an L, M, D stream of a few bytes (Apple's decoder
        // needs 8 before the stream's end).
        let half = (0..<600).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        return [("empty", []), ("one byte", [42]), ("seven bytes", Array("abcdefg".utf8)), ("text", text), ("pixels", pixels),
                ("noise", noise), ("zeros", [UInt8](repeating: 0, count: 3_000_000)), ("many matches", manyMatches),
                ("few matches", half + half)]
    }

    @Test("what it writes decodes to the input (our decoder)")
    func roundTrip() throws {
        for (name, bytes) in Self.inputs() {
            let packed = LZFSEEncoder.compress(bytes)
            #expect(try LZFSE.decompress(packed) == bytes, "\(name)")
        }
    }

    @Test("it compresses what is compressible, and never grows noise by more than the block headers")
    func ratios() {
        let inputs = Dictionary(uniqueKeysWithValues: Self.inputs().map { ($0.name, $0.bytes) })
        func ratio(_ name: String) -> Double { Double(LZFSEEncoder.compress(inputs[name] ?? []).count) / Double(inputs[name]?.count ?? 1) }
        #expect(ratio("text") < 0.02)
        #expect(ratio("zeros") < 0.001)
        #expect(ratio("pixels") < 0.2)
        #expect(LZFSEEncoder.compress(inputs["noise"] ?? []).count <= 70_000 + 12)
        let blocks = LZFSEEncoder.compress(inputs["many matches"] ?? []).count
        #expect(blocks < (inputs["many matches"]?.count ?? 0) / 2)
    }

    @Test("the block kinds: bvx2 for compressible data, a stored bvx- block for noise, bvx$ at the end")
    func blockKinds() {
        let text = LZFSEEncoder.compress(Array(String(repeating: "abcabcabd", count: 100).utf8))
        #expect(text.prefix(4) == Array("bvx2".utf8)[...])
        #expect(text.suffix(4) == Array("bvx$".utf8)[...])
        var random = SplitMix(seed: 3)
        let noise = LZFSEEncoder.compress((0..<1000).map { _ in UInt8(truncatingIfNeeded: random.next()) })
        #expect(noise.prefix(4) == Array("bvx-".utf8)[...])
        #expect(LZFSEEncoder.compress([]) == Array("bvx-".utf8) + [0, 0, 0, 0] + Array("bvx$".utf8), "as Apple's encoder writes empty input")
    }

    @Test("Apple's decoder (Python lzfse) reads what it writes", .needsPython(["lzfse"]))
    func applesDecoderAgrees() throws {
        let folder = NSTemporaryDirectory() + "lzfse-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // The Python wrapper reports an error for any empty result, Apple's own encoding of empty
        // input included, so the empty input is left to the round-trip test.
        let inputs = Self.inputs().filter { !$0.bytes.isEmpty }
        for (index, input) in inputs.enumerated() {
            try Data(LZFSEEncoder.compress(input.bytes)).write(to: URL(fileURLWithPath: "\(folder)/\(index).lzfse"))
            try Data(input.bytes).write(to: URL(fileURLWithPath: "\(folder)/\(index).raw"))
        }
        let script = """
            import lzfse, sys, os
            folder, count = sys.argv[1], int(sys.argv[2])
            bad = []
            for i in range(count):
                try:
                    if lzfse.decompress(open(os.path.join(folder, "%d.lzfse" % i), "rb").read()) != open(os.path.join(folder, "%d.raw" % i), "rb").read():
                        bad.append((i, "differs"))
                except Exception as error:
                    bad.append((i, repr(error)))
            print("mismatches", bad)
            """
        let result = try ReferenceTools.run(["-c", script, folder, String(inputs.count)])
        #expect(result.status == 0)
        #expect(result.output.contains("mismatches []"), "\(result.output)")
    }
}
