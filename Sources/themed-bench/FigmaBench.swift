import FigmaVariables
import Foundation
import JSON
import ThemeIndex

/// The Figma part of `make bench-tokens`: a file of 4,000 variables as the REST API answers it
/// (1,500 primitive colours; 1,500 semantic aliases over a light and a dark mode; 500 brand
/// colours over 4 brands; 500 lengths), imported (read, converted, written) and the written
/// theme indexed, each best of 5; the reference is `figma_ref.py` reading and resolving the same
/// file, run in the same process's turn.
enum FigmaBench {
    static func run(folder: String) throws -> [(String, JSONValue)] {
        let answer = "\(folder)/figma-variables.json"
        try TokenBench.write(figmaAnswer(), to: answer)
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: answer)))
        var files = 0
        let imported = try TokenBench.best {
            let folder = "\(folder)/figma/themes/figma"
            try? FileManager.default.removeItem(atPath: folder)
            let result = FigmaImport(try FigmaFile(bytes: bytes))
            try ImportedFolder(path: folder).write(result.files)
            files = result.files.count
        }
        let indexed = try TokenBench.best {
            let scratch = "\(folder)/figma-index-\(UUID().uuidString).sqlite"
            defer { try? FileManager.default.removeItem(atPath: scratch) }
            try ThemeIndex(databasePath: scratch).writer.sync(themesDirectory: "\(folder)/figma/themes")
        }
        var members: [(String, JSONValue)] = [("figmaVariables", .int(4000)), ("figmaFiles", .int(files)),
                                             ("figmaImportSeconds", .double(imported)), ("figmaIndexSeconds", .double(indexed))]
        if let reference = try TokenBench.referenceSeconds("figma_ref.py", [answer]) {
            members.append(("figmaReferenceSeconds", .double(reference)))
            members.append(("figmaImportVersusReference", .double(reference / imported)))
        }
        return members
    }

    static func collection(_ id: String, _ name: String, modes: [String]) -> (String, JSONValue) {
        (id, .object([("id", .string(id)), ("name", .string(name)), ("remote", false), ("defaultModeId", .string("\(id):0")),
                      ("modes", .array(modes.enumerated().map { .object([("modeId", .string("\(id):\($0.offset)")), ("name", .string($0.element))]) }))]))
    }

    static func variable(_ id: String, _ name: String, in collection: String, type: String, scopes: [String], values: [JSONValue]) -> (String, JSONValue) {
        (id, .object([("id", .string(id)), ("name", .string(name)), ("variableCollectionId", .string(collection)), ("resolvedType", .string(type)),
                      ("valuesByMode", .object(values.enumerated().map { ("\(collection):\($0.offset)", $0.element) })),
                      ("remote", false), ("description", ""), ("scopes", .array(scopes.map { .string($0) }))]))
    }

    static func rgba(_ number: Int) -> JSONValue {
        .object([("r", .double(Double(number % 256) / 255)), ("g", .double(Double(number * 7 % 256) / 255)), ("b", .double(Double(number * 13 % 256) / 255)), ("a", 1)])
    }

    static func alias(_ id: String) -> JSONValue { .object([("type", "VARIABLE_ALIAS"), ("id", .string(id))]) }

    static func figmaAnswer() -> JSONValue {
        var variables: [(String, JSONValue)] = []
        for number in 0..<1500 {
            variables.append(variable("P:\(number)", "palette/\(number / 100)/\(number % 100)", in: "P", type: "COLOR", scopes: ["ALL_SCOPES"], values: [rgba(number)]))
        }
        for number in 0..<500 {
            variables.append(variable("B:\(number)", "brand/accent/\(number)", in: "B", type: "COLOR", scopes: ["ALL_SCOPES"],
                                      values: (0..<4).map { alias("P:\((number * 3 + $0 * 101) % 1500)") }))
        }
        for number in 0..<1500 {
            let target = number % 3 == 0 ? "B:\(number % 500)" : "P:\(number)"
            variables.append(variable("S:\(number)", "semantic/\(number / 50)/role-\(number % 50)", in: "S", type: "COLOR", scopes: ["FRAME_FILL"],
                                      values: [alias(target), number % 2 == 0 ? alias("P:\(1499 - number)") : rgba(number + 1)]))
        }
        for number in 0..<500 {
            variables.append(variable("L:\(number)", "space/\(number)", in: "L", type: "FLOAT", scopes: ["GAP", "WIDTH_HEIGHT"], values: [.int(number * 2)]))
        }
        return .object([("status", 200), ("error", false), ("meta", .object([
            ("variableCollections", .object([collection("P", "Primitives", modes: ["Value"]), collection("B", "Brand", modes: ["A", "B", "C", "D"]),
                                             collection("S", "Semantic", modes: ["Light", "Dark"]), collection("L", "Layout", modes: ["Value"])])),
            ("variables", .object(variables)),
        ]))])
    }
}
