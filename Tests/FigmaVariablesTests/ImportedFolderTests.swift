import FigmaVariables
import Foundation
import JSON
import Testing

@Suite("an import's bytes and the folder it writes")
struct ImportedFolderTests {
    /// The example with every object's members in the opposite order (as another fetch may give them).
    static func reversed(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(let members): .object(members.reversed().map { ($0.0, reversed($0.1)) })
        case .array(let items): .array(items.map(reversed))
        default: value
        }
    }

    /// The answer without one collection and its variables.
    static func removingCollection(_ id: String, from answer: JSONValue) -> JSONValue {
        guard case .object(let meta)? = answer["meta"], case .object(let collections)? = answer["meta"]?["variableCollections"],
              case .object(let variables)? = answer["meta"]?["variables"] else { return answer }
        return .object([("meta", .object(meta.map { key, value in
            switch key {
            case "variableCollections": (key, .object(collections.filter { $0.0 != id }))
            case "variables": (key, .object(variables.filter { $0.1["variableCollectionId"] != .string(id) }))
            default: (key, value)
            }
        }))])
    }

    @Test("the same variables write the same bytes, whatever order the answer lists them in")
    func stableBytes() throws {
        let once = FigmaImport(try FigmaFile(bytes: FigmaExample.bytes))
        let again = FigmaImport(try FigmaFile(bytes: FigmaExample.bytes))
        let shuffled = FigmaImport(try FigmaFile(json: Self.reversed(try JSONParser.parse(FigmaExample.bytes))))
        #expect(once.files == again.files)
        #expect(once.files.map(\.path) == shuffled.files.map(\.path))
        for (first, second) in zip(once.files, shuffled.files) {
            #expect(first.bytes == second.bytes, "\(first.path) differs when the answer lists its members in another order")
        }
        #expect(once.notes.sorted() == shuffled.notes.sorted())
    }

    @Test("a file cut short or not the API's answer is refused, naming where", arguments: [
        (String(FigmaExample.answer.prefix(4000)), "not JSON"),
        (#"{"meta": {"variables": {}}}"#, "meta.variableCollections: missing"),
        (#"{"variables": {}, "variableCollections": {"C": {"id": "C", "name": "x", "modes": [{"modeId": "1", "name": "a"}], "defaultModeId": "2"}}}"#,
         "variableCollections[\"C\"].defaultModeId: 2 is none of its modes"),
        (#"{"variableCollections": {}, "variables": {"V": {"id": "V", "name": "a", "variableCollectionId": "C", "resolvedType": "COLOR", "valuesByMode": {"1": {"r": 2, "g": 0, "b": 0}}}}}"#,
         "variables[\"V\"].valuesByMode[\"1\"].r: 2.0 is outside 0...1"),
        (#"{"variableCollections": {}, "variables": {"V": {"id": "V", "name": "a", "variableCollectionId": "C", "resolvedType": "FLOAT", "valuesByMode": {"1": "ten"}}}}"#,
         "variables[\"V\"].valuesByMode[\"1\"]: not a FLOAT value nor a VARIABLE_ALIAS"),
        (#"{"variableCollections": {}, "variables": {"V": {"id": "V", "name": "a", "variableCollectionId": "C", "resolvedType": "IMAGE", "valuesByMode": {}}}}"#,
         "variables[\"V\"].resolvedType: IMAGE is none of"),
    ])
    func malformed(_ text: String, _ expected: String) {
        do {
            _ = try FigmaFile(bytes: Array(text.utf8))
            Issue.record("taken: \(text.prefix(80))")
        } catch {
            #expect(error.description.contains(expected), "\(error)")
        }
    }

    @Test("a written folder is in sync; an edited, a missing and a stale file are each named; other files are left alone")
    func folder() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("figma-folder-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let folder = ImportedFolder(path: path)
        let imported = FigmaImport(try FigmaFile(bytes: FigmaExample.bytes))
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        try Data(#"{"traits": {}}"#.utf8).write(to: URL(fileURLWithPath: path + "/theme.json"))

        #expect(folder.differences(from: imported.files).count == imported.files.count, "nothing there yet: every file is missing")
        try folder.write(imported.files)
        #expect(folder.differences(from: imported.files).isEmpty)
        #expect(FileManager.default.fileExists(atPath: path + "/theme.json"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: path + "/semantic").sorted() == ["dark.tokens.json", "light.tokens.json"], "no temporary file stays")

        try Data("{}".utf8).write(to: URL(fileURLWithPath: path + "/primitives.tokens.json"))
        try FileManager.default.removeItem(atPath: path + "/brand/acme.tokens.json")
        #expect(folder.differences(from: imported.files).map(\.description) == ["missing: brand/acme.tokens.json", "differs: primitives.tokens.json"])

        // The file loses its Brand collection: its files are stale, and a write removes them.
        let fewer = FigmaImport(try FigmaFile(json: Self.removingCollection("VariableCollectionId:3:0", from: try JSONParser.parse(FigmaExample.bytes))))
        #expect(folder.differences(from: fewer.files).map(\.description).contains("not in the file any more: brand/globex.tokens.json"))
        try folder.write(fewer.files)
        #expect(folder.differences(from: fewer.files).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: path + "/brand"), "the emptied mode folder goes")
        #expect(FileManager.default.fileExists(atPath: path + "/theme.json"))
    }
}
