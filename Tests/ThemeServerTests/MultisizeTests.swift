import BinaryReading
import Codecs
import Foundation
import Testing
import ServiceSupport
import TestSupport

/// The members of a multisize set (an app icon) are served by size: `AppIcon?size=128&scale=2`.
@Suite("multisize sets")
struct MultisizeTests {
    /// A real catalog with a macOS AppIcon (16, 32, 128, 256, 512 pt, each at 1x and 2x).
    static let catalog = "AsedaDeveloper__Patch-Updater-for-Catalina__Assets.car"

    @Test("each member by size and scale; the largest without a size; .json lists every member's size; an unknown size is a 404", .needsCorpus)
    func members() throws {
        let api = try APIFixture { f in
            f.makeDirectory("themes/mac")
            try? FileManager.default.copyItem(atPath: Corpus.path(Self.catalog), toPath: f.path("themes/mac/Assets.car"))
        }
        for (size, scale) in [(16, 1), (32, 2), (128, 2), (512, 1)] {
            let response = try api.request("/themes/mac/images/AppIcon?size=\(size)&scale=\(scale)")
            #expect(response.status == 200, "\(size)@\(scale)x: \(response.status) \(response.text.prefix(200))")
            let bitmap = try PNG.decode(ByteSpan(copying: response.body))
            #expect((bitmap.width, bitmap.height) == (size * scale, size * scale), "\(size)@\(scale)x")
        }
        let largest = try PNG.decode(ByteSpan(copying: try api.request("/themes/mac/images/AppIcon?scale=2").body))
        #expect(largest.width == 1024, "no size: the largest member")
        let description = try api.request("/themes/mac/images/AppIcon.json?size=32").decode(MultisizeDescription.self)
        #expect(Set(description.variants.compactMap(\.size)) == [16, 32, 128, 256, 512])
        #expect(description.chosen.size == 32)
        #expect(try api.request("/themes/mac/images/AppIcon?size=17").status == 404)
        #expect(try api.request("/themes/mac/images/AppIcon?size=0").status == 400)
    }
}

extension MultisizeTests {
    /// An iOS AppIcon whose 90 pt member exists only for subtype 1792 (as Xcode writes it).
    static let subtyped = "OpenSourceJailbreaks__H3lix__Assets.car"

    @Test("a member made for one subtype answers without it, as the listing shows it; a 404 names combinations that exist", .needsCorpus)
    func loneSubtype() throws {
        let api = try APIFixture { f in
            f.makeDirectory("themes/ios")
            try? FileManager.default.copyItem(atPath: Corpus.path(Self.subtyped), toPath: f.path("themes/ios/Assets.car"))
        }
        let listing = try api.request("/themes/ios/images/AppIcon.json?idiom=phone").decode(MultisizeDescription.self)
        let member = try #require(listing.variants.first { $0.size == 90 }, "the listing has the 90 pt member")
        #expect(member.subtype == 1792 && member.scale == 2 && member.idiom == "phone", "the listing shows its subtype: \(member)")
        let plain = try api.request("/themes/ios/images/AppIcon.json?size=90&idiom=phone&scale=2")
        #expect(plain.status == 200, "listing equals lookup: \(plain.text.prefix(300))")
        #expect(try plain.decode(MultisizeDescription.self).chosen.subtype == 1792)
        #expect(try api.request("/themes/ios/images/AppIcon?size=90&idiom=phone&scale=2&subtype=1792").status == 200)
        // Another subtype asked is not that member: the requested subtype, then 0, then a lone one
        // only when nothing was asked.
        #expect(try api.request("/themes/ios/images/AppIcon?size=90&idiom=phone&scale=2&subtype=2436").status == 404)

        let missing = try api.request("/themes/ios/images/AppIcon?size=91&idiom=phone&scale=2")
        #expect(missing.status == 404)
        #expect(missing.text.contains(#"{"idiom":"phone","scale":2,"size":90,"subtype":1792}"#), "\(missing.text.prefix(600))")
        #expect(missing.text.contains("idiom=phone&scale=2&size=90&subtype=1792"), "the message names combinations")
        #expect(!missing.text.contains(#"{"idiom":"pad","scale":3"#), "no pad at 3x exists, and none is named")
    }

    @Test("every member that a multisize set of the shared corpus lists answers to its size, idiom and scale, at its pixel size", .needsCorpus)
    func corpusMembers() throws {
        let api = try APIFixture { f in
            for (number, name) in Corpus.catalogNames.enumerated() {
                f.makeDirectory("themes/c\(number)")
                try? FileManager.default.copyItem(atPath: Corpus.path(name), toPath: f.path("themes/c\(number)/Assets.car"))
            }
        }
        var sets = 0, members = 0
        for number in Corpus.catalogNames.indices {
            var names: [String] = []
            var page: String? = "/themes/c\(number)/images?limit=1000"
            while let next = page {
                let list = try api.request(next).decode(ImageNames.self)
                names += list.images.map(\.name)
                page = list.next
            }
            for name in names {
                let escaped = name.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/"])) ?? name
                var answer = try api.request("/themes/c\(number)/images/\(escaped).json")
                if answer.status == 404, let idiom = try? answer.decode(NotFound.self).error.available?.idiom?.first {
                    // An iOS icon has no universal member: listed as its idiom asks.
                    answer = try api.request("/themes/c\(number)/images/\(escaped).json?idiom=\(idiom)")
                }
                guard answer.status == 200 else { continue }
                let listed = try answer.decode(MultisizeDescription.self).variants.filter { $0.size != nil }
                if !listed.isEmpty { sets += 1 }
                for member in listed {
                    let size = try #require(member.size)
                    members += 1
                    let target = "/themes/c\(number)/images/\(escaped)?size=\(size)&idiom=\(member.idiom)&scale=\(member.scale)"
                    let image = try api.request(target)
                    #expect(image.status == 200, "\(target): \(image.status) \(image.text.prefix(200))")
                    guard image.status == 200, image.header("Content-Type") == "image/png" else { continue }
                    let bitmap = try PNG.decode(ByteSpan(copying: image.body))
                    #expect(bitmap.width == member.pixelWidth, "\(target)")
                }
            }
        }
        #expect(sets >= 28 && members >= 139, "\(sets) sets, \(members) members")
    }
}

private struct ImageNames: Decodable {
    struct Entry: Decodable { var name: String }
    var images: [Entry]
    var next: String?
}

private struct NotFound: Decodable {
    struct Details: Decodable {
        struct Available: Decodable { var idiom: [String]? }
        var available: Available?
    }
    var error: Details
}

private struct MultisizeDescription: Decodable {
    struct Variant: Decodable { var size: Int?; var subtype: Int?; var scale: Int; var idiom: String; var pixelWidth: Int }
    var chosen: Variant
    var variants: [Variant]
}
