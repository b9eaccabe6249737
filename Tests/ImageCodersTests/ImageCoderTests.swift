import BinaryReading
import Codecs
import Foundation
@testable import ImageCoders
import Testing
import TestSupport
import ThemeVocabulary

/// Images made here: an opaque gradient as PNG (our encoder), an SVG and a PDF drawn by hand, an
/// animated GIF.
enum Samples {
    static func gradient(width: Int, height: Int) -> Bitmap {
        var pixels = [UInt8]()
        pixels.reserveCapacity(width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                pixels += [UInt8(x * 255 / max(width - 1, 1)), UInt8(y * 255 / max(height - 1, 1)), UInt8((x + y) % 256), 255]
            }
        }
        return Bitmap(width: width, height: height, layout: .bgra8, pixels: pixels)
    }

    static func png(width: Int, height: Int) -> [UInt8] { PNG.encode(gradient(width: width, height: height)) }

    /// 40 x 20 points: the left half red, the right half blue.
    static let svg = Array("""
        <svg xmlns="http://www.w3.org/2000/svg" width="40" height="20" viewBox="0 0 40 20">
        <rect x="0" y="0" width="20" height="20" fill="#ff0000"/><rect x="20" y="0" width="20" height="20" fill="#0000ff"/></svg>
        """.utf8)

    /// The same drawing as a one-page PDF, its cross-reference table computed.
    static let pdf: [UInt8] = {
        let content = "1 0 0 rg 0 0 20 20 re f 0 0 1 rg 20 0 20 20 re f"
        let objects = [
            "<< /Type /Catalog /Pages 2 0 R >>",
            "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 40 20] /Contents 4 0 R >>",
            "<< /Length \(content.utf8.count) >>\nstream\n\(content)\nendstream",
        ]
        var text = "%PDF-1.4\n"
        var offsets: [Int] = []
        for (index, object) in objects.enumerated() {
            offsets.append(text.utf8.count)
            text += "\(index + 1) 0 obj\n\(object)\nendobj\n"
        }
        let xref = text.utf8.count
        text += "xref\n0 \(objects.count + 1)\n0000000000 65535 f \n"
        for offset in offsets { text += String(repeating: "0", count: 10 - String(offset).count) + "\(offset) 00000 n \n" }
        text += "trailer\n<< /Size \(objects.count + 1) /Root 1 0 R >>\nstartxref\n\(xref)\n%%EOF\n"
        return Array(text.utf8)
    }()

    /// Two 2 x 2 frames, red then blue (made with Pillow).
    static let animatedGIF: [UInt8] = [
        0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 0x02, 0x00, 0x02, 0x00, 0x81, 0x00, 0x00, 0xFF, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        0x00, 0x00, 0x00, 0x21, 0xFF, 0x0B, 0x4E, 0x45, 0x54, 0x53, 0x43, 0x41, 0x50, 0x45, 0x32, 0x2E, 0x30, 0x03, 0x01, 0x00, 0x00, 0x00,
        0x21, 0xF9, 0x04, 0x00, 0x0A, 0x00, 0x00, 0x00, 0x2C, 0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0x02, 0x00, 0x00, 0x08, 0x06, 0x00, 0x01,
        0x08, 0x04, 0x10, 0x10, 0x00, 0x21, 0xF9, 0x04, 0x01, 0x0A, 0x00, 0x01, 0x00, 0x2C, 0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0x02, 0x00,
        0x81, 0x00, 0x00, 0xFF, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x08, 0x06, 0x00, 0x01, 0x08, 0x04, 0x10, 0x10, 0x00,
        0x3B,
    ]

    /// A PNG whose header claims `width` x `height` (its CRC right), with no pixels behind it.
    static func bomb(width: UInt32, height: UInt32) -> [UInt8] {
        var bytes = png(width: 1, height: 1)
        // IHDR's data starts at 16: width, height (big-endian), then its CRC over type and data at 29.
        for (offset, value) in [(16, width), (20, height)] {
            for index in 0..<4 { bytes[offset + index] = UInt8(truncatingIfNeeded: value >> (24 - 8 * index)) }
        }
        let crc = crc32(Array(bytes[12..<29]))
        for index in 0..<4 { bytes[29 + index] = UInt8(truncatingIfNeeded: crc >> (24 - 8 * index)) }
        return bytes
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    /// The bytes as our PNG decoder reads them, after the registry made them PNG.
    static func pixels(_ bytes: [UInt8], registry: ImageCoderRegistry = ImageCoderRegistry()) throws -> Bitmap {
        let png = ImageFormat.sniff(bytes) == .png ? bytes : try registry.transcode(bytes, ImageRequest(format: .png)).bytes
        return try PNG.decode(ByteSpan(copying: png))
    }

    /// Peak signal-to-noise ratio of two bitmaps of the same size, in dB.
    static func psnr(_ a: Bitmap, _ b: Bitmap) -> Double {
        let squares = zip(a.pixels, b.pixels).reduce(0.0) { $0 + pow(Double($1.0) - Double($1.1), 2) }
        let mse = squares / Double(a.pixels.count)
        return mse == 0 ? .infinity : 10 * log10(255 * 255 / mse)
    }
}

@Suite("image coders")
struct ImageCoderTests {
    let registry = ImageCoderRegistry()

    @Test("the registry reads and writes the formats seed 004 names")
    func capabilities() {
        #expect(registry.decodable.isSuperset(of: [.png, .jpeg, .gif, .webp, .heic, .avif, .pdf, .svg]))
        #expect(registry.encodable == [.png, .webp, .avif, .jpeg])
    }

    @Test("lossless WebP from PNG gives back every pixel")
    func lossless() throws {
        let source = Samples.png(width: 64, height: 48)
        let original = try PNG.decode(ByteSpan(copying: source))
        for format in [ImageFormat.webp] {
            let coded = try registry.transcode(source, ImageRequest(format: format))
            #expect(coded.format == format && ImageFormat.sniff(coded.bytes) == format)
            #expect(try Samples.pixels(coded.bytes) == original, "\(format) round trip")
        }
    }

    @Test("lossy JPEG and AVIF stay close to the source", arguments: [ImageFormat.jpeg, .avif])
    func lossy(format: ImageFormat) throws {
        let photo = Samples.gradient(width: 64, height: 48)
        // A JPEG source, so AVIF is encoded lossy too.
        let jpeg = try registry.transcode(PNG.encode(photo), ImageRequest(format: .jpeg)).bytes
        let coded = format == .jpeg ? jpeg : try registry.transcode(jpeg, ImageRequest(format: format)).bytes
        #expect(ImageFormat.sniff(coded) == format)
        let psnr = Samples.psnr(try Samples.pixels(coded), photo)
        #expect(psnr > 30, "PSNR \(psnr) dB")
    }

    @Test("HEIF.size reads a real AVIF's header (the same boxes as HEIF): the size libvips encoded")
    func heifHeader() throws {
        let coded = try registry.transcode(Samples.png(width: 37, height: 23), ImageRequest(format: .avif)).bytes
        let size = try #require(HEIF.size(of: ByteSpan(copying: coded)))
        #expect((size.width, size.height) == (37, 23))
    }

    @Test("fit with w and h: contain inside the box, cover fills it and crops the centre, fill stretches", arguments: [
        (ImageRequest.Fit.contain, 100, 50, 50, 50), (.cover, 100, 50, 100, 50), (.fill, 100, 50, 100, 50),
        (.cover, 30, 90, 30, 90), (.contain, 30, 90, 30, 30),
    ] as [(ImageRequest.Fit, Int, Int, Int, Int)])
    func fit(fit: ImageRequest.Fit, width: Int, height: Int, expectedWidth: Int, expectedHeight: Int) throws {
        // A square: the top half red, the bottom half blue.
        let side = 256
        let pixels = (0..<side * side).flatMap { index -> [UInt8] in index / side < side / 2 ? [0, 0, 255, 255] : [255, 0, 0, 255] }
        let source = PNG.encode(Bitmap(width: side, height: side, layout: .bgra8, pixels: pixels))
        let coded = try registry.transcode(source, ImageRequest(format: .png, width: width, height: height, fit: fit))
        let bitmap = try Samples.pixels(coded.bytes)
        #expect((bitmap.width, bitmap.height) == (expectedWidth, expectedHeight), "\(fit) \(width)x\(height)")
        func pixel(_ x: Int, _ y: Int) -> [UInt8] { Array(bitmap.pixels[(y * bitmap.width + x) * 4 ..< (y * bitmap.width + x) * 4 + 4]) }
        if fit == .cover && width > height {
            // 100 x 100 cut to its middle 50 rows: red above the centre line, blue below, nothing else.
            #expect(pixel(50, 5) == [0, 0, 255, 255] && pixel(50, 44) == [255, 0, 0, 255])
        }
        if fit == .fill {
            #expect(pixel(50, 2) == [0, 0, 255, 255] && pixel(50, 47) == [255, 0, 0, 255], "stretched: both halves kept")
        }
    }

    @Test("the plan: cover never lands short of the box; fit changes nothing with one side only")
    func fitPlans() throws {
        let cover = try #require(VipsCoder.resizePlan(width: 1000, height: 333, ImageRequest(width: 100, height: 100, fit: .cover)))
        #expect(cover.scaled.width >= 100 && cover.scaled.height >= 100 && cover.crop.map { $0 == (100, 100) } == true)
        for fit in ImageRequest.Fit.allCases {
            let plan = try #require(VipsCoder.resizePlan(width: 512, height: 256, ImageRequest(width: 128, fit: fit)))
            #expect(plan.scaled == (128, 64) && plan.crop == nil, "\(fit)")
        }
        #expect(ImageRequest(width: 10, height: 10, fit: .cover).key != ImageRequest(width: 10, height: 10).key)
        #expect(ImageRequest(width: 10, fit: .cover).key == ImageRequest(width: 10).key, "one side: the same result, the same blob")
    }

    @Test("w and h resize keeping the aspect ratio", arguments: [
        (256, nil, 256, 128), (nil, 64, 128, 64), (100, 100, 100, 50), (1024, nil, 1024, 512),
    ] as [(Int?, Int?, Int, Int)])
    func resize(width: Int?, height: Int?, expectedWidth: Int, expectedHeight: Int) throws {
        let source = Samples.png(width: 512, height: 256)
        let coded = try registry.transcode(source, ImageRequest(format: .png, width: width, height: height))
        let bitmap = try Samples.pixels(coded.bytes)
        #expect((bitmap.width, bitmap.height) == (expectedWidth, expectedHeight))
    }

    @Test("a vector at a density between scales (Android's 1.5x, 2.625x) is drawn at it, not resized from a whole scale")
    func vectorsAtDensities() throws {
        for (source, name) in [(Samples.svg, "svg"), (Samples.pdf, "pdf")] {
            for (density, size) in [(1.5, (60, 30)), (2.625, (105, 53)), (4.0, (160, 80))] {
                let bitmap = try Samples.pixels(registry.transcode(source, ImageRequest(format: .png, scale: density)).bytes)
                #expect(abs(bitmap.width - size.0) <= 1 && abs(bitmap.height - size.1) <= 1, "\(name) @\(density)x: \(bitmap.width) x \(bitmap.height)")
            }
        }
    }

    @Test("a vector asked for as a bitmap is drawn at point size times scale, like the reference renderers")
    func vectors() throws {
        for (source, name) in [(Samples.svg, "svg"), (Samples.pdf, "pdf")] {
            for scale in [1, 2, 3] {
                let bitmap = try Samples.pixels(registry.transcode(source, ImageRequest(format: .png, scale: Double(scale))).bytes)
                #expect((bitmap.width, bitmap.height) == (40 * scale, 20 * scale), "\(name) @\(scale)x")
                // Left half red, right half blue (BGRA).
                let left = Array(bitmap.pixels[(bitmap.width / 4 + bitmap.width * bitmap.height / 2) * 4 ..< (bitmap.width / 4 + bitmap.width * bitmap.height / 2) * 4 + 4])
                let right = Array(bitmap.pixels[(3 * bitmap.width / 4 + bitmap.width * bitmap.height / 2) * 4 ..< (3 * bitmap.width / 4 + bitmap.width * bitmap.height / 2) * 4 + 4])
                #expect(left == [0, 0, 255, 255] && right == [255, 0, 0, 255], "\(name) @\(scale)x: \(left) \(right)")
            }
        }
    }

    @Test("rasterized vectors match rsvg-convert and pdftoppm pixel for pixel within rounding",
          .needsProgram("rsvg-convert", package: "librsvg2-bin"), .needsProgram("pdftoppm", package: "poppler-utils"))
    func vectorReferences() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("themed-vector-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let svg = folder.appendingPathComponent("drawing.svg"), pdf = folder.appendingPathComponent("drawing.pdf")
        try Data(Samples.svg).write(to: svg)
        try Data(Samples.pdf).write(to: pdf)
        let references: [(String, [String], URL, [UInt8])] = [
            ("rsvg-convert", ["-z", "2", "-o", folder.appendingPathComponent("svg.png").path, svg.path], folder.appendingPathComponent("svg.png"), Samples.svg),
            ("pdftoppm", ["-png", "-r", "144", "-singlefile", pdf.path, folder.appendingPathComponent("pdf").path], folder.appendingPathComponent("pdf.png"), Samples.pdf),
        ]
        for (tool, arguments, output, source) in references {
            let path = try #require(["/usr/bin/\(tool)", "/bin/\(tool)"].first(where: FileManager.default.isExecutableFile(atPath:)))
            let process = Process()
            process.executableURL = URL(fileURLWithPath: path)
            process.arguments = arguments
            try process.run()
            process.waitUntilExit()
            let reference = try Samples.pixels(Array(try Data(contentsOf: output)))
            let ours = try Samples.pixels(registry.transcode(source, ImageRequest(format: .png, scale: 2)).bytes)
            #expect((ours.width, ours.height) == (reference.width, reference.height), "\(tool) size")
            #expect(Samples.psnr(ours, reference) > 30, "\(tool): PSNR \(Samples.psnr(ours, reference))")
        }
    }

    @Test("animated GIF passes through as stored; nothing asked, nothing done")
    func passThrough() throws {
        #expect(try registry.transcode(Samples.animatedGIF, ImageRequest(format: .webp)).bytes == Samples.animatedGIF)
        let png = Samples.png(width: 4, height: 4)
        #expect(try registry.transcode(png, ImageRequest()).bytes == png)
    }

    @Test("a decompression bomb is refused on its header, before any pixel is decoded")
    func bombs() {
        let bomb = Samples.bomb(width: 100_000, height: 100_000)
        #expect(bomb.count < 100)
        #expect(throws: ImageCoderError.tooLarge(width: 100_000, height: 100_000, limit: 40_000_000)) {
            try registry.transcode(bomb, ImageRequest(format: .webp))
        }
        let strict = ImageCoderRegistry(limits: ImageLimits(maxPixels: 1000))
        #expect(throws: ImageCoderError.tooLarge(width: 64, height: 64, limit: 1000)) {
            try strict.transcode(Samples.png(width: 64, height: 64), ImageRequest(format: .webp))
        }
        #expect(throws: ImageCoderError.tooLarge(width: 400, height: 200, limit: 1000)) {
            try strict.transcode(Samples.svg, ImageRequest(format: .png, scale: 10))
        }
    }

    @Test("broken WebP, PDF and SVG are errors that say so", arguments: [
        Array("RIFF\u{10}\0\0\0WEBPVP8 garbage-garbage".utf8),
        Array("%PDF-1.4\nthis is not a pdf".utf8),
        Array("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"10\" height=\"10\"><rect".utf8),
    ])
    func broken(bytes: [UInt8]) {
        #expect {
            try registry.transcode(bytes, ImageRequest(format: .png))
        } throws: { error in
            guard case .broken? = error as? ImageCoderError else { return false }
            return true
        }
        #expect(throws: ImageCoderError.unsupported("bytes of no known image format")) {
            try registry.transcode(Array("plain text".utf8), ImageRequest(format: .png))
        }
    }

    @Test("Accept decides format=auto: AVIF, then WebP, by quality", arguments: [
        ("image/avif,image/webp,*/*", ImageFormat.avif), ("image/webp,*/*;q=0.8", .webp), ("image/avif;q=0, image/webp", .webp),
        ("image/png,*/*", nil), ("*/*", nil),
    ] as [(String, ImageFormat?)])
    func negotiation(accept: String, format: ImageFormat?) {
        #expect(ImageRequest.negotiate(accept: accept) == format)
    }
}
