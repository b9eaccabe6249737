import Testing
import ThemeBundle

/// CLDR plural categories for whole numbers in the languages PluralRules knows.
@Suite("plural rules")
struct PluralRulesTests {
    @Test("categories by language", arguments: [
        ("en", [0: "other", 1: "one", 2: "other", 21: "other"]),
        ("fr", [0: "one", 1: "one", 2: "other"]),
        ("pt-BR", [0: "one", 1: "one", 2: "other"]),
        ("pt-PT", [0: "other", 1: "one", 2: "other"]),
        ("ru", [1: "one", 2: "few", 5: "many", 11: "many", 21: "one", 22: "few", 112: "many"]),
        ("pl", [1: "one", 2: "few", 5: "many", 12: "many", 22: "few", 21: "many"]),
        ("cs", [1: "one", 3: "few", 5: "other"]),
        ("ar", [0: "zero", 1: "one", 2: "two", 3: "few", 11: "many", 100: "other", 103: "few"]),
        ("he", [1: "one", 2: "two", 3: "other"]),
        ("ja", [0: "other", 1: "other", 2: "other"]),
        ("zh-Hant", [1: "other"]),
        ("hi", [0: "one", 1: "one", 2: "other"]),
    ])
    func categories(_ language: String, _ expected: [Int: String]) {
        for (count, category) in expected {
            #expect(PluralRules.category(of: count, language: language) == category, "\(language) \(count)")
        }
    }
}
