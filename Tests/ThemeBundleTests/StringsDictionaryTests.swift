import Foundation
import Testing
@testable import ThemeBundle

/// `.stringsdict` plural tables: each key served as its format with the `other` forms filled in.
@Suite("strings dictionaries")
struct StringsDictionaryTests {
    static func plist(_ value: Any) -> [UInt8] {
        Array((try? PropertyListSerialization.data(fromPropertyList: value, format: .xml, options: 0)) ?? Data())
    }

    static var files: [String: Any] { [
        "NSStringLocalizedFormatKey": "%#@files@ in %#@folders@",
        "files": ["NSStringFormatSpecTypeKey": "NSStringPluralRuleType", "NSStringFormatValueTypeKey": "d",
                  "one": "%d file", "other": "%d files"],
        "folders": ["NSStringFormatSpecTypeKey": "NSStringPluralRuleType", "NSStringFormatValueTypeKey": "d",
                    "one": "one folder", "other": "%d folders"],
    ] }

    @Test("every variable takes its other form; text around them stays")
    func otherForms() throws {
        let table = try StringsDictionary(bytes: Self.plist(["%d files in %d folders": Self.files,
                                                             "plain": ["NSStringLocalizedFormatKey": "no variables"]]))
        #expect(table.entries == ["%d files in %d folders": "%d files in %d folders", "plain": "no variables"])
    }

    @Test("forms per category of the first variable, the other variables in their other form")
    func forms() throws {
        let table = try StringsDictionary(bytes: Self.plist(["%d files in %d folders": Self.files]))
        #expect(table.forms["%d files in %d folders"] == ["one": "%d file in %d folders", "other": "%d files in %d folders"])
    }

    @Test("a variable without an other form stays as written")
    func missingOther() throws {
        let rule: [String: Any] = ["NSStringLocalizedFormatKey": "%#@n@!", "n": ["one": "one"]]
        #expect(try StringsDictionary(bytes: Self.plist(["k": rule])).entries == ["k": "%#@n@!"])
    }

    @Test("malformed tables are errors", arguments: ["not a plist at all", "<?xml version=\"1.0\"?><plist><array/></plist>"])
    func malformed(_ text: String) {
        #expect(throws: StringsDictionary.ParseError.self) { try StringsDictionary(bytes: Array(text.utf8)) }
        #expect(throws: StringsDictionary.ParseError(description: "\"k\": no NSStringLocalizedFormatKey")) {
            try StringsDictionary(bytes: Self.plist(["k": ["files": [:]]]))
        }
    }
}
