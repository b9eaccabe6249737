import Foundation
import JSON
import ThemeExport
import ThemeIndex

/// What `themed check` found in a theme, and which of it is new against a baseline: the problems
/// a team already lives with (written once with `--write-baseline`, or the theme as it was at a
/// git ref) do not fail the check; one more of the same kind does.
public struct CheckFindings: Sendable, Equatable {
    /// One line each, as the server reports them (`file#pointer: what`).
    public var errors: [String]
    public var warnings: [String]

    public init(errors: [String], warnings: [String]) {
        (self.errors, self.warnings) = (errors, warnings)
    }

    /// Those of these findings that `baseline` does not have. Lines are compared by what they
    /// say, without the counts a warning line adds (`and 3 more like it`): a line the baseline has
    /// twice excuses two.
    public func new(since baseline: CheckFindings) -> CheckFindings {
        func unmatched(_ lines: [String], _ known: [String]) -> [String] {
            var left = Dictionary(known.map { (Self.identity($0), 1) }, uniquingKeysWith: +)
            return lines.filter { line in
                let identity = Self.identity(line)
                guard let count = left[identity], count > 0 else { return true }
                left[identity] = count - 1
                return false
            }
        }
        return CheckFindings(errors: unmatched(errors, baseline.errors), warnings: unmatched(warnings, baseline.warnings))
    }

    /// A line without the tallies that change when an unrelated token of its kind comes or goes.
    static func identity(_ line: String) -> String {
        var text = line
        for pattern in [#"; and \d+ more like it in \S+$"#, #" and \d+ more tokens"#] {
            if let range = text.range(of: pattern, options: .regularExpression) { text.removeSubrange(range) }
        }
        return text
    }

    // MARK: The baseline file

    /// Why a baseline file cannot be used: the check stops (exit status 2) rather than fail or
    /// pass on a file it did not read.
    public struct UnreadableBaseline: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    static let fileFormat = "themed-check-baseline"

    /// `{"format": "themed-check-baseline", "version": 1, "theme": ..., "errors": [...], "warnings": [...]}`,
    /// one line per finding so that a pull request that fixes one shows as one line removed.
    public func baselineFile(theme: String) -> String {
        func list(_ lines: [String]) -> String {
            lines.isEmpty ? "[]" : "[\n" + lines.map { "    " + JSONValue.string($0).serialized() }.joined(separator: ",\n") + "\n  ]"
        }
        return "{\n  \"format\": \"\(Self.fileFormat)\",\n  \"version\": 1,\n  \"theme\": \(JSONValue.string(theme).serialized()),\n"
            + "  \"errors\": \(list(errors)),\n  \"warnings\": \(list(warnings))\n}\n"
    }

    public init(baselineFile bytes: [UInt8], path: String) throws(UnreadableBaseline) {
        let document: JSONValue
        do { document = try JSONParser.parse(bytes) } catch { throw UnreadableBaseline(description: "\(path): not JSON: \(error)") }
        guard document["format"] == .string(Self.fileFormat), document["version"] == .int(1) else {
            throw UnreadableBaseline(description: "\(path): not a themed check baseline (write one with --write-baseline)")
        }
        func lines(_ key: String) throws(UnreadableBaseline) -> [String] {
            guard case .array(let items)? = document[key] else { throw UnreadableBaseline(description: "\(path): \(key) must be a list of lines") }
            var lines: [String] = []
            for item in items {
                guard case .string(let line) = item else { throw UnreadableBaseline(description: "\(path): \(key) must be a list of lines") }
                lines.append(line)
            }
            return lines
        }
        self.init(errors: try lines("errors"), warnings: try lines("warnings"))
    }
}

/// Where in a JSON file a value begins, for an annotation that points at the line of a token.
public enum JSONPointerLine {
    /// The line (from 1) of the value `pointer` names in `text`: the line of its key in an
    /// object, of the value itself in an array; 1 for the whole document; nil when the text has
    /// no such value or is no JSON this scanner follows.
    public static func line(of pointer: String, in text: [UInt8]) -> Int? {
        if pointer.isEmpty { return 1 }
        guard pointer.hasPrefix("/") else { return nil }
        let target = pointer.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
            .map { $0.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~") }

        struct Frame { var isObject: Bool; var key: String?; var index: Int }
        var stack: [Frame] = []
        var line = 1
        var position = 0
        var expectingKey = false
        func path() -> [String] { stack.map { $0.isObject ? ($0.key ?? "") : String($0.index) } }
        /// A value begins here: an element of an array is named by its index.
        func elementStarts() -> Bool { stack.last.map { !$0.isObject } == true && path() == target }

        while position < text.count {
            let byte = text[position]
            switch byte {
            case UInt8(ascii: "\n"):
                line += 1
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                if elementStarts() { return line }
                stack.append(Frame(isObject: byte == UInt8(ascii: "{"), key: nil, index: 0))
                expectingKey = byte == UInt8(ascii: "{")
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                guard !stack.isEmpty else { return nil }
                stack.removeLast()
            case UInt8(ascii: ","):
                guard let top = stack.indices.last else { return nil }
                if stack[top].isObject { expectingKey = true } else { stack[top].index += 1 }
            case UInt8(ascii: "\""):
                var string: [UInt8] = []
                position += 1
                while position < text.count, text[position] != UInt8(ascii: "\"") {
                    if text[position] == UInt8(ascii: "\\"), position + 1 < text.count {
                        position += 1
                        switch text[position] {
                        case UInt8(ascii: "n"): string.append(UInt8(ascii: "\n"))
                        case UInt8(ascii: "t"): string.append(UInt8(ascii: "\t"))
                        default: string.append(text[position])
                        }
                    } else {
                        string.append(text[position])
                    }
                    position += 1
                }
                if let top = stack.indices.last, stack[top].isObject, expectingKey {
                    stack[top].key = String(decoding: string, as: UTF8.self)
                    expectingKey = false
                    if path() == target { return line }
                } else if elementStarts() {
                    return line
                }
            case UInt8(ascii: ":"), UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"):
                break
            default:
                // A number, true, false or null: one value, read to its end.
                if elementStarts() { return line }
                while position + 1 < text.count, !",}]\n \t\r".utf8.contains(text[position + 1]) { position += 1 }
            }
            position += 1
        }
        return nil
    }
}

extension CheckFindings {
    /// What `themed check` reports of the theme at `path` (a folder or a lone .car, its parents
    /// from `parents`, by default the folder beside it), and the theme's name: the errors and
    /// warnings a sync says of it, and each contrast pair below its minimum (an error under
    /// policy "refuse", else a warning). A theme with no pair is not indexed (`ThemeProblems`):
    /// only the pairs need its colours looked up.
    public static func reading(_ path: String, parentsIn parents: String? = nil) throws -> (theme: String, findings: CheckFindings) {
        let scratch = try ThemeSnapshot.ScratchThemes(linking: path, parentsIn: parents)
        defer { scratch.remove() }
        guard scratch.settings.checksContrast else {
            guard let problems = ThemeProblems(theme: scratch.name, themesDirectory: scratch.themes) else {
                throw ThemeSnapshot.Unreadable(description: "\(path): not read as a theme")
            }
            return (scratch.name, CheckFindings(errors: problems.errors, warnings: problems.warnings))
        }
        let snapshot = try ThemeSnapshot(reading: path, parentsIn: parents, imageBytes: 0, extent: .check)
        let contrast = ContrastReport(table: snapshot.colors, settings: snapshot.settings)
        var errors = snapshot.info.error.split(separator: "\n").map(String.init)
        var warnings = snapshot.info.warning.split(separator: "\n").map(String.init)
        let lines = contrast.failures.map(ContrastReport.describe)
        if contrast.refuses { errors += lines } else { warnings += lines }
        return (snapshot.info.name, CheckFindings(errors: errors, warnings: warnings))
    }
}
