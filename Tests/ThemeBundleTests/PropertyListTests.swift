import Foundation
import Testing
@testable import ThemeBundle

/// Binary property lists are read by themed's own checked reader (Foundation's crashes on some
/// malformed files); XML and OpenStep by Foundation.
@Suite("property lists")
struct PropertyListTests {
    nonisolated(unsafe) static let sample: [String: Any] = [
        "CFBundleIdentifier": "com.example.théme", "count": 42, "negative": -7, "big": 1 << 40, "ratio": 0.25, "yes": true, "no": false,
        "list": ["a", "b", ["nested": "c"]], "blob": Data([0, 1, 2]), "when": Date(timeIntervalSinceReferenceDate: 1000),
    ]

    @Test("binary property lists written by Foundation read back the same")
    func roundTrip() throws {
        let data = try PropertyListSerialization.data(fromPropertyList: Self.sample, format: .binary, options: 0)
        let read = try #require(try PropertyList.parse(Array(data)) as? [String: Any])
        #expect(read["CFBundleIdentifier"] as? String == "com.example.théme")
        #expect(read["count"] as? Int == 42)
        #expect(read["negative"] as? Int == -7)
        #expect(read["big"] as? Int == 1 << 40)
        #expect(read["ratio"] as? Double == 0.25)
        #expect(read["yes"] as? Bool == true && read["no"] as? Bool == false)
        #expect((read["list"] as? [Any])?.count == 3)
        #expect(((read["list"] as? [Any])?[2] as? [String: Any])?["nested"] as? String == "c")
        #expect(read["blob"] as? Data == Data([0, 1, 2]))
        #expect((read["when"] as? Date)?.timeIntervalSinceReferenceDate == 1000)
    }

    /// A binary property list from objects given as marker bytes: 2-byte offsets, 1-byte refs.
    static func binary(_ objects: [[UInt8]], top: Int = 0) -> [UInt8] {
        func be16(_ value: Int) -> [UInt8] { [UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
        var bytes = Array("bplist00".utf8)
        var offsets: [UInt8] = []
        for object in objects {
            offsets += be16(bytes.count)
            bytes += object
        }
        let table = bytes.count
        bytes += offsets
        bytes += [0, 0, 0, 0, 0, 0, 2, 1] + [0, 0, 0, 0, 0, 0] + be16(objects.count) + [0, 0, 0, 0, 0, 0] + be16(top)
            + [0, 0, 0, 0, 0, 0] + be16(table)
        return bytes
    }

    @Test("cycles, references to missing objects, bad offsets and truncation are errors")
    func malformed() {
        let cases: [(String, [UInt8])] = [
            ("array containing itself", Self.binary([[0xA1, 0]])),
            ("reference past the objects", Self.binary([[0xA1, 5]])),
            ("string past the end", Self.binary([[0x5F, 0x10, 200]])),
            ("dictionary key not a string", Self.binary([[0xD1, 1, 1], [0x10, 1]])),
            ("truncated", Array(Self.binary([[0x51, 0x61]]).dropLast(3))),
            ("unknown marker", Self.binary([[0x70]])),
            ("another binary version (Foundation would read it, and crash on its sets)", Array("bplist08".utf8) + Self.binary([[0x51, 0x61]]).dropFirst(8)),
        ]
        for (name, bytes) in cases {
            #expect(throws: PropertyList.Malformed.self, "\(name)") { try PropertyList.parse(bytes) }
        }
    }

    @Test("arrays that point at each other over and over do not expand without end")
    func expansion() {
        // Object i is an array of 15 references to object i+1: 15^20 leaves if expanded.
        var objects: [[UInt8]] = (0..<20).map { index in [0xAF, 0x10, 15] + [UInt8](repeating: UInt8(index + 1), count: 15) }
        objects.append([0x51, 0x61])
        #expect(throws: PropertyList.Malformed.self) { try PropertyList.parse(Self.binary(objects)) }
    }

    @Test("a set (the object Foundation's reader crashed on) is read as an array")
    func sets() throws {
        let read = try PropertyList.parse(Self.binary([[0xC2, 1, 2], [0x51, 0x61], [0x51, 0x62]]))
        #expect(read as? [String] == ["a", "b"])
    }

    @Test("XML and OpenStep still go through Foundation")
    func textFormats() throws {
        let xml = try PropertyListSerialization.data(fromPropertyList: ["k": "v"], format: .xml, options: 0)
        #expect((try PropertyList.parse(Array(xml)) as? [String: String]) == ["k": "v"])
        #expect((try PropertyList.parse(Array("{ k = v; }".utf8)) as? [String: String]) == ["k": "v"])
    }
}
