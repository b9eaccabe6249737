import JSON
import Testing

/// Typed bodies written through `JSONValueEncoder`: the same text the `JSONValue` literals they
/// replace gave, member for member.
@Suite("JSON value encoder")
struct JSONValueEncoderTests {
    struct Release: Encodable {
        var theme: String
        var generation: Int64
        var percent: Double
        var current: Bool
        var rollbackOf: Int?
        var approvers: [String]?
        var diff: JSONValue?
    }

    @Test("members in declaration order; nil optionals left out; integers stay integers; a JSONValue is taken as it is")
    func typedBody() throws {
        let release = Release(theme: "dark", generation: 42, percent: 12.5, current: true, rollbackOf: nil, approvers: ["ana", "bo"],
                              diff: .object([("z", .int(1)), ("a", .null)]))
        let encoded = try JSONValueEncoder().encode(release)
        #expect(encoded == .object([("theme", "dark"), ("generation", .int(42)), ("percent", .double(12.5)), ("current", .bool(true)),
                                    ("approvers", .array(["ana", "bo"])), ("diff", .object([("z", .int(1)), ("a", .null)]))]))
        #expect(encoded.serialized() == #"{"theme":"dark","generation":42,"percent":12.5,"current":true,"approvers":["ana","bo"],"diff":{"z":1,"a":null}}"#)
    }

    @Test("arrays, nested objects and single values; a JSONValue encodes to itself")
    func shapes() throws {
        #expect(try JSONValueEncoder().encode([[1, 2], [3]]) == .array([.array([.int(1), .int(2)]), .array([.int(3)])]))
        #expect(try JSONValueEncoder().encode(["only": ["a": true]]) == .object([("only", .object([("a", .bool(true))]))]))
        #expect(try JSONValueEncoder().encode("text") == .string("text"))
        let value: JSONValue = .object([("b", .array([.double(0.5), .null])), ("a", .string("é"))])
        #expect(try JSONValueEncoder().encode(value) == value)
        #expect(try JSONValueEncoder().encode([value]) == .array([value]))
    }

    @Test("a number JSON cannot write is an error naming where it is")
    func unwritableNumbers() {
        struct Reading: Encodable { var values: [Double] }
        #expect(throws: JSONValueEncoder.Failure.self) { try JSONValueEncoder().encode(Reading(values: [1, .nan])) }
        do {
            _ = try JSONValueEncoder().encode(Reading(values: [1, .infinity]))
            Issue.record("an infinity was encoded")
        } catch {
            #expect("\(error)".contains(".values[1]"), "\(error)")
        }
        #expect(throws: JSONValueEncoder.Failure.self) { try JSONValueEncoder().encode([UInt64.max]) }
    }

    @Test("a Nullable member is written null when absent, where a plain optional is left out")
    func nullable() throws {
        struct Active: Encodable {
            @Nullable var theme: String?
            var note: String?
        }
        #expect(try JSONValueEncoder().encode(Active(theme: nil, note: nil)).serialized() == #"{"theme":null}"#)
        #expect(try JSONValueEncoder().encode(Active(theme: "dark", note: "x")).serialized() == #"{"theme":"dark","note":"x"}"#)
    }

    @Test("OrderedMembers writes data-named members in the order given")
    func orderedMembers() throws {
        let table = OrderedMembers([(name: "zebra", value: "Z"), (name: "apple", value: "A"), (name: "mango", value: "M")])
        #expect(try JSONValueEncoder().encode(table).serialized() == #"{"zebra":"Z","apple":"A","mango":"M"}"#)
    }
}
