import Sharding
import Testing

@Suite("Shard: which replica group serves which theme")
struct ShardTests {
    @Test("\"N/COUNT\" is read; anything else is refused")
    func parsing() {
        #expect(Shard("2/8") == Shard(number: 2, count: 8))
        #expect(Shard("2/8")?.description == "2/8")
        #expect(Shard("1/1") != nil)
        for bad in ["", "2", "0/8", "9/8", "2/0", "-1/8", "2/8/1", " 2/8", "2 /8", "a/b", "1/1025", "２/８", "99999999999999999999/2"] {
            #expect(Shard(bad) == nil, "\(bad)")
        }
    }

    @Test("a theme's score is the number Varnish's directors.shard().key() gives for \"N:theme\" (read from varnishd 7.1)")
    func scoreMatchesVarnish() {
        #expect(Shard.score(of: "brand-0001", on: 1) == 3_726_429_342)
        #expect(Shard.score(of: "acme", on: 2) == 2_886_650_448)
        #expect(Shard.score(of: "a.b_c-d", on: 1) == 264_784_976)
    }

    @Test("the highest score owns a theme; each theme has exactly one owner among the shards")
    func ownership() throws {
        let shards = (1...4).compactMap { Shard(number: $0, count: 4) }
        var counts = [0, 0, 0, 0]
        for index in 0..<4000 {
            let theme = "brand-\(index)"
            let owners = shards.filter { $0.owns(theme) }
            #expect(owners.count == 1, "\(theme)")
            let best = (1...4).max { Shard.score(of: theme, on: $0) < Shard.score(of: theme, on: $1) }
            #expect(owners.first?.number == best)
            counts[(owners.first?.number ?? 1) - 1] += 1
        }
        // Rendezvous hashing spreads names evenly: each of four shards gets about a quarter.
        #expect(counts.allSatisfy { (850...1150).contains($0) }, "\(counts)")
    }

    @Test("a kept generation of a theme (brand@43) goes with its theme, as the VCL routes it")
    func pinnedGenerationsGoWithTheirTheme() {
        let shards = (1...4).compactMap { Shard(number: $0, count: 4) }
        for index in 0..<200 {
            let theme = "brand-\(index)"
            #expect(shards.filter { $0.owns(theme) } == shards.filter { $0.owns("\(theme)@\(index + 40)") }, "\(theme)")
        }
    }

    @Test("adding a shard moves only the themes the new shard wins")
    func stableWhenGrowing() throws {
        let three = try #require(Shard(number: 1, count: 3))
        let four = try #require(Shard(number: 1, count: 4))
        var moved = 0
        for index in 0..<3000 {
            let theme = "tenant-\(index)"
            let before = three.owner(of: theme), after = four.owner(of: theme)
            if before.number != after.number {
                #expect(after.number == 4, "\(theme) moved between old shards")
                moved += 1
            }
        }
        #expect((600...900).contains(moved), "about a quarter moves to the new shard: \(moved)")
    }

    @Test("a shard holds its own themes and their ancestors, whoever owns them; a parent cycle ends the walk")
    func holdsAncestors() throws {
        let shard = try #require(Shard("1/2"))
        let names = (0..<200).map { "child-\($0)" } + ["base", "middle", "loop-a", "loop-b"]
        let parents = Dictionary(uniqueKeysWithValues: (0..<200).map { ("child-\($0)", $0 % 2 == 0 ? "middle" : "loop-a") })
            .merging(["middle": "base", "loop-a": "loop-b", "loop-b": "loop-a"]) { first, _ in first }
        let held = shard.themesToHold(among: names, parent: { parents[$0] })
        let owned = Set(names.filter(shard.owns))
        // Both kinds of child are among a shard's hundred: every ancestor comes with them.
        #expect(held == owned.union(["middle", "base", "loop-a", "loop-b"]))
        #expect(names.contains { !held.contains($0) }, "another shard's children are not held")
    }
}
