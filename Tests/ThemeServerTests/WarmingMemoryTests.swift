import Foundation
import Testing
import ServiceSupport
import TestSupport

/// Warming a theme encodes its content into the blob store; the parsed catalogs it needed for that
/// are not kept afterwards (a platform's first start otherwise filled the catalog budget).
@Suite("warming and memory")
struct WarmingMemoryTests {
    @Test("the catalogs a first start's warming opened are closed when it is done; a changed catalog parsed by a reload stays, serving its generation", .needsCorpus)
    func warmingClosesWhatItOpened() throws {
        let api = try APIFixture(themes: ReloadTests.catalogTheme)
        let content = api.service.library.content
        content.waitForWarming()
        #expect(waitUntil { content.warmingPending == 0 })
        #expect(content.catalogs.cache.statistics.entries == 0, "warming opened app's catalog and closed it")
        // Every image is served from its blob: nothing opens the catalog again.
        let image = try #require(try api.request("/themes/app/images").decode(ImageListBody.self).images.first { $0.kind == "image" })
        #expect(try api.request(image.href).status == 200)
        #expect(content.catalogs.cache.statistics.entries == 0)

        // A reload of a changed catalog keeps what the sync parsed: that generation is served from it.
        try ReloadTests.publish(Data(contentsOf: URL(fileURLWithPath: Corpus.path(ReloadTests.second))),
                                to: api.fixtures.path("themes/app/Assets.car"))
        try api.service.reload()
        content.waitForWarming()
        #expect(content.catalogs.cache.statistics.entries == 1)
    }
}
