import ServiceSupport
import Testing

@Suite("image listing")
struct ImageListTests {
    @Test("GET /themes/{theme}/images lists image, data and file names with kind and variant count, in pages")
    func listing() throws {
        let api = try APIFixture()
        let all = try api.request("/themes/light/images").decode(ImageListBody.self)
        #expect(all.theme == "light" && all.next == nil && all.total == all.images.count)
        let logo = try #require(all.images.first { $0.name == "logo" })
        #expect(logo.kind == "image" && logo.href == "/themes/light/images/logo")
        let described = try api.request("/themes/light/images/logo.json").decode(ImageDescription.self).variants
        #expect(logo.variants == described.count, "the count is the variants the .json route lists")
        #expect(all.images.map(\.name) == all.images.map(\.name).sorted())

        // One name a page: following `next` walks every name once.
        var walked: [ImageListBody.Entry] = []
        var target: String? = "/themes/light/images?limit=1"
        while let page = target {
            let body = try api.request(page).decode(ImageListBody.self)
            #expect(body.images.count <= 1)
            walked += body.images
            target = body.next
        }
        #expect(walked == all.images)
        #expect(try api.request("/themes/light/images?limit=0").status == 400)
        #expect(try api.request("/themes/nope/images").status == 404)
    }
}

private struct ImageDescription: Decodable {
    struct Variant: Decodable {}
    var variants: [Variant]
}
