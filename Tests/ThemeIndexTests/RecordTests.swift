import Foundation
import SQLite
import Testing
import TestSupport
import ThemeVocabulary
@testable import ThemeIndex

/// The record mappings: every column a record writes reads back to the same value.
@Suite("index records")
struct RecordTests {
    @Test("a variant with every trait set survives a write and a read, its location typed")
    func variantRoundTrip() throws {
        let fixtures = ThemeFixtures()
        defer { fixtures.remove() }
        let database = try Database(path: fixtures.path("index.sqlite"))
        try Schema.create(in: database)
        let theme = try ThemeRecord(name: "t", path: "/t", parent: nil, generation: 1).insert(into: database)
        let source = try SourceRecord(themeID: theme, path: "/t/Assets.car", kind: .car, rank: 0, fingerprint: "f", contentHash: "h").insert(into: database)
        var traits = VariantTraits()
        traits.idiom = .pad
        traits.scale = 2
        traits.subtype = 2436
        traits.sizeClassHorizontal = .compact
        traits.sizeClassVertical = .regular
        traits.memoryGB = 4
        traits.graphics = 3
        traits.gamut = .displayP3
        traits.direction = .rightToLeft
        traits.deploymentTarget = 17
        traits.appearance = Appearance(name: "Graphite")
        traits.locale = "fr"
        let cases: [(AssetKind, ContentLocation)] = [(.image, .rendition(7)), (.color, .legacyColor(3)), (.file, .file("/t/a.png")), (.color, .inline)]
        for (number, (kind, location)) in cases.enumerated() {
            var variant = Variant(kind: kind, name: "n/\(number)", traits: traits)
            variant.location = location
            variant.contentKey = "e"
            variant.sortKey = "k"
            variant.isFlippable = true
            variant.pixelWidth = 20
            variant.format = "png"
            if kind == .color { variant.color = ColorValue(colorSpace: ColorSpace(9), components: [0.25, 1, -0.5, 1]) }
            try VariantRecord(themeID: theme, sourceID: source, sourceRank: 0, variant: variant).insert(into: database)
            let row = try #require(try database.prepare("SELECT * FROM variant WHERE name = ?1").rows([.text(variant.name)]).first)
            let read = try VariantRecord(row: row).variant
            #expect(read.traits == traits)
            #expect(read.location == location)
            #expect(read.color == variant.color)
            #expect(read.isFlippable && read.pixelWidth == 20 && read.format == "png" && read.contentKey == "e")
        }
    }

    @Test("a stored value a record does not know is an error, not a default")
    func unknownStoredValues() throws {
        let fixtures = ThemeFixtures()
        defer { fixtures.remove() }
        let database = try Database(path: fixtures.path("index.sqlite"))
        try Schema.create(in: database)
        let theme = try ThemeRecord(name: "t", path: "/t", parent: nil, generation: 1).insert(into: database)
        try database.prepare("INSERT INTO source (theme_id, path, kind, rank, fingerprint, content_hash) VALUES (?1, '/x', 'zip', 0, '', '')")
            .run([.integer(theme)])
        let row = try #require(try database.prepare("SELECT * FROM source").rows().first)
        #expect(throws: RecordError.self) { try SourceRecord(row: row) }
    }

    @Test("the schema is derived from the records: each table has exactly the records' columns")
    func schemaFromRecords() throws {
        let fixtures = ThemeFixtures()
        defer { fixtures.remove() }
        let database = try Database(path: fixtures.path("index.sqlite"))
        try Schema.create(in: database)
        func columns(_ table: String) throws -> [String] {
            try database.prepare("SELECT name FROM pragma_table_info(?1)").rows([.text(table)]).map { try $0.string("name") }
        }
        #expect(try columns("variant") == VariantRecord.Columns.allCases.map(\.rawValue))
        #expect(try columns("source") == SourceRecord.Columns.allCases.map(\.rawValue))
        #expect(try columns("theme") == ThemeRecord.Columns.allCases.map(\.rawValue))
        #expect(try columns("string") == StringRecord.Columns.allCases.map(\.rawValue))
    }
}
