import DesignTokens
import FigmaVariables
import Foundation
import JSON
import Testing
import TestSupport

@Suite("themed import figma: a Figma file's variables as DTCG files and a resolver")
struct FigmaImportTests {
    static func imported() throws -> FigmaImport {
        FigmaImport(try FigmaFile(bytes: FigmaExample.bytes))
    }

    static func document(_ imported: FigmaImport, _ path: String) throws -> JSONValue {
        let file = try #require(imported.files.first { $0.path == path }, "\(imported.files.map(\.path))")
        return try JSONParser.parse(file.bytes)
    }

    /// The written files as the DTCG reader takes them, from memory.
    static func resolver(_ imported: FigmaImport) throws -> TokenResolver {
        let files = Dictionary(uniqueKeysWithValues: imported.files.map { ($0.path, $0.bytes) })
        return try TokenResolver(document: try document(imported, FigmaImport.resolverFile), path: FigmaImport.resolverFile) { path in
            guard let bytes = files[path] else { throw FileMissing(path: path) }
            return try JSONParser.parse(bytes)
        }
    }

    struct FileMissing: Error { var path: String }

    @Test("each local collection is a set (one mode) or a modifier (several), a file per mode, named after them")
    func layout() throws {
        let imported = try Self.imported()
        #expect(imported.files.map(\.path) == [
            "figma.resolver.json", "brand/acme.tokens.json", "brand/globex.tokens.json", "primitives.tokens.json",
            "semantic/light.tokens.json", "semantic/dark.tokens.json", "spacing-type.tokens.json",
        ])
        let resolver = try Self.resolver(imported)
        #expect(resolver.modifiers.map(\.name) == ["Brand", "Semantic"])
        #expect(resolver.modifiers.map(\.contexts) == [["Acme", "Globex"], ["Light", "Dark"]])
        #expect(resolver.modifiers.map(\.defaultContext) == ["Acme", "Light"])
        let document = try Self.document(imported, FigmaImport.resolverFile)
        #expect(document["sets"]?["Spacing & Type"]?["sources"] == .array([.object([("$ref", "spacing-type.tokens.json")])]))
        #expect(document["resolutionOrder"] == .array(["#/modifiers/Brand", "#/sets/Primitives", "#/modifiers/Semantic", "#/sets/Spacing & Type"]
            .map { .object([("$ref", .string($0))]) }))
        // The library's collection is followed, never written.
        #expect(!imported.files.contains { $0.path.contains("library") })
    }

    @Test("types follow resolvedType and scopes; aliases stay aliases; a library's or deleted variable's value is written with what it was")
    func tokens() throws {
        let imported = try Self.imported()
        let spacing = try Self.document(imported, "spacing-type.tokens.json")
        #expect(spacing["space"]?["1_5"]?["$type"] == "dimension")
        #expect(spacing["space"]?["1_5"]?["$value"] == .object([("value", 6), ("unit", "px")]))
        #expect(spacing["space"]?["1_5"]?["$extensions"]?["com.figma"]?["name"] == "space/1.5")
        #expect(spacing["space"]?["gutter"]?["$value"] == "{space.1_5}" && spacing["space"]?["gutter"]?["$type"] == "dimension")
        #expect(spacing["radius"]?["md"]?["$type"] == "dimension")
        #expect(spacing["size"]?["icon"]?["$type"] == "number", "ALL_SCOPES is not only lengths")
        #expect(spacing["font"]?["weight"]?["strong"]?["$value"] == 600 && spacing["font"]?["weight"]?["strong"]?["$type"] == "fontWeight")
        #expect(spacing["font"]?["weight"]?["heading"]?["$value"] == 700 && spacing["font"]?["weight"]?["heading"]?["$type"] == "fontWeight")
        let unmapped = spacing["$extensions"]?["com.figma"]?["unmapped"]
        #expect(unmapped?["flag/beta"]?["value"] == true && unmapped?["label/cta"]?["value"] == "Buy now" && unmapped?["font/style/fancy"]?["value"] == "Wavy")
        #expect(spacing["$extensions"]?["com.figma"]?["collectionId"] == "VariableCollectionId:4:0")

        let dark = try Self.document(imported, "semantic/dark.tokens.json")
        #expect(dark["color"]?["bg"]?["$root"]?["$value"] == "{gray.900}", "a token that is also a group is its $root")
        #expect(dark["color"]?["bg"]?["$root"]?["$description"] == "Page background")
        #expect(dark["color"]?["bg"]?["hover"]?["$value"] == "{color.bg.$root}")
        #expect(dark["color"]?["accent"]?["$value"] == "{brand.accent}")
        #expect(dark["color"]?["link"]?["$value"]?["components"] == .array([.int(0), .double(0.3), .double(0.9)]), "a mode without a value takes the default mode's")
        #expect(dark["color"]?["link"]?["$extensions"]?["com.figma"]?["aliasOf"]?["name"] == "link/blue")
        #expect(dark["color"]?["danger"]?["$extensions"]?["com.figma"]?["aliasOf"]?["name"] == "old/red")
        #expect(dark["color"]?["broken"]?["$value"] == "{blue.100}")
        #expect(dark["opacity"]?["disabled"]?["$type"] == "number")
        let light = try Self.document(imported, "semantic/light.tokens.json")
        #expect(light["color"]?["broken"] == nil && light["color"]?["loop-a"] == nil)
        #expect(try Self.document(imported, "primitives.tokens.json")["old"] == nil, "a deleted variable is not written")
        #expect(try Self.document(imported, "brand/globex.tokens.json")["brand"]?["font"]?["$value"] == "Roboto")

        let notes = imported.notes.joined(separator: "\n")
        #expect(notes.contains("color/broken in mode Light: an alias to VariableID:404:404, which the file lacks; left out"), "\(notes)")
        #expect(notes.contains("color/loop-a in mode Light: aliases that loop"), "\(notes)")
        #expect(notes.contains("space/1.5: written as space.1_5"), "\(notes)")
        #expect(notes.contains("flag/beta: a BOOLEAN no DTCG type holds"), "\(notes)")
    }

    @Test("the written folder loads clean through the resolver in every combination of modes")
    func loadsClean() throws {
        let resolver = try Self.resolver(try Self.imported())
        let inputs = resolver.allInputs()
        #expect(inputs.count == 4)
        for input in inputs {
            let tokens = resolver.tokens(for: input)
            #expect(tokens.problems.isEmpty, "\(input): \(tokens.problems)")
            #expect(tokens.warnings.isEmpty, "\(input): \(tokens.warnings)")
        }
        let globexDark = resolver.tokens(for: try resolver.inputs(["Brand": "Globex", "Semantic": "Dark"]))
        #expect(globexDark[TokenPath(dotted: "color.accent")]?.value["components"] == .array([.int(1), .double(0.4), .int(0)]), "an alias across collections takes the chosen mode of the target's")
    }

    @Test("every value equals the reference reading (figma_ref.py) in every mode of its collection",
          .enabled(if: ReferenceTools.directory.map { FileManager.default.fileExists(atPath: $0.appendingPathComponent("figma_ref.py").path) } ?? false,
                   "../shared/tools not found (figma_ref.py)"))
    func matchesReference() throws {
        let tools = try #require(ReferenceTools.directory)
        let input = FileManager.default.temporaryDirectory.appendingPathComponent("figma-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: input) }
        try Data(FigmaExample.bytes).write(to: input)
        let run = try ReferenceTools.run([tools.appendingPathComponent("figma_ref.py").path, input.path])
        #expect(run.status == 0, "\(run.output)")
        let reference = try JSONParser.parse(Array(run.output.utf8))
        let figma = try FigmaFile(bytes: FigmaExample.bytes)
        let imported = FigmaImport(figma)
        let resolver = try Self.resolver(imported)
        guard case .object(let values)? = reference["values"] else { Issue.record("no values: \(run.output.prefix(300))"); return }
        var compared = 0
        for (name, expected) in values {
            guard let variable = figma.variables.values.first(where: { $0.name == name }), variable.isLocal,
                  let collection = figma.collections[variable.collectionID], case .object(let modes)? = expected["modes"] else { continue }
            // Values no DTCG type holds are kept under $extensions, not as tokens (the tokens test covers them).
            guard let dotted = try Self.tokenPath(of: variable, in: imported) else { continue }
            let path = TokenPath(dotted: dotted)
            for (mode, value) in modes {
                let inputs = collection.modes.count > 1 ? [collection.name: mode] : [:]
                let token = resolver.tokens(for: try resolver.inputs(inputs))[path]
                if value == .null {
                    #expect(token == nil, "\(name) in \(mode) has no value in Figma, but \(String(describing: token?.value))")
                    continue
                }
                guard let token else {
                    Issue.record("\(name) in \(mode): no token at \(dotted)")
                    continue
                }
                #expect(Self.same(token.value, value), "\(name) in \(mode): \(token.value.serialized()) against \(value.serialized())")
                compared += 1
            }
        }
        #expect(compared >= 20, "only \(compared) values compared")
    }

    /// A variable's token path, read back from the files (its id is under its token's `$extensions`).
    static func tokenPath(of variable: FigmaFile.Variable, in imported: FigmaImport) throws -> String? {
        for file in imported.files where file.path != FigmaImport.resolverFile {
            if let path = find(variable.id, in: try JSONParser.parse(file.bytes), at: []) { return path.joined(separator: ".") }
        }
        return nil
    }

    static func find(_ id: String, in value: JSONValue, at path: [String]) -> [String]? {
        if value["$extensions"]?["com.figma"]?["variableId"] == .string(id), value["$value"] != nil { return path }
        guard case .object(let members) = value else { return nil }
        for (key, member) in members where key != "$extensions" {
            if let found = find(id, in: member, at: path + [key]) { return found }
        }
        return nil
    }

    /// A resolved DTCG value against the reference's reading of the Figma value.
    static func same(_ value: JSONValue, _ reference: JSONValue) -> Bool {
        func number(_ value: JSONValue?) -> Double? {
            switch value {
            case .int(let whole)?: Double(whole)
            case .double(let fraction)?: fraction
            default: nil
            }
        }
        if case .array(let channels)? = reference["srgb"], case .array(let components)? = value["components"] {
            return zip(channels, components).allSatisfy { abs((number($0) ?? -1) - (number($1) ?? -2)) < 1e-12 } && channels.count == components.count
                && abs((number(reference["alpha"]) ?? 1) - (number(value["alpha"]) ?? 1)) < 1e-12
        }
        if let expected = number(reference) {
            return number(value) == expected || number(value["value"]) == expected
        }
        if case .string(let text) = reference {
            // A font style becomes its weight; a family stays as written.
            return value == .string(text) || TokenWeight.of(text) == value
        }
        return false
    }

    enum TokenWeight {
        static func of(_ style: String) -> JSONValue? { style == "Semi Bold" ? .int(600) : nil }
    }
}
