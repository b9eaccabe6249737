import Foundation
import Testing
import TestSupport
@testable import ThemeBundle

/// `.strings` tables in every form Xcode and older tools write them, and the errors a broken
/// one gives.
@Suite("strings files")
struct StringsFileTests {
    static let sample = """
    /* The greeting on the first screen. */
    "greeting" = "Bonjour";
    // A line comment.
    "quote" = "Il a dit \\"oui\\"\\n";
    bare_word = value.with-dots;
    "shorthand";
    "emoji" = "\\UD83D\\UDE00 \\U00E9";
    'single' = 'quoted';
    """

    static let expected = [
        "greeting": "Bonjour", "quote": "Il a dit \"oui\"\n", "bare_word": "value.with-dots", "shorthand": "shorthand",
        "emoji": "😀 é", "single": "quoted",
    ]

    @Test("UTF-8, UTF-8 with a BOM, UTF-16 LE/BE with a BOM, UTF-16 LE without one")
    func encodings() throws {
        let utf8 = Array(Self.sample.utf8)
        let utf16 = Array(Self.sample.utf16)
        let little = utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        let big = utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        for bytes in [utf8, [0xEF, 0xBB, 0xBF] + utf8, [0xFF, 0xFE] + little, [0xFE, 0xFF] + big, little] {
            #expect(try StringsFile(bytes: bytes).entries == Self.expected)
        }
    }

    @Test("a dictionary in braces, octal escapes and an empty file")
    func otherForms() throws {
        #expect(try StringsFile(bytes: Array("{ a = b; \"c\" = \"\\101\"; }".utf8)).entries == ["a": "b", "c": "A"])
        #expect(try StringsFile(bytes: Array("  /* only a comment */ ".utf8)).entries == [:])
    }

    @Test("binary and XML property lists")
    func propertyLists() throws {
        let table = ["title": "Titre", "ok": "D'accord"]
        for format in [PropertyListSerialization.PropertyListFormat.binary, .xml] {
            let data = try PropertyListSerialization.data(fromPropertyList: table, format: format, options: 0)
            #expect(try StringsFile(bytes: Array(data)).entries == table)
        }
        let notStrings = try PropertyListSerialization.data(fromPropertyList: ["n": 3], format: .binary, options: 0)
        #expect(throws: StringsFile.ParseError(line: 0, message: "the value of \"n\" is not a string")) { try StringsFile(bytes: Array(notStrings)) }
    }

    @Test("errors name the line and what was expected", arguments: [
        ("\"a\" = \"b\";\n\"c\" = \"d\"\n\"e\" = \"f\";", 3, "expected ';' after the entry for \"c\""),
        ("\"a\" = \"b;\n", 1, "string is not closed"),
        ("\"a\" = ;", 1, "expected a value after '=', found ';'"),
        ("/* never closed\n\"a\" = \"b\";", 1, "comment is not closed"),
        ("{ \"a\" = \"b\";", 1, "expected '}' before the end of the file"),
    ])
    func errors(_ text: String, _ line: Int, _ message: String) {
        #expect(throws: StringsFile.ParseError(line: line, message: message)) { try StringsFile(bytes: Array(text.utf8)) }
    }

    /// Bytes that matter to the grammar, for insertion.
    static let syntax = Array("\"\\;=/*{}'\n".utf8)

    @Test("5,000 mutated tables (flipped, dropped and inserted bytes): a table or a ParseError, never a crash")
    func mutations() {
        var random = SplitMix(seed: 0x5751)
        let utf16: [UInt8] = [0xFF, 0xFE] + Self.sample.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        let seeds: [[UInt8]] = [Array(Self.sample.utf8), utf16]
        var parsed = 0, rejected = 0
        for round in 0..<5_000 {
            let bytes = random.mutated(seeds[round % 2], by: [.flip, .delete, .insert(Self.syntax)], maximum: 5)
            do {
                _ = try StringsFile(bytes: bytes)
                parsed += 1
            } catch {
                rejected += 1
            }
        }
        #expect(parsed + rejected == 5_000)
        #expect(parsed > 0 && rejected > 0, "the mutations reach both outcomes: \(parsed) parsed, \(rejected) rejected")
    }

    @Test("bytes that are neither UTF-8 nor UTF-16 are an error, not a crash")
    func notText() {
        #expect(throws: StringsFile.ParseError.self) { try StringsFile(bytes: [0xC3, 0x28, 0x41, 0x42, 0x43]) }
    }
}
