import Foundation
import JSON
import Testing

/// The JSON reader of token files: what it keeps (member order, exact integers), what it refuses
/// (with the line and column), and that no input traps it.
@Suite("JSON parser")
struct JSONParserTests {
    func parse(_ text: String) throws(JSONParser.Failure) -> JSONValue { try JSONParser.parse(Array(text.utf8)) }

    @Test("objects keep their members in the file's order; integers stay integers; serialising gives the text back")
    func roundTrip() throws {
        let text = #"{"z":1,"a":[true,false,null,-0.5,1e3,"x\"y\\\/\n\u00e9\ud83d\ude00"],"m":{"b":{},"c":[]}}"#
        let value = try parse(text)
        guard case .object(let members) = value else { Issue.record("not an object"); return }
        #expect(members.map(\.0) == ["z", "a", "m"])
        #expect(value["z"] == .int(1))
        #expect(value["a"] == .array([.bool(true), .bool(false), .null, .double(-0.5), .double(1000), .string("x\"y\\/\né😀")]))
        #expect(try parse(value.serialized()).serialized() == value.serialized(), "what the writer writes, the reader reads back")
        #expect(try parse("\u{FEFF}  [1]\n") == .array([.int(1)]), "a byte order mark and white space around the value")
    }

    @Test("a repeated member: the last wins, in the place of the last")
    func repeatedMember() throws {
        #expect(try parse(#"{"a":1,"b":2,"a":3}"#) == .object([("b", .int(2)), ("a", .int(3))]))
    }

    @Test("what is not JSON is refused with the line and column")
    func errors() {
        let cases: [(String, Int, Int, String)] = [
            ("{\n  \"a\": 1,\n}", 3, 1, "expected a member name"),
            ("{\"a\" 1}", 1, 6, "expected ':'"),
            ("[1, 2", 1, 6, "expected ',' or ']'"),
            ("01", 1, 3, "may not start with 0"),
            ("\"tab\there\"", 1, 5, "control character"),
            ("[1] [2]", 1, 5, "text after the JSON value"),
            ("", 1, 1, "ends where a value should be"),
            ("nul", 1, 1, "expected null"),
            ("\"\\x\"", 1, 4, "unknown escape"),
            ("1e999", 1, 6, "not a number JSON can hold"),
        ]
        for (text, line, column, words) in cases {
            do {
                _ = try parse(text)
                Issue.record("\(text.debugDescription) was accepted")
            } catch {
                #expect(error.line == line && error.column == column && error.reason.contains(words), "\(text.debugDescription): \(error)")
            }
        }
    }

    @Test("nesting past the cap is refused, not a crash")
    func depth() throws {
        let deep = String(repeating: "[", count: JSONParser.maximumDepth + 1) + String(repeating: "]", count: JSONParser.maximumDepth + 1)
        #expect(throws: JSONParser.Failure.self) { try parse(deep) }
        let fine = String(repeating: "[", count: JSONParser.maximumDepth) + String(repeating: "]", count: JSONParser.maximumDepth)
        #expect(throws: Never.self) { try parse(fine) }
    }

    @Test("what Foundation accepts, this accepts with the same values; random bytes never trap")
    func agreesWithFoundation() throws {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array(#"{}[]":,0123456789.-eE tnulrfas\"#.utf8)
        for _ in 0..<3000 {
            let bytes = (0..<Int.random(in: 0...24, using: &generator)).map { _ in alphabet.randomElement(using: &generator) ?? 0 }
            let mine = try? JSONParser.parse(bytes)
            let theirs = try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])
            if mine != nil, theirs == nil { Issue.record("accepted what Foundation refuses: \(String(decoding: bytes, as: UTF8.self))") }
        }
    }
}
