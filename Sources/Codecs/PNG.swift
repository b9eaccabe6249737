import BinaryReading

/// PNG encoding and decoding of `Bitmap`s, over the system zlib.
///
/// PNG stores straight (not premultiplied) alpha in R, G, B order, so encoding swaps CoreUI's
/// B, G, R and divides the colour by alpha; decoding multiplies it back.
public enum PNG {
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    // MARK: Encoding

    /// A PNG file of `bitmap`. Wide (float) pixels are clipped to 8-bit sRGB.
    ///
    /// Memory: the filtered rows, and the file written once into a buffer of zlib's bound whose
    /// pages past the compressed data are never touched (a large bitmap's encoding costs about
    /// one more copy of it, not three).
    public static func encode(_ bitmap: Bitmap) -> [UInt8] {
        let (colourType, rows) = filteredRows(bitmap)
        var header: [UInt8] = []
        header.appendBigEndian(UInt32(bitmap.width))
        header.appendBigEndian(UInt32(bitmap.height))
        header += [8, colourType, 0, 0, 0]
        let chunkFraming = 12 // length, type, CRC
        let capacity = signature.count + 3 * chunkFraming + header.count + Zlib.compressedBound(rows.count)
        return [UInt8](unsafeUninitializedCapacity: capacity) { file, count in
            func put(_ bytes: some Sequence<UInt8>) {
                for byte in bytes {
                    file[count] = byte
                    count += 1
                }
            }
            func putBigEndian(_ value: UInt32) { put([24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) }) }
            /// A chunk whose data `write` puts at the start of the buffer it is given, returning its length.
            func putChunk(_ type: String, _ write: (UnsafeMutableRawBufferPointer) -> Int) {
                let lengthAt = count
                put([0, 0, 0, 0])
                let typeAt = count
                put(type.utf8)
                count += write(UnsafeMutableRawBufferPointer(UnsafeMutableBufferPointer(rebasing: file[count...])))
                let length = UInt32(count - typeAt - 4)
                for (offset, shift) in [24, 16, 8, 0].enumerated() { file[lengthAt + offset] = UInt8(truncatingIfNeeded: length >> shift) }
                putBigEndian(Zlib.crc32(UnsafeRawBufferPointer(UnsafeMutableBufferPointer(rebasing: file[typeAt ..< count]))))
            }
            put(signature)
            putChunk("IHDR") { $0.copyBytes(from: header); return header.count }
            putChunk("IDAT") { out in rows.withUnsafeBytes { Zlib.compress($0, into: out) } }
            putChunk("IEND") { _ in 0 }
        }
    }

    /// Each row as a filter byte (Sub) followed by straight-alpha samples: every sample is
    /// written in place, then each row is filtered from its right end, where a sample's left
    /// neighbour is still unfiltered.
    private static func filteredRows(_ bitmap: Bitmap) -> (colourType: UInt8, rows: [UInt8]) {
        let (colourType, channels): (UInt8, Int) = switch bitmap.layout {
        case .gray8: (0, 1)
        case .grayAlpha8: (4, 2)
        case .bgr8: (2, 3)
        case .bgra8, .rgbaFloat32, .rgbaHalf16: (6, 4)
        }
        let rowBytes = bitmap.width * channels
        var rows = [UInt8](repeating: 0, count: (rowBytes + 1) * bitmap.height)
        let source = bitmap.pixels
        for y in 0..<bitmap.height {
            let rowStart = y * (rowBytes + 1)
            rows[rowStart] = 1 // Sub: each byte minus the same channel of the pixel to its left.
            for x in 0..<bitmap.width {
                let index = y * bitmap.width + x
                let out = rowStart + 1 + x * channels
                switch bitmap.layout {
                case .gray8:
                    rows[out] = source[index]
                case .bgr8:
                    rows[out] = source[index * 3 + 2]; rows[out + 1] = source[index * 3 + 1]; rows[out + 2] = source[index * 3]
                case .grayAlpha8:
                    let alpha = source[index * 2 + 1]
                    rows[out] = unpremultiply(source[index * 2], alpha); rows[out + 1] = alpha
                case .bgra8:
                    let alpha = source[index * 4 + 3]
                    rows[out] = unpremultiply(source[index * 4 + 2], alpha)
                    rows[out + 1] = unpremultiply(source[index * 4 + 1], alpha)
                    rows[out + 2] = unpremultiply(source[index * 4], alpha)
                    rows[out + 3] = alpha
                case .rgbaFloat32, .rgbaHalf16:
                    let values = (0..<4).map { floatSample(bitmap, pixel: index, channel: $0) }
                    let alpha = min(max(values[3], 0), 1)
                    for channel in 0..<3 {
                        let straightValue = alpha > 0 ? values[channel] / alpha : 0
                        rows[out + channel] = UInt8(min(max(straightValue, 0), 1) * 255 + 0.5)
                    }
                    rows[out + 3] = UInt8(alpha * 255 + 0.5)
                }
            }
            for x in stride(from: rowBytes - 1, through: channels, by: -1) {
                rows[rowStart + 1 + x] &-= rows[rowStart + 1 + x - channels]
            }
        }
        return (colourType, rows)
    }

    private static func floatSample(_ bitmap: Bitmap, pixel: Int, channel: Int) -> Float {
        if bitmap.layout == .rgbaFloat32 {
            let offset = pixel * 16 + channel * 4
            var bits: UInt32 = 0
            for byte in 0..<4 { bits |= UInt32(bitmap.pixels[offset + byte]) << (8 * UInt32(byte)) }
            return Float(bitPattern: bits)
        }
        let offset = pixel * 8 + channel * 2
        let bits = UInt16(bitmap.pixels[offset]) | UInt16(bitmap.pixels[offset + 1]) << 8
        return Float(Float16(bitPattern: bits))
    }

    /// `c × 255 / a`, rounded, as PNG's straight alpha needs.
    @inline(__always)
    static func unpremultiply(_ colour: UInt8, _ alpha: UInt8) -> UInt8 {
        guard alpha > 0 else { return 0 }
        return UInt8(min(255, (Int(colour) * 255 + Int(alpha) / 2) / Int(alpha)))
    }

    // MARK: Decoding

    /// The width and height a PNG's header gives (the first chunk of every valid PNG), without
    /// decoding anything.
    public static func size(of file: ByteSpan) -> (width: Int, height: Int)? {
        guard file.buffer.prefix(8).elementsEqual(signature), (try? file.fourCC(12)) == "IHDR",
              let width = try? file.int32be(16), let height = try? file.int32be(20) else { return nil }
        return (width, height)
    }

    /// Decodes an 8-bit, non-interlaced PNG (gray, RGB, palette, gray+alpha, RGBA) into
    /// premultiplied B, G, R, A pixels. Other PNGs are reported as unsupported.
    public static func decode(_ file: ByteSpan) throws -> Bitmap {
        let file = file.named("PNG")
        guard file.buffer.prefix(8).elementsEqual(signature) else {
            throw file.error(at: 0, "not a PNG signature")
        }
        var cursor = 8
        var width = 0, height = 0, colourType: UInt8 = 0
        var compressed: [UInt8] = []
        var palette: [UInt8] = [], transparency: [UInt8] = []
        while true {
            let length = try file.int32be(cursor)
            let type = try file.fourCC(cursor + 4)
            let data = try file.slice(cursor + 8, length, as: "PNG \(type) chunk")
            switch type {
            case "IHDR":
                width = try data.int32be(0)
                height = try data.int32be(4)
                colourType = try data.u8(9)
                guard try data.u8(8) == 8, try data.u8(12) == 0 else {
                    throw data.error(at: 8, "only 8-bit, non-interlaced PNGs are supported")
                }
                guard width > 0, height > 0, width <= 1 << 15, height <= 1 << 15 else {
                    throw data.error(at: 0, "size \(width)x\(height) is out of range")
                }
            case "PLTE": palette = data.bytes
            case "tRNS": transparency = data.bytes
            case "IDAT": compressed += data.bytes
            case "IEND":
                return try assemble(compressed, width: width, height: height, colourType: colourType,
                                    palette: palette, transparency: transparency, file: file)
            default: break
            }
            cursor += 12 + length
        }
    }

    private static func assemble(_ compressed: [UInt8], width: Int, height: Int, colourType: UInt8,
                                 palette: [UInt8], transparency: [UInt8], file: ByteSpan) throws -> Bitmap {
        guard let channels = [0: 1, 2: 3, 3: 1, 4: 2, 6: 4][Int(colourType)] else {
            throw file.error(at: 25, "unknown colour type \(colourType)")
        }
        let rowBytes = width * channels
        let raw = try compressed.withUnsafeBytes { try Zlib.decompress($0, limit: (rowBytes + 1) * height) }
        guard raw.count == (rowBytes + 1) * height else {
            throw file.error(at: 0, "image data holds \(raw.count) bytes, \(width)x\(height) needs \((rowBytes + 1) * height)")
        }
        var samples = [UInt8](repeating: 0, count: rowBytes * height)
        for y in 0..<height {
            let filter = raw[y * (rowBytes + 1)]
            for x in 0..<rowBytes {
                let value = raw[y * (rowBytes + 1) + 1 + x]
                let a = x >= channels ? samples[y * rowBytes + x - channels] : 0
                let b = y > 0 ? samples[(y - 1) * rowBytes + x] : 0
                let c = x >= channels && y > 0 ? samples[(y - 1) * rowBytes + x - channels] : 0
                let predicted: UInt8
                switch filter {
                case 0: predicted = 0
                case 1: predicted = a
                case 2: predicted = b
                case 3: predicted = UInt8((Int(a) + Int(b)) / 2)
                case 4: predicted = paeth(a, b, c)
                default: throw file.error(at: 0, "row \(y) uses unknown filter \(filter)")
                }
                samples[y * rowBytes + x] = value &+ predicted
            }
        }
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        for index in 0..<width * height {
            var rgba: (UInt8, UInt8, UInt8, UInt8)
            let s = index * channels
            switch colourType {
            case 0: rgba = (samples[s], samples[s], samples[s], 255)
            case 2: rgba = (samples[s], samples[s + 1], samples[s + 2], 255)
            case 3:
                let entry = Int(samples[s])
                guard entry * 3 + 2 < palette.count else { throw file.error(at: 0, "palette index \(entry) out of range") }
                rgba = (palette[entry * 3], palette[entry * 3 + 1], palette[entry * 3 + 2], entry < transparency.count ? transparency[entry] : 255)
            case 4: rgba = (samples[s], samples[s], samples[s], samples[s + 1])
            default: rgba = (samples[s], samples[s + 1], samples[s + 2], samples[s + 3])
            }
            let alpha = Int(rgba.3)
            func premultiply(_ value: UInt8) -> UInt8 { UInt8((Int(value) * alpha + 127) / 255) }
            pixels[index * 4] = premultiply(rgba.2)
            pixels[index * 4 + 1] = premultiply(rgba.1)
            pixels[index * 4 + 2] = premultiply(rgba.0)
            pixels[index * 4 + 3] = rgba.3
        }
        return Bitmap(width: width, height: height, layout: .bgra8, pixels: pixels)
    }

    private static func paeth(_ a: UInt8, _ b: UInt8, _ c: UInt8) -> UInt8 {
        let p = Int(a) + Int(b) - Int(c)
        let pa = abs(p - Int(a)), pb = abs(p - Int(b)), pc = abs(p - Int(c))
        if pa <= pb && pa <= pc { return a }
        return pb <= pc ? b : c
    }
}

extension Array where Element == UInt8 {
    mutating func appendBigEndian(_ value: UInt32) {
        append(contentsOf: [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)])
    }
}
