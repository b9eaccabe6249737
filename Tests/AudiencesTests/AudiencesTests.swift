import Audiences
import JSON
import Testing

@Suite("app versions and ranges")
struct VersionTests {
    @Test("versions compare by number, component by component; missing components are 0; suffixes are not compared")
    func ordering() throws {
        let v = { (text: String) in try #require(AppVersion(text)) }
        #expect(try v("5.10") > v("5.2"))
        #expect(try v("5.2") == v("5.2.0"))
        #expect(try v("10") > v("9.9.9"))
        #expect(try v("5.3.1-beta.2") == v("5.3.1"))
        for bad in ["", "5..2", "v5", "5.x", "1.2.3.4.5.6.7", "1234567890"] { #expect(AppVersion(bad) == nil, "\(bad)") }
    }

    @Test("ranges: comparisons that must all hold; a bare version is equality")
    func ranges() throws {
        let range = try VersionRange(">=5.2 <6")
        #expect(range.contains(AppVersion("5.2")!) && range.contains(AppVersion("5.10.3")!))
        #expect(!range.contains(AppVersion("5.1.9")!) && !range.contains(AppVersion("6")!))
        #expect(try VersionRange("5.3").contains(AppVersion("5.3.0")!))
        #expect(try VersionRange(">4,<=4.5").contains(AppVersion("4.5")!))
        #expect(throws: AudienceError.self) { try VersionRange(">=5.x") }
        #expect(throws: AudienceError.self) { try VersionRange("") }
        #expect(throws: AudienceError.self) { try VersionRange("~5.2") }
    }
}

@Suite("locale patterns")
struct LocalePatternTests {
    @Test("a tag matches itself in any case and with _; tag-* matches the tags under it; * matches any", arguments: [
        ("fr", "fr", true), ("fr", "FR", true), ("fr", "fr-CA", false), ("fr-*", "fr-CA", true), ("fr-*", "fr_ca", true),
        ("fr-*", "fr-Latn-CH", true), ("fr-*", "fr", false), ("fr-*", "frr-CA", false), ("fr-CA", "fr-ca", true), ("*", "anything", true),
        ("fr", "not a tag!", false),
    ])
    func matching(_ pattern: String, _ locale: String, _ expected: Bool) throws {
        #expect(try LocalePattern(pattern).matches(locale) == expected)
    }

    @Test("patterns that are not language tags are refused", arguments: ["", "fr-", "f r", "fr-*-CA", "toolongsubtag"])
    func refused(_ pattern: String) {
        #expect(throws: AudienceError.self) { try LocalePattern(pattern) }
    }
}

@Suite("aliases and assignment")
struct AssignmentTests {
    static let document = #"""
    {"theme": "brand-acme", "rules": [
      {"when": {"platform": ["ios"], "appVersion": ">=5.2", "locale": ["fr", "fr-*"], "attributes": {"tier": ["beta"]}}, "theme": "brand-acme-holiday"},
      {"when": {"attributes": {"tier": ["staff"]}}, "theme": "brand-acme", "generation": 40}
    ]}
    """#

    static func alias() throws -> Alias { try Alias(name: "acme", json: JSONParser.parse(Array(document.utf8))) }

    @Test("rules are tried in order, the first that takes the client wins, else the alias's theme; the reason says which")
    func rules() throws {
        let assigner = Assigner(aliases: ["acme": try Self.alias()], generations: ["brand-acme": 43, "brand-acme-holiday": 7])
        let beta = Client(id: "c1", platform: "iOS", appVersion: AppVersion("5.3.1"), locale: "fr-CA", attributes: ["tier": "beta"])
        let holiday = try assigner.assign("acme", to: beta)
        #expect(holiday.theme == "brand-acme-holiday" && holiday.generation == 7 && holiday.base == "/themes/brand-acme-holiday@7")
        #expect(holiday.reason.hasPrefix("rule 1 (platform ios, appVersion >=5.2, locale fr|fr-*, tier beta)"), "\(holiday.reason)")
        for other in [Client(id: "c2", platform: "android", appVersion: AppVersion("5.3"), locale: "fr", attributes: ["tier": "beta"]),
                      Client(id: "c3", platform: "ios", appVersion: AppVersion("5.1.9"), locale: "fr", attributes: ["tier": "beta"]),
                      Client(id: "c4", platform: "ios", appVersion: nil, locale: "fr", attributes: ["tier": "beta"]),
                      Client(id: "c5", platform: "ios", appVersion: AppVersion("5.10"), locale: "de-DE", attributes: ["tier": "beta"]),
                      Client(id: "c6", platform: "ios", appVersion: AppVersion("5.10"), locale: "fr")] {
            let assignment = try assigner.assign("acme", to: other)
            #expect(assignment.theme == "brand-acme" && assignment.generation == 43 && assignment.reason == "default", "\(other.id)")
        }
        let staff = try assigner.assign("acme", to: Client(id: "c7", attributes: ["tier": "staff"]))
        #expect(staff.generation == 40 && staff.kind == .pinned && staff.reason.hasSuffix("pinned"), "a rule may pin a generation")
        #expect(throws: Assigner.Failure.noSuchAlias("nope")) { try assigner.assign("nope", to: beta) }
    }

    @Test("a client from /assign's query: the four names are its fields, every other name an attribute; the last of a repeated name wins")
    func clientFromQuery() throws {
        let plain = try Client(queryItems: [("client", "c1"), ("platform", "ios"), ("appVersion", "5.3.1"), ("locale", "fr-CA")])
        #expect(plain == Client(id: "c1", platform: "ios", appVersion: AppVersion("5.3.1"), locale: "fr-CA"))
        let tiered = try Client(queryItems: [("client", "c2"), ("tier", "alpha"), ("locale", "fr"), ("tier", "beta")])
        #expect(tiered == Client(id: "c2", locale: "fr", attributes: ["tier": "beta"]))
        #expect(try Client(queryItems: [("client", "c3"), ("appVersion", "2"), ("region", "eu")]).attributes == ["region": "eu"])
        #expect(throws: AudienceError.self) { try Client(queryItems: [("platform", "ios")]) }
        #expect(throws: AudienceError.self) { try Client(queryItems: [("client", "")]) }
        #expect(throws: AudienceError.self) { try Client(queryItems: [("client", "c4"), ("appVersion", "five")]) }
        // An id's limit is 128 characters, whatever their bytes.
        #expect(try Client(queryItems: [("client", String(repeating: "é", count: 128))]).id.count == 128)
        #expect(throws: AudienceError.self) { try Client(queryItems: [("client", String(repeating: "é", count: 129))]) }
        #expect(throws: AudienceError.self) { try Client(queryItems: [("client", String(repeating: "c", count: 129))]) }
    }

    @Test("a document round-trips through its JSON")
    func roundTrip() throws {
        let alias = try Self.alias()
        #expect(try Alias(name: "acme", json: try alias.json) == alias)
    }

    @Test("bad documents are refused naming the place", arguments: [
        (#"{"rules": []}"#, "theme must be"),
        (#"{"theme": "a b"}"#, "theme must be"),
        (#"{"theme": "t", "rules": [{"when": {"appVersion": ">=5.x"}, "theme": "t"}]}"#, "rules[0].when.appVersion"),
        (#"{"theme": "t", "rules": [{"when": {"locale": ["fr-"]}, "theme": "t"}]}"#, "rules[0].when.locale"),
        (#"{"theme": "t", "rules": [{"when": {"platfrom": "ios"}, "theme": "t"}]}"#, "platfrom is not a field"),
        (#"{"theme": "t", "rules": [{"when": {}, "theme": "t", "generation": 0}]}"#, "rules[0].generation"),
        (#"{"theme": "t", "rules": [{"when": {"attributes": {"client": ["x"]}}, "theme": "t"}]}"#, "cannot be an attribute"),
        (#"{"theme": "t", "extra": 1}"#, "extra is not a field"),
    ])
    func refused(_ text: String, _ expected: String) throws {
        let error = #expect(throws: AudienceError.self) { try Alias(name: "a", json: JSONParser.parse(Array(text.utf8))) }
        #expect(error?.description.contains(expected) == true, "\(String(describing: error))")
    }
}

@Suite("rollouts")
struct RolloutTests {
    static let ids = (0..<20_000).map { "client-\($0)" }

    @Test("20,000 clients at 10%: 9 to 11% get the new generation; the same client always gets the same answer")
    func share() throws {
        let rollout = try Rollout(theme: "brand-acme", generation: 43, previous: 42, percent: 10, seed: "s1")
        let inside = Self.ids.filter(rollout.includes).count
        #expect((1_800...2_200).contains(inside), "\(inside) of 20,000")
        let again = try Rollout(theme: "brand-acme", generation: 43, previous: 42, percent: 10, seed: "s1")
        #expect(Self.ids.allSatisfy { rollout.includes($0) == again.includes($0) }, "every replica computes the same answer")
    }

    @Test("widening keeps everyone who was in; a halt brings everyone back; 100 sends everyone")
    func widening() throws {
        var previous: Set<String> = []
        for percent in [1.0, 5, 10, 25, 50, 100] {
            let rollout = try Rollout(theme: "t", generation: 2, previous: 1, percent: percent, seed: "s")
            let inside = Set(Self.ids.filter(rollout.includes))
            #expect(previous.isSubset(of: inside), "\(percent)%")
            previous = inside
        }
        #expect(previous.count == Self.ids.count)
        #expect(try Self.ids.filter(Rollout(theme: "t", generation: 2, previous: 1, percent: 0, seed: "s").includes).isEmpty)
    }

    @Test("another theme or seed places clients afresh")
    func independent() throws {
        let a = try Rollout(theme: "t", generation: 2, previous: 1, percent: 50, seed: "s")
        let b = try Rollout(theme: "t", generation: 2, previous: 1, percent: 50, seed: "other")
        let agree = Self.ids.filter { a.includes($0) == b.includes($0) }.count
        #expect((9_000...11_000).contains(agree), "about half agree by chance: \(agree)")
    }

    @Test("a percentage outside 0-100, or the current generation, is refused")
    func refused() {
        #expect(throws: AudienceError.self) { try Rollout(theme: "t", generation: 2, previous: 1, percent: 101, seed: "s") }
        #expect(throws: AudienceError.self) { try Rollout(theme: "t", generation: 2, previous: 1, percent: -1, seed: "s") }
        #expect(throws: AudienceError.self) { try Rollout(theme: "t", generation: 2, previous: 2, percent: 5, seed: "s") }
    }

    @Test("an assignment through a rollout names the bucket")
    func assignment() throws {
        let rollout = try Rollout(theme: "t", generation: 43, previous: 42, percent: 10, seed: "s")
        let assigner = Assigner(aliases: ["a": Alias(name: "a", theme: "t")], rollouts: ["t": rollout], generations: ["t": 42])
        let ins = Self.ids.prefix(2_000).map { try? assigner.assign("a", to: Client(id: $0)) }
        #expect(ins.allSatisfy { $0 != nil })
        let got43 = ins.compactMap { $0 }.filter { $0.generation == 43 }
        #expect(!got43.isEmpty && got43.allSatisfy { $0.kind == .rolloutIn && $0.reason.contains("rollout of 43 at 10%: bucket") && $0.reason.hasSuffix(" in") })
    }
}
