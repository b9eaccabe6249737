import BinaryReading
import Codecs
import Testing

@Suite("PNG and format sniffing")
struct PNGTests {
    @Test("premultiplied BGRA survives a PNG round trip where alpha is opaque or zero")
    func roundTrip() throws {
        let pixels: [UInt8] = [0, 0, 255, 255, 10, 20, 30, 255, 0, 0, 0, 0, 40, 50, 60, 255]
        let bitmap = Bitmap(width: 2, height: 2, layout: .bgra8, pixels: pixels)
        let file = PNG.encode(bitmap)
        #expect(ImageFormat.sniff(file) == .png)
        #expect(try PNG.decode(ByteSpan(copying: file)) == bitmap)
    }

    @Test("translucent pixels are un-premultiplied as c × 255 / a, rounded")
    func unpremultiplies() throws {
        let bitmap = Bitmap(width: 1, height: 1, layout: .bgra8, pixels: [32, 64, 100, 128])
        let decoded = try PNG.decode(ByteSpan(copying: PNG.encode(bitmap)))
        // Straight red = (100 × 255 + 64) / 128 = 199; premultiplied again: 199 × 128 / 255 ≈ 100.
        #expect(decoded.pixels == [32, 64, 100, 128])
    }

    @Test("gray + alpha bitmaps become gray PNGs and come back as BGRA")
    func grayAlpha() throws {
        let bitmap = Bitmap(width: 2, height: 1, layout: .grayAlpha8, pixels: [200, 255, 0, 0])
        let decoded = try PNG.decode(ByteSpan(copying: PNG.encode(bitmap)))
        #expect(decoded.pixels == [200, 200, 200, 255, 0, 0, 0, 0])
    }

    @Test("broken PNGs are errors")
    func rejectsBrokenPNG() {
        let file = PNG.encode(Bitmap(width: 3, height: 3, layout: .bgra8, pixels: [UInt8](repeating: 255, count: 36)))
        #expect(throws: FormatError.self) { try PNG.decode(ByteSpan(copying: Array(file.prefix(40)))) }
        #expect(throws: FormatError.self) { try PNG.decode(ByteSpan(copying: Array("not a png".utf8))) }
    }

    @Test("formats are recognised by their first bytes", arguments: [
        ([0xFF, 0xD8, 0xFF, 0xE0], ImageFormat.jpeg),
        (Array("GIF89a..".utf8), .gif),
        (Array("RIFF\0\0\0\0WEBPVP8 ".utf8), .webp),
        ([0, 0, 0, 24] + Array("ftypheic".utf8), .heic),
        (Array("%PDF-1.4".utf8), .pdf),
        (Array("<?xml version=\"1.0\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\"/>".utf8), .svg),
        (Array("bplist00".utf8), .binaryPlist),
    ] as [([UInt8], ImageFormat)])
    func sniffs(bytes: [UInt8], format: ImageFormat) {
        #expect(ImageFormat.sniff(bytes) == format)
    }

    @Test("unknown bytes are not given a format")
    func sniffsNothing() {
        #expect(ImageFormat.sniff(Array("hello".utf8)) == nil)
        #expect(ImageFormat.sniff([]) == nil)
    }

    @Test("the registry finds a coder by content and by target format; a new coder plugs in")
    func registry() throws {
        struct FakeGIF: ImageCoder {
            var format: ImageFormat { .gif }
            func decode(_ bytes: ByteSpan) throws -> Bitmap { Bitmap(width: 1, height: 1, layout: .gray8, pixels: [42]) }
            func canEncode(_ bitmap: Bitmap) -> Bool { false }
            func encode(_ bitmap: Bitmap) throws -> [UInt8] { [] }
        }
        var registry = ImageCoderRegistry()
        let gif = Array("GIF89a".utf8)
        #expect(throws: FormatError.self) { try registry.decode(ByteSpan(copying: gif)) }
        registry.register(FakeGIF())
        #expect(try registry.decode(ByteSpan(copying: gif)).pixels == [42])
        let bitmap = Bitmap(width: 1, height: 1, layout: .bgra8, pixels: [1, 2, 3, 255])
        #expect(try registry.decode(ByteSpan(copying: registry.encode(bitmap, as: .png))) == bitmap)
        #expect(throws: FormatError.self) { try registry.encode(bitmap, as: .gif) }
    }
}
