import Review
import Testing

@Suite("check findings against a baseline")
struct CheckFindingsTests {
    @Test("only what the baseline lacks is new; a line it has twice excuses two; the tallies of a warning line do not count")
    func newSinceBaseline() {
        let baseline = CheckFindings(errors: ["a.json#/x: alias {y} names no token", "a.json#/x: alias {y} names no token"],
                                     warnings: ["a.json#/c: \"#fff\" read as an sRGB colour (draft-form); and 3 more like it in a.json"])
        let now = CheckFindings(errors: ["a.json#/x: alias {y} names no token", "a.json#/x: alias {y} names no token",
                                         "a.json#/x: alias {y} names no token", "a.json#/z: alias {color.grey.900} names no token"],
                                warnings: ["a.json#/c: \"#fff\" read as an sRGB colour (draft-form); and 4 more like it in a.json"])
        let new = now.new(since: baseline)
        #expect(new.errors == ["a.json#/x: alias {y} names no token", "a.json#/z: alias {color.grey.900} names no token"])
        #expect(new.warnings.isEmpty, "one more token of a known kind is the same line")
    }

    @Test("a baseline file reads back as written; what is not one is refused, naming the file")
    func baselineFile() throws {
        let findings = CheckFindings(errors: ["b.json#/a: \"quoted\" and \\ slash"], warnings: [])
        let text = findings.baselineFile(theme: "brand")
        #expect(try CheckFindings(baselineFile: Array(text.utf8), path: "base.json") == findings)
        #expect(throws: CheckFindings.UnreadableBaseline.self) { try CheckFindings(baselineFile: Array("{}".utf8), path: "x.json") }
        #expect(throws: CheckFindings.UnreadableBaseline.self) { try CheckFindings(baselineFile: Array("not json".utf8), path: "x.json") }
    }

    @Test("the line of the value a JSON pointer names: a key's line in an object, an element's in an array", arguments: [
        ("/color/brand", 3), ("/color/brand/$value", 4), ("/list/1", 8), ("/list/2/deep", 9), ("/a~1b", 11), ("", 1), ("/nowhere", nil),
    ] as [(String, Int?)])
    func pointerLines(_ pointer: String, _ line: Int?) {
        let text = """
        {
          "color": {
            "brand": {
              "$value": "#ff6600", "note": "a \\"quoted\\" {brace}"
            }
          },
          "list": [1,
            "two",
            {"deep": true}
          ],
          "a/b": null
        }
        """
        #expect(JSONPointerLine.line(of: pointer, in: Array(text.utf8)) == line)
    }
}
