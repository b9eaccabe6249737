import Testing
import ThemeBundle

/// The localization examples L1-L22 of ../shared/docs/lookup-rules.md 7.2, on the matching
/// functions themselves (L23 needs a theme folder; it runs through the server in
/// ThemeServerTests). Each gives the bundle's localizations and development region, the
/// client's languages, and the whole search list expected; its first entry is the choice.
@Suite("localization choice")
struct LocalizationTests {
    struct Example: CustomTestStringConvertible, Sendable {
        var id: String
        var preferences: [String]
        var folders: [String]
        var developmentRegion: String?
        var searchList: [String]
        var testDescription: String { id }
    }

    static let examples: [Example] = [
        Example(id: "L1 exact", preferences: ["fr"], folders: ["en", "fr", "de"], developmentRegion: "en", searchList: ["fr", "en"]),
        Example(id: "L2 first matching language decides", preferences: ["de-CH", "fr"], folders: ["en", "fr", "de"], developmentRegion: "en", searchList: ["de", "en"]),
        Example(id: "L3 nothing matches: development region", preferences: ["ja"], folders: ["en", "fr", "de"], developmentRegion: "en", searchList: ["en"]),
        Example(id: "L4 fr_CA -> fr", preferences: ["fr-CA"], folders: ["en", "fr"], developmentRegion: "en", searchList: ["fr", "en"]),
        Example(id: "L5 second language matched", preferences: ["ja", "en"], folders: ["zh-Hans", "en"], developmentRegion: "zh-Hans", searchList: ["en", "zh-Hans"]),
        Example(id: "L6 development region, not English", preferences: ["ja"], folders: ["zh-Hans", "en"], developmentRegion: "zh-Hans", searchList: ["zh-Hans"]),
        Example(id: "L7 en_AU -> en_GB", preferences: ["en-AU"], folders: ["en", "en_GB"], developmentRegion: "en", searchList: ["en_GB", "en"]),
        Example(id: "L8 shortest chain distance", preferences: ["en-IN"], folders: ["en", "en_AU", "en_GB"], developmentRegion: "en", searchList: ["en_GB", "en"]),
        Example(id: "L9 en_CA -> en_001 -> en", preferences: ["en-CA"], folders: ["en", "en_AU", "en_GB"], developmentRegion: "en", searchList: ["en"]),
        Example(id: "L10 pt-PT avoids pt-BR", preferences: ["pt-PT", "en"], folders: ["pt-BR", "en"], developmentRegion: "en", searchList: ["en"]),
        Example(id: "L11 pt-BR as the last resort", preferences: ["pt-PT"], folders: ["pt-BR", "en"], developmentRegion: "en", searchList: ["pt-BR", "en"]),
        Example(id: "L12 parent beats sibling", preferences: ["pt-PT"], folders: ["pt", "pt-BR"], developmentRegion: "pt", searchList: ["pt"]),
        Example(id: "L13 es_MX -> es_419 -> es", preferences: ["es-MX"], folders: ["es", "es_419"], developmentRegion: "es", searchList: ["es_419", "es"]),
        Example(id: "L14 zh_HK -> zh_Hant", preferences: ["zh-HK"], folders: ["zh-Hans", "zh-Hant"], developmentRegion: "en", searchList: ["zh-Hant", "en"]),
        Example(id: "L15 zh -> zh_CN", preferences: ["zh"], folders: ["zh_CN", "zh_TW"], developmentRegion: "en", searchList: ["zh_CN", "en"]),
        Example(id: "L16 same normalized form", preferences: ["zh-Hant-TW"], folders: ["zh_CN", "zh_TW"], developmentRegion: "en", searchList: ["zh_TW", "en"]),
        Example(id: "L17 non-default region penalty", preferences: ["it"], folders: ["it_CH", "it_IT"], developmentRegion: "it", searchList: ["it_IT", "it"]),
        Example(id: "L18 second pass: exact later match", preferences: ["fr-CH", "fr-CA"], folders: ["fr_FR", "fr_CA"], developmentRegion: "en", searchList: ["fr_CA", "en"]),
        Example(id: "L19 legacy folder name", preferences: ["en-US"], folders: ["English", "fr"], developmentRegion: nil, searchList: ["English"]),
        Example(id: "L20 en_US backstop", preferences: ["ja"], folders: ["fr", "en"], developmentRegion: nil, searchList: ["en"]),
        Example(id: "L21 first available localization", preferences: ["ja"], folders: ["fr", "de"], developmentRegion: nil, searchList: ["de"]),
        Example(id: "L22 no languages: development region", preferences: [], folders: ["en", "fr"], developmentRegion: "fr", searchList: ["fr"]),
    ]

    @Test("worked examples L1-L22", arguments: examples)
    func example(_ example: Example) {
        // Folders are listed in byte order, as a theme folder reads them.
        let bundle = BundleInfo(path: "/x", developmentRegion: example.developmentRegion,
                                localizationFolders: example.folders.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
        #expect(Localization.searchList(for: bundle, preferences: example.preferences) == example.searchList)
    }

    @Test("a nested bundle follows the main bundle's choice unless mixed localizations are allowed")
    func nestedBundleFollowsMain() {
        var main = BundleInfo(path: "/theme", developmentRegion: "de", localizationFolders: ["de", "en"])
        let nested = BundleInfo(path: "/theme/Kit.framework", developmentRegion: "en", localizationFolders: ["de", "en", "fr"])
        // The main bundle has no fr, so it chooses en for a French client; the framework follows.
        #expect(Localization.searchList(for: nested, preferences: ["fr", "en"], main: main) == ["en"])
        main.allowsMixedLocalizations = true
        #expect(Localization.searchList(for: nested, preferences: ["fr", "en"], main: main) == ["fr", "en"])
    }

    @Test("CFBundleLocalizations come first, Base never matches, and the development region joins when Base.lproj exists")
    func availableLocalizations() {
        var bundle = BundleInfo(path: "/x", developmentRegion: "en", localizationFolders: ["Base", "fr"])
        bundle.declaredLocalizations = ["de"]
        #expect(bundle.availableLocalizations == ["de", "Base", "fr", "en"])
        #expect(Localization.localizationsToUse(["base"], bundle.availableLocalizations) == [])
        bundle.localizationFolders = ["Base", "English"]
        bundle.declaredLocalizations = []
        #expect(bundle.availableLocalizations == ["Base", "English"], "en is already present as English")
    }

    @Test("tags normalize: separators, case, legacy names, aliases, Chinese regions, extensions")
    func normalization() {
        #expect(LanguageTag.normalized("zh-hant-tw").description == "zh_Hant_TW")
        #expect(LanguageTag.normalized("zh-TW").description == "zh_Hant_TW")
        #expect(LanguageTag.normalized("English").description == "en")
        #expect(LanguageTag.normalized("no-NO").description == "nb_NO")
        #expect(LanguageTag.normalized("iw").description == "he")
        #expect(LanguageTag.normalized("de-DE-u-co-phonebk").description == "de_DE")
        #expect(LanguageTag.normalized("sr_Latn@calendar=x").description == "sr_Latn")
        #expect(LanguageTag.base("English").description == "english")
    }

    @Test("parent chains of 2.3")
    func chains() {
        func chain(_ tag: String) -> [String] { LanguageTag.normalized(tag).chain.map(\.description) }
        #expect(chain("en-NZ") == ["en_NZ", "en_AU", "en_GB", "en_001", "en"])
        #expect(chain("en-CA") == ["en_CA", "en_001", "en"])
        #expect(chain("en-US") == ["en_US", "en"])
        #expect(chain("es-AR") == ["es_AR", "es_419", "es"])
        #expect(chain("pt-AO") == ["pt_AO", "pt_PT", "pt"])
        #expect(chain("zh-MO") == ["zh_Hant_MO", "zh_Hant_HK", "zh_Hant"])
        #expect(chain("zh-CN") == ["zh_Hans_CN", "zh_Hans", "zh"])
        #expect(chain("sr-Latn-RS") == ["sr_Latn_RS", "sr_Latn"])
        #expect(chain("uz-Latn") == ["uz_Latn", "uz"])
    }
}
