import Foundation
import Testing
@testable import ThemeBundle

/// Xcode String Catalogs (`.xcstrings`) read as the per-language tables Xcode would build.
@Suite("string catalogs")
struct StringCatalogTests {
    static let sample = """
    {
      "sourceLanguage" : "en",
      "version" : "1.0",
      "strings" : {
        "Cancel" : {
          "localizations" : {
            "fr" : { "stringUnit" : { "state" : "translated", "value" : "Annuler" } }
          }
        },
        "greeting" : {
          "localizations" : {
            "en" : { "stringUnit" : { "state" : "translated", "value" : "Hello" } },
            "de" : { "stringUnit" : { "state" : "needs_review", "value" : "Hallo" } }
          }
        },
        "%lld items" : {
          "localizations" : {
            "en" : { "variations" : { "plural" : {
              "one" : { "stringUnit" : { "state" : "translated", "value" : "%lld item" } },
              "other" : { "stringUnit" : { "state" : "translated", "value" : "%lld items" } } } } },
            "fr" : { "variations" : { "plural" : {
              "one" : { "stringUnit" : { "state" : "translated", "value" : "%lld élément" } },
              "other" : { "stringUnit" : { "state" : "translated", "value" : "%lld éléments" } } } } }
          }
        }
      }
    }
    """

    @Test("values per language; plural variations give their other form; the source language falls back to the key")
    func values() throws {
        let catalog = try StringCatalog(bytes: Array(Self.sample.utf8))
        #expect(catalog.sourceLanguage == "en")
        #expect(catalog.languages == ["de", "en", "fr"])
        #expect(catalog.values["fr"] == ["Cancel": "Annuler", "%lld items": "%lld éléments"])
        #expect(catalog.values["en"] == ["Cancel": "Cancel", "greeting": "Hello", "%lld items": "%lld items"])
        #expect(catalog.values["de"] == ["greeting": "Hallo"])
        #expect(catalog.forms["fr"] == ["%lld items": ["one": "%lld élément", "other": "%lld éléments"]])
        #expect(catalog.forms["de"] == nil)
    }

    @Test("malformed catalogs are errors that say what is wrong", arguments: [
        ("{ not json", "not valid JSON"),
        ("[1, 2]", "the top level is not an object"),
        ("{\"strings\": {}}", "field \"sourceLanguage\" is missing"),
        ("{\"sourceLanguage\": \"en\"}", "field \"strings\" is missing or not an object"),
    ])
    func errors(_ text: String, _ message: String) {
        #expect(throws: StringCatalog.ParseError(description: message)) { try StringCatalog(bytes: Array(text.utf8)) }
    }
}
