import BinaryReading
import Codecs
import Testing

/// Builds deepmap chunks the way Apple's encoder lays them out (car-format.md 7.9), so that each
/// mode can be checked against pixels the test chose.
enum DeepmapWriter {
    static func chunk(deepmap2: Bool, mode: UInt8, chroma: UInt8 = 0, code: UInt8, width: Int, strip: Int = 0, body: [UInt8]) -> [UInt8] {
        var header = Array((deepmap2 ? "dmp2" : "dmap").utf8) + [mode, chroma, 10, code]
        if deepmap2 { header += le16(width) + le16(strip) }
        let rest = header + body
        return le32(deepmap2 ? 1 : 5) + le32(Int(code)) + le64(rest.count) + rest
    }

    /// `u32 length` + stream records; streams alternate between stored LZFSE and raw LZVN, as
    /// real files mix them.
    static func records(_ streams: [[UInt8]]) -> [UInt8] {
        streams.enumerated().flatMap { index, stream in
            let coded = index % 2 == 0 ? storedContainer(stream) : literalLZVN(stream)
            return le32(coded.count) + coded
        }
    }

    /// The mode-2 planes of one region: `samples[y][x][c]` filtered with `predictors[y]`.
    static func filtered(_ samples: [[[Int]]], alpha: [UInt8]?, predictors: [UInt8], padding: Int) -> [UInt8] {
        let rows = samples.count, width = samples[0].count, channels = samples[0][0].count
        var high: [UInt8] = [], low: [UInt8] = []
        for y in 0..<rows {
            for x in 0..<width {
                let left = x > 0 ? samples[y][x - 1] : [Int](repeating: 0, count: channels)
                let up = y > 0 ? samples[y - 1][x] : [Int](repeating: 0, count: channels)
                let upLeft = x > 0 && y > 0 ? samples[y - 1][x - 1] : [Int](repeating: 0, count: channels)
                let useLeft = x > 0 && abs(up[0] - upLeft[0]) <= abs(left[0] - upLeft[0])
                for c in 0..<channels {
                    let prediction = switch predictors[y] {
                    case 0: 0
                    case 1: useLeft ? left[c] : up[c]
                    case 2: left[c]
                    case 3: up[c]
                    default: x == 0 ? up[c] : (left[c] + up[c] + 1) / 2
                    }
                    let residual = samples[y][x][c] - prediction
                    let coded = residual >= 0 ? residual << 1 : (-residual) << 1 | 1
                    high.append(UInt8(coded >> 8 & 0xFF))
                    low.append(UInt8(coded & 0xFF))
                }
            }
        }
        var planes = (alpha ?? []) + predictors + high + low
        while planes.count % padding != 0 { planes.append(0) }
        return planes
    }

    /// YCoCg-R of one B, G, R pixel (exact inverse of the decoder's transform without chroma scaling).
    static func ycocg(blue: Int, green: Int, red: Int) -> [Int] {
        let co = blue - red
        let t = red + co / 2
        let cg = green - t
        return [t + cg / 2, co, cg]
    }
}

@Suite("deepmap")
struct DeepmapTests {
    /// A premultiplied test pattern: gray and alpha vary across the image.
    func grayAlphaImage(width: Int, rows: Int) -> [[(gray: Int, alpha: Int)]] {
        (0..<rows).map { y in (0..<width).map { x in
            let alpha = (x * 7 + y * 13) % 256
            return ((x * 3 + y) % (alpha + 1), alpha)
        } }
    }

    @Test("mode 2, gray + alpha, dmap tiles: every predictor, lossless")
    func mode2GrayTiles() throws {
        let width = 300, rows = 5
        let image = grayAlphaImage(width: width, rows: rows)
        let predictors: [UInt8] = [0, 1, 2, 3, 4]
        var streams: [[UInt8]] = []
        for x0 in [0, 256] {
            let w = min(256, width - x0)
            let samples = (0..<rows).map { y in (0..<w).map { [image[y][x0 + $0].gray] } }
            let alpha = (0..<rows).flatMap { y in (0..<w).map { UInt8(image[y][x0 + $0].alpha) } }
            streams.append(DeepmapWriter.filtered(samples, alpha: alpha, predictors: predictors, padding: 8))
        }
        let chunk = DeepmapWriter.chunk(deepmap2: false, mode: 2, code: 2, width: width, body: DeepmapWriter.records(streams))
        let bitmap = try Deepmap.decode(ByteSpan(copying: chunk), width: width, rows: rows)
        #expect(bitmap.layout == .grayAlpha8)
        #expect(bitmap.pixels == image.flatMap { $0.flatMap { [UInt8($0.gray), UInt8($0.alpha)] } })
        #expect(bitmap.isValidPremultiplied)
    }

    @Test("mode 2, BGRA, dmp2 strips: the colour transform inverts exactly without chroma scaling")
    func mode2ColourStrips() throws {
        let width = 20, rows = 11, strip = 4
        let pixels: [[[Int]]] = (0..<rows).map { y in (0..<width).map { x in
            let alpha = 255 - (x * 11 + y * 5) % 200
            return [(x * 29) % (alpha + 1), (y * 23) % (alpha + 1), (x * y) % (alpha + 1), alpha] // B, G, R, A
        } }
        var streams: [[UInt8]] = []
        for y0 in stride(from: 0, to: rows, by: strip) {
            let band = Array(pixels[y0 ..< min(rows, y0 + strip)])
            let samples = band.map { $0.map { DeepmapWriter.ycocg(blue: $0[0], green: $0[1], red: $0[2]) } }
            let alpha = band.flatMap { $0.map { UInt8($0[3]) } }
            streams.append(DeepmapWriter.filtered(samples, alpha: alpha, predictors: band.indices.map { UInt8(($0 + y0) % 5) }, padding: 16))
        }
        let chunk = DeepmapWriter.chunk(deepmap2: true, mode: 2, code: 4, width: width, strip: strip, body: DeepmapWriter.records(streams))
        let bitmap = try Deepmap.decode(ByteSpan(copying: chunk), width: width, rows: rows)
        #expect(bitmap.layout == .bgra8)
        #expect(bitmap.pixels == pixels.flatMap { $0.flatMap { $0.map(UInt8.init) } })
    }

    @Test("mode 2 wide pixels come out as float R, G, B, A with s0 on blue")
    func mode2Wide() throws {
        let samples = [[DeepmapWriter.ycocg(blue: 100, green: 300, red: 512)]] // units of 1/512
        let stream = DeepmapWriter.filtered(samples, alpha: [255], predictors: [0], padding: 16)
        let chunk = DeepmapWriter.chunk(deepmap2: true, mode: 2, code: 20, width: 1, strip: 1, body: DeepmapWriter.records([stream]))
        let bitmap = try Deepmap.decode(ByteSpan(copying: chunk), width: 1, rows: 1)
        #expect(bitmap.layout == .rgbaFloat32)
        let floats = (0..<4).map { index in
            Float(bitPattern: (0..<4).reduce(UInt32(0)) { $0 | UInt32(bitmap.pixels[index * 4 + $1]) << (8 * UInt32($1)) })
        }
        // Wide images store s0 in the blue slot: with this transform s0 = the value passed as red.
        #expect(floats == [100.0 / 512, 300.0 / 512, 1.0, 1.0])
    }

    @Test("mode 2 rejects wrong stream lengths, non-zero padding, unknown predictors and out-of-range colour")
    func mode2Errors() {
        let good = DeepmapWriter.filtered([[[5]]], alpha: [9], predictors: [0], padding: 16)
        func decode(_ stream: [UInt8]) throws {
            let chunk = DeepmapWriter.chunk(deepmap2: true, mode: 2, code: 2, width: 1, strip: 1, body: DeepmapWriter.records([stream]))
            _ = try Deepmap.decode(ByteSpan(copying: chunk), width: 1, rows: 1)
        }
        #expect(throws: Never.self) { try decode(good) }
        #expect(throws: FormatError.self) { try decode(good + [0]) }
        var padded = good
        padded[15] = 1
        #expect(throws: FormatError.self) { try decode(padded) }
        var predictor = good
        predictor[1] = 5
        #expect(throws: FormatError.self) { try decode(predictor) }
        #expect(throws: FormatError.self) { try decode(DeepmapWriter.filtered([[[300]]], alpha: [255], predictors: [0], padding: 16)) }
    }

    @Test("mode 1 holds raw pixels; mode 3 holds dmap tiles or dmp2 rows")
    func rawModes() throws {
        let width = 260, rows = 3
        let pixels = (0..<width * rows * 2).map { UInt8($0 % 200 / 2) }
        var pairs: [UInt8] = []
        for index in stride(from: 0, to: pixels.count, by: 2) {
            pairs += [min(pixels[index], pixels[index + 1]), pixels[index + 1]]
        }
        let raw = DeepmapWriter.chunk(deepmap2: true, mode: 1, code: 2, width: width, strip: rows, body: pairs)
        #expect(try Deepmap.decode(ByteSpan(copying: raw), width: width, rows: rows).pixels == pairs)

        func tile(_ x0: Int, _ w: Int) -> [UInt8] {
            var bytes: [UInt8] = []
            for y in 0..<rows {
                let start: Int = (y * width + x0) * 2
                bytes += pairs[start ..< start + w * 2]
            }
            return bytes
        }
        let tiles = DeepmapWriter.chunk(deepmap2: false, mode: 3, code: 2, width: width, body: DeepmapWriter.records([tile(0, 256), tile(256, 4)]))
        #expect(try Deepmap.decode(ByteSpan(copying: tiles), width: width, rows: rows).pixels == pairs)

        let halves = [Array(pairs[..<700]), Array(pairs[700...])]
        let strips = DeepmapWriter.chunk(deepmap2: true, mode: 3, code: 2, width: width, strip: 2, body: DeepmapWriter.records(halves))
        #expect(try Deepmap.decode(ByteSpan(copying: strips), width: width, rows: rows).pixels == pairs)

        let short = DeepmapWriter.chunk(deepmap2: false, mode: 3, code: 2, width: width, body: DeepmapWriter.records([tile(0, 256)]))
        #expect(throws: FormatError.self) { try Deepmap.decode(ByteSpan(copying: short), width: width, rows: rows) }
    }

    @Test("mode 4: palette type 4 takes whole entries; types 3 and 0 take alpha from a plane")
    func paletteModes() throws {
        let palette: [UInt8] = [10, 20, 30, 40, 1, 2, 3, 200] // two B, G, R, A entries
        let body4 = le16(2) + le16(4) + palette + DeepmapWriter.records([[0, 1, 1, 0]])
        let type4 = DeepmapWriter.chunk(deepmap2: true, mode: 4, code: 4, width: 2, strip: 2, body: body4)
        #expect(try Deepmap.decode(ByteSpan(copying: type4), width: 2, rows: 2).pixels == [10, 20, 30, 40, 1, 2, 3, 200, 1, 2, 3, 200, 10, 20, 30, 40])

        let body3 = le16(2) + le16(3) + palette + DeepmapWriter.records([[50, 60, 1, 0]])
        let type3 = DeepmapWriter.chunk(deepmap2: true, mode: 4, code: 4, width: 2, strip: 1, body: body3)
        #expect(try Deepmap.decode(ByteSpan(copying: type3), width: 2, rows: 1).pixels == [1, 2, 3, 50, 10, 20, 30, 60])

        let body0 = le16(2) + le16(0) + palette + DeepmapWriter.records([[70, 80, 0, 1]])
        let type0 = DeepmapWriter.chunk(deepmap2: false, mode: 4, code: 4, width: 2, body: body0)
        #expect(try Deepmap.decode(ByteSpan(copying: type0), width: 2, rows: 1).pixels == [10, 20, 30, 70, 1, 2, 3, 80])

        let outOfRange = le16(2) + le16(4) + palette + DeepmapWriter.records([[0, 2]])
        #expect(throws: FormatError.self) {
            try Deepmap.decode(ByteSpan(copying: DeepmapWriter.chunk(deepmap2: true, mode: 4, code: 4, width: 2, strip: 1, body: outOfRange)), width: 2, rows: 1)
        }
    }

    @Test("wrapper and header errors name what is wrong")
    func headerErrors() {
        var chunk = DeepmapWriter.chunk(deepmap2: true, mode: 1, code: 2, width: 1, strip: 1, body: [1, 2])
        chunk[8] = 99
        #expect(throws: FormatError.self) { try Deepmap.decode(ByteSpan(copying: chunk), width: 1, rows: 1) }
        let unknownCode = DeepmapWriter.chunk(deepmap2: true, mode: 1, code: 9, width: 1, strip: 1, body: [1])
        #expect(throws: FormatError.self) { try Deepmap.decode(ByteSpan(copying: unknownCode), width: 1, rows: 1) }
        let wrongWidth = DeepmapWriter.chunk(deepmap2: true, mode: 1, code: 2, width: 2, strip: 1, body: [1, 2])
        #expect(throws: FormatError.self) { try Deepmap.decode(ByteSpan(copying: wrongWidth), width: 1, rows: 1) }
        let unknownMode = DeepmapWriter.chunk(deepmap2: false, mode: 7, code: 2, width: 1, body: [])
        #expect(throws: FormatError.self) { try Deepmap.decode(ByteSpan(copying: unknownMode), width: 1, rows: 1) }
    }
}
