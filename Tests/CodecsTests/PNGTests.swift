import BinaryReading
import Codecs
import Testing
import ThemeVocabulary

@Suite("PNG")
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
}
