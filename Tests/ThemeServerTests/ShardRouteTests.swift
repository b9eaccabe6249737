import Foundation
import Sharding
import Testing
import ServiceSupport
import TestSupport

/// A replica with a `shard` setting: it indexes and serves its shard's themes, holds their
/// ancestors for them, and sends the rest to their shard with 421.
@Suite("shards")
struct ShardRouteTests {
    /// Twenty brand children of one base; the base belongs to shard 2, so shard 1 holds it only
    /// as its children's parent.
    static func platform(_ shard: Shard) throws -> (api: APIFixture, mine: [String], theirs: [String], base: String) {
        let brands = (0..<20).map { "brand-\($0)" }
        let base = try #require((0..<100).map { "base-\($0)" }.first { !shard.owns($0) })
        let api = try APIFixture(shard: shard) { f in
            f.colorSet("themes/\(base)", "primary", [(nil, ["red": "0", "green": "0", "blue": "1"], [:])])
            for (number, brand) in brands.enumerated() {
                f.write("{\"parent\": \"\(base)\"}", to: "themes/\(brand)/theme.json")
                f.colorSet("themes/\(brand)", "accent", [(nil, ["red": "\(Double(number) / 20)", "green": "0", "blue": "0"], [:])])
            }
        }
        return (api, brands.filter(shard.owns), brands.filter { !shard.owns($0) }, base)
    }

    @Test("a theme of this shard is served, through its parent held from another shard")
    func ownThemes() throws {
        let shard = try #require(Shard("1/2"))
        let (api, mine, _, base) = try Self.platform(shard)
        let brand = try #require(mine.first)
        let inherited = try api.request("/themes/\(brand)/colors/primary")
        #expect(inherited.status == 200, "\(inherited.text)")
        #expect(inherited.text.contains("\"theme\":\"\(base)\"") || inherited.text.contains(base), "the colour comes from the parent")
        #expect(try api.request("/themes/\(brand)/colors/accent").status == 200)
    }

    @Test("another shard's theme, or a parent held only for this shard's children, is 421 naming its shard; nothing of theirs is indexed")
    func otherShards() throws {
        let shard = try #require(Shard("1/2"))
        let (api, mine, theirs, base) = try Self.platform(shard)
        #expect(!theirs.isEmpty)
        // A theme no replica has: its shard's replicas answer 404, this one sends the client there.
        let unknown = try #require((0..<100).map { "nowhere-\($0)" }.first { !shard.owns($0) })
        #expect(try api.request("/themes/\(try #require((0..<100).map { "nowhere-\($0)" }.first(where: shard.owns)))/colors").status == 404)
        for path in ["/themes/\(theirs[0])/colors/accent", "/themes/\(theirs[0])", "/themes/\(base)/colors/primary", "/themes/\(unknown)/colors"] {
            let response = try api.request(path)
            let theme = path.split(separator: "/")[1]
            #expect(response.status == 421, "\(path): \(response.status)")
            #expect(response.header("Themed-Shard") == shard.owner(of: String(theme)).description, "\(path)")
            #expect(response.header("Cache-Control") == "no-store")
            #expect(response.text.contains("other_shard"))
        }
        // The list is this shard's own themes; the index holds those and the parent, no more.
        struct List: Decodable { struct Theme: Decodable { let name: String }; let themes: [Theme] }
        #expect(Set(try api.request("/themes").decode(List.self).themes.map(\.name)) == Set(mine))
        #expect(Set(api.service.library.themes.map(\.name)) == Set(mine + [base]))
    }

    @Test("`current` is the active theme: served when this shard owns it, 421 naming its shard when not")
    func currentTheme() throws {
        let shard = try #require(Shard("1/2"))
        let (api, mine, _, base) = try Self.platform(shard)
        let brand = try #require(mine.first)
        #expect(try api.request("/active", method: .put, body: "{\"theme\": \"\(brand)\"}").status == 200)
        #expect(try api.request("/themes/current/colors/primary").status == 200)
        #expect(try api.request("/active", method: .put, body: "{\"theme\": \"\(base)\"}").status == 200)
        let elsewhere = try api.request("/themes/current/colors/primary")
        #expect(elsewhere.status == 421 && elsewhere.header("Themed-Shard") == "2/2")
    }

    @Test("PUT /active for a theme only another shard holds is 421 naming it; the store's switch to one is followed (current leads there)")
    func activeElsewhere() throws {
        let shard = try #require(Shard("1/2"))
        let (api, _, theirs, _) = try Self.platform(shard)
        let other = try #require(theirs.first)
        let refused = try api.request("/active", method: .put, body: "{\"theme\": \"\(other)\"}")
        #expect(refused.status == 421 && refused.header("Themed-Shard") == "2/2")
        // A cluster's switch arrives from the store whichever shard owns the theme.
        api.service.applyActive(other)
        #expect(api.service.library.activeTheme == other)
        #expect(try api.request("/themes/current/colors/accent").header("Themed-Shard") == "2/2")
        #expect(try api.request("/themes/\(other)/colors/accent").status == 421)
    }
}
