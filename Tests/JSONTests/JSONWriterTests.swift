import JSON
import Testing

/// The writer that large answers are made with: separators placed by the writer, and strings
/// written as bytes by their owner where nothing needs escaping.
@Suite("JSON writer")
struct JSONWriterTests {
    func text(_ writer: JSONWriter) -> String { String(decoding: writer.bytes, as: UTF8.self) }

    @Test("a plain string takes its place among the members as any string does, compact and pretty")
    func plainStrings() throws {
        for pretty in [false, true] {
            var plain = JSONWriter(pretty: pretty), strings = JSONWriter(pretty: pretty)
            for writer in [0, 1] {
                func write(_ json: inout JSONWriter) {
                    json.beginObject()
                    json.key("hex")
                    if writer == 0 { json.plainString { $0.append(contentsOf: "#FF9500FF".utf8) } } else { json.string("#FF9500FF") }
                    json.key("list")
                    json.beginArray()
                    json.int(1)
                    if writer == 0 { json.plainString { _ in } } else { json.string("") }
                    json.endArray()
                    json.endObject()
                }
                if writer == 0 { write(&plain) } else { write(&strings) }
            }
            #expect(text(plain) == text(strings))
        }
        var compact = JSONWriter()
        compact.beginArray()
        compact.plainString { $0.append(contentsOf: "rgb(255 149 0 / 1)".utf8) }
        compact.plainString { $0.append(contentsOf: "a".utf8) }
        compact.endArray()
        #expect(text(compact) == #"["rgb(255 149 0 / 1)","a"]"#)
    }

    @Test("a literal key is written as a key given as a String is, compact and pretty")
    func literalKeys() {
        for pretty in [false, true] {
            var literal = JSONWriter(pretty: pretty), string = JSONWriter(pretty: pretty)
            literal.beginObject(); literal.key(literal: "alias"); literal.string("a"); literal.key(literal: "generation"); literal.int(2); literal.endObject()
            string.beginObject(); string.key("alias"); string.string("a"); string.key("generation"); string.int(2); string.endObject()
            #expect(text(literal) == text(string))
        }
    }

    @Test("members written once are appended to objects as if written there: commas placed, empty ones left out")
    func keptMembers() {
        let kept = JSONWriter.members { json in
            json.key(literal: "hex"); json.string("#FF9500FF")
            json.key(literal: "components"); json.beginArray(); json.double(1); json.double(0.5); json.endArray()
        }
        #expect(String(decoding: kept, as: UTF8.self) == ##""hex":"#FF9500FF","components":[1,0.5]"##)
        var json = JSONWriter()
        json.beginObject()
        json.members(kept)
        json.members([])
        json.key("theme"); json.string("brand")
        json.endObject()
        json.beginObject()
        json.key("first"); json.int(1)
        json.members(kept)
        json.endObject()
        #expect(text(json) == ##"{"hex":"#FF9500FF","components":[1,0.5],"theme":"brand"}{"first":1,"hex":"#FF9500FF","components":[1,0.5]}"##)
        #expect(JSONWriter.members { _ in }.isEmpty)
    }
}
