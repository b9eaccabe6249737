import Foundation
import Testing

/// docs/ARCHITECTURE.md's rule, checked against Package.swift: a target imports only those above
/// it in the table, never one below, and every target of the package has its row.
@Suite("layering")
struct LayeringTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Each target of Package.swift with the targets of this package it depends on (products of
    /// other packages are left out).
    static func targets(tests: Bool = false) throws -> [String: [String]] {
        let manifest = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
        var targets: [String: [String]] = [:]
        let kinds = tests ? "testTarget" : "target|executableTarget|systemLibrary"
        let declaration = try Regex(#"\.(?:"# + kinds + #")\(\s*name:\s*"([^"]+)"(.*?)\)(?:,\s*\n|\s*\n\s*\])"#)
            .dotMatchesNewlines()
        for match in manifest.matches(of: declaration) {
            guard let name = match.output[1].substring.map(String.init), let rest = match.output[2].substring else { continue }
            let list = rest.range(of: "dependencies:").map { rest[$0.upperBound...] } ?? ""
            let quoted = try Regex(#""([^"]+)""#)
            let products = try Regex(#"\.product\([^)]*\)?"#)
            let plain = String(list).replacing(products, with: "")
            let body = plain.split(separator: "]", maxSplits: 1).first.map(String.init) ?? ""
            targets[name] = body.matches(of: quoted).compactMap { $0.output[1].substring.map(String.init) }
        }
        return targets
    }

    /// The table's rows, top first: each row's target names.
    static func rows() throws -> [[String]] {
        let text = try String(contentsOf: root.appendingPathComponent("docs/ARCHITECTURE.md"), encoding: .utf8)
        return text.split(separator: "\n").filter { $0.hasPrefix("| `") }.map { line in
            let cell = line.dropFirst(2).prefix { $0 != "|" }
            return cell.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "`")) }
        }
    }

    @Test("every target has a row, and depends only on targets above it (system libraries are leaves)")
    func layering() throws {
        let targets = try Self.targets()
        let rows = try Self.rows()
        #expect(targets.count > 30, "Package.swift was read: \(targets.keys.sorted())")
        var rank: [String: Int] = [:]
        for (index, row) in rows.enumerated() { for name in row { rank[name] = index } }
        for name in targets.keys.sorted() {
            guard let own = rank[name] else { Issue.record("\(name) has no row in docs/ARCHITECTURE.md"); continue }
            for dependency in targets[name] ?? [] where !Self.isSystemLibrary(dependency, targets) {
                guard let theirs = rank[dependency] else { Issue.record("\(name) depends on \(dependency), which has no row"); continue }
                #expect(theirs < own || (theirs == own && dependency != name),
                        "\(name) depends on \(dependency), which is below it in docs/ARCHITECTURE.md")
            }
        }
    }

    @Test("the diagram at the top of docs/ARCHITECTURE.md names every target")
    func diagramIsWhole() throws {
        let text = try String(contentsOf: Self.root.appendingPathComponent("docs/ARCHITECTURE.md"), encoding: .utf8)
        let diagram = try #require(text.components(separatedBy: "```").dropFirst().first, "the first fenced block is the diagram")
        let words = Set(diagram.split { !($0.isLetter || $0.isNumber || $0 == "-") }.map(String.init))
        let targets = try Self.targets().keys
        #expect(targets.count > 30)
        let missing = targets.filter { !words.contains($0) }.sorted()
        #expect(missing.isEmpty, "the diagram does not show \(missing)")
    }

    @Test("the check sees a violation: a target made to depend on one below it is caught")
    func detectsViolations() throws {
        let rows = try Self.rows()
        let top = try #require(rows.first?.first), bottom = try #require(rows.dropLast().last?.first)
        #expect(top == "ThemeVocabulary" && bottom != top)
        let rank = Dictionary(rows.enumerated().flatMap { index, row in row.map { ($0, index) } }, uniquingKeysWith: { first, _ in first })
        #expect((rank[bottom] ?? 0) > (rank[top] ?? 0), "a dependency of \(top) on \(bottom) would be refused")
    }

    static func isSystemLibrary(_ name: String, _ targets: [String: [String]]) -> Bool {
        name.count > 1 && name.hasPrefix("C") && name.dropFirst().first?.isUppercase == true
    }
}
