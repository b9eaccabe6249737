import Foundation
import Testing
import ServiceSupport
import TestSupport

/// A 404 for a name that exists, but not for the traits asked, says which traits it exists for.
@Suite("404s that say where a name exists")
struct NotFoundHelpTests {
    struct ErrorBody: Decodable {
        struct Details: Decodable {
            var code: String
            var message: String
            var available: Available?
        }
        struct Available: Decodable, Equatable {
            var idiom: [String]?
            var scale: [Int]?
            var appearance: [String]?
            var gamut: [String]?
            var combinations: [Combination]?
        }
        /// One combination a variant exists for, as the query parameters that ask for it.
        struct Combination: Decodable, Equatable {
            var idiom: String
            var scale: Int?
            var size: Int?
            var subtype: Int?
            var appearance: String?
        }
        var error: Details
    }

    static func themes(_ f: ThemeFixtures) {
        ServerFixture.standardThemes(f)
        // An app icon for phones and pads only (no universal variant), as iOS catalogs have.
        f.imageSet("themes/light", "AppIcon", [["idiom": "iphone", "scale": "2x"], ["idiom": "iphone", "scale": "3x"], ["idiom": "ipad", "scale": "2x"]])
        // A colour only for dark mode.
        f.colorSet("themes/light", "night", [("dark", ["red": "0", "green": "0", "blue": "0.2", "alpha": "1"], [:])])
    }

    @Test("an image asked without the idiom it exists for: the idioms and scales, in the message and as available")
    func image() throws {
        let api = try APIFixture(themes: Self.themes)
        let missing = try api.request("/themes/light/images/AppIcon")
        #expect(missing.status == 404)
        let body = try missing.decode(ErrorBody.self)
        #expect(body.error.code == "not_found")
        #expect(body.error.available?.idiom == ["phone", "pad"] && body.error.available?.scale == [2, 3])
        // Combinations, not each trait on its own: there is no pad at 3x.
        #expect(body.error.available?.combinations == [.init(idiom: "phone", scale: 2), .init(idiom: "phone", scale: 3), .init(idiom: "pad", scale: 2)])
        #expect(body.error.message.contains("it exists for idiom=phone&scale=2, idiom=phone&scale=3, idiom=pad&scale=2"), "\(body.error.message)")
        // Asking for what it names answers.
        #expect(try api.request("/themes/light/images/AppIcon?idiom=phone&scale=3").status == 200)
        #expect(try api.request("/themes/light/images/AppIcon?idiom=pad&scale=2").status == 200)
    }

    @Test("a colour that exists only in dark: the appearance it exists for")
    func color() throws {
        let api = try APIFixture(themes: Self.themes)
        let body = try api.request("/themes/light/colors/night").decode(ErrorBody.self)
        #expect(body.error.available?.appearance == ["dark"] && body.error.available?.idiom == ["universal"])
        #expect(body.error.message.contains("idiom=universal&appearance=dark"), "\(body.error.message)")
        #expect(try api.request("/themes/light/colors/night?appearance=dark").status == 200)
    }

    @Test("a name that does not exist at all: a plain 404 with no available traits, the case hint kept")
    func unknown() throws {
        let api = try APIFixture(themes: Self.themes)
        let body = try api.request("/themes/light/images/nothing").decode(ErrorBody.self)
        #expect(body.error.available == nil && !body.error.message.contains("exists for"))
        let hinted = try api.request("/themes/light/images/appicon?idiom=phone").decode(ErrorBody.self)
        #expect(hinted.error.message.contains("did you mean \"AppIcon\""), "\(hinted.error.message)")
    }
}
