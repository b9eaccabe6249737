import Foundation
import FuzzTargets
import Testing

/// Every fuzz target on its seeds, on every input a fuzzer once crashed it with (kept under
/// Inputs/TARGET/), and on a few thousand mutations of its seeds: none may crash.
@Suite("fuzz regressions")
struct FuzzRegressionTests {
    static let targets = FuzzTarget.all.map(\.name)

    @Test("seeds and recorded crashes run clean", arguments: targets)
    func recorded(_ name: String) throws {
        let target = try #require(FuzzTarget.named(name))
        let seeds = FuzzSeeds.seeds(for: name)
        for seed in seeds { target.run(seed) }
        let folder = Bundle.module.resourcePath.map { "\($0)/Inputs/\(name)" } ?? ""
        let recorded = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
        for file in recorded {
            let data = try #require(FileManager.default.contents(atPath: "\(folder)/\(file)"))
            target.run(Array(data))
        }
        #expect(!seeds.isEmpty || ["catalog", "bom", "lzvn"].contains(name), "every target but the corpus-fed ones has seeds")
    }

    @Test("mutated seeds: flipped bytes, truncations and insertions never crash", arguments: targets)
    func mutations(_ name: String) throws {
        let target = try #require(FuzzTarget.named(name))
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15 &+ UInt64(name.utf8.count)
        func next() -> UInt64 {
            state = state &+ 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        let seeds = FuzzSeeds.seeds(for: name) + [[], [0], Array("bvx2bvx-BOMStore".utf8)]
        for round in 0..<2_000 {
            var bytes = seeds[round % seeds.count]
            for _ in 0..<(1 + Int(next() % 4)) {
                switch next() % 3 {
                case 0 where !bytes.isEmpty: bytes[Int(next() % UInt64(bytes.count))] = UInt8(truncatingIfNeeded: next())
                case 1 where !bytes.isEmpty: bytes.removeLast(Int(next() % UInt64(bytes.count)))
                default: bytes.insert(UInt8(truncatingIfNeeded: next()), at: bytes.isEmpty ? 0 : Int(next() % UInt64(bytes.count)))
                }
            }
            target.run(bytes)
        }
    }
}
