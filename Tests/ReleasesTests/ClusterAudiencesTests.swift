import Audiences
import Cluster
@testable import Releases
import Testing

/// What a replica makes of what its follower read: the assigner every `/assign` uses, and which
/// aliases' clients are told to ask again.
@Suite("cluster audiences")
struct ClusterAudiencesTests {
    static func replica(served: [String: Int64], aliases: [Alias] = [], rollouts: [Rollout] = [], active: String? = "light") -> ReplicaAudiences {
        var replica = ReplicaAudiences()
        replica.served = served
        replica.store = StoreAudiences(aliases: Dictionary(uniqueKeysWithValues: aliases.map { ($0.name, $0) }),
                                       rollouts: Dictionary(uniqueKeysWithValues: rollouts.map { ($0.theme, $0) }))
        replica.active = active
        return replica
    }

    @Test("current is the store's active theme; generations are the ones the folders serve; a rollout sends its share to the new one")
    func assigner() throws {
        let rollout = try Rollout(theme: "brand", generation: 9, previous: 7, percent: 100 / 3, seed: "9")
        let replica = Self.replica(served: ["light": 3, "brand": 7], aliases: [Alias(name: "acme", theme: "brand")], rollouts: [rollout])
        let assigner = ClusterAudiences.assigner(for: replica, defaultActive: "dark")
        #expect(assigner.aliases["current"]?.theme == "light" && assigner.generations == ["light": 3, "brand": 7])
        let generations = try (0..<3_000).map { try assigner.assign("acme", to: Client(id: "c\($0)")).generation }
        let share = Double(generations.filter { $0 == 9 }.count) / 3_000
        #expect(Set(generations) == [7, 9] && (0.30...0.37).contains(share), "\(share)")
        #expect(ClusterAudiences.assigner(for: Self.replica(served: [:], active: nil), defaultActive: "dark").aliases["current"]?.theme == "dark")
    }

    @Test("told to ask again: an alias that changed or went, and those pointing at a theme whose rollout or generation moved; no one else")
    func changes() throws {
        let acme = Alias(name: "acme", theme: "brand"), other = Alias(name: "other", theme: "light")
        let before = ClusterAudiences.assigner(for: Self.replica(served: ["light": 3, "brand": 7], aliases: [acme, other]), defaultActive: nil)
        func names(_ replica: ReplicaAudiences) -> [String] {
            ClusterAudiences.changes(from: before, to: ClusterAudiences.assigner(for: replica, defaultActive: nil)).map(\.alias)
        }
        #expect(names(Self.replica(served: ["light": 3, "brand": 7], aliases: [acme, other])).isEmpty)
        let rollout = try Rollout(theme: "brand", generation: 9, previous: 7, percent: 10, seed: "9")
        #expect(names(Self.replica(served: ["light": 3, "brand": 7], aliases: [acme, other], rollouts: [rollout])) == ["acme"])
        #expect(names(Self.replica(served: ["light": 4, "brand": 7], aliases: [acme, other])) == ["current", "other"])
        #expect(names(Self.replica(served: ["light": 3, "brand": 7], aliases: [acme])) == ["other"])
        #expect(names(Self.replica(served: ["light": 3, "brand": 7], aliases: [acme, other], active: "brand")) == ["current"])
    }
}
