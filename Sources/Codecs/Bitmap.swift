/// How the pixels of a decoded bitmap are laid out in memory.
///
/// These are CoreUI's native layouts, which every codec produces so that cropping, hashing and
/// PNG encoding need to know only one convention per format.
public enum PixelLayout: String, Sendable, Equatable {
    /// 8-bit B, G, R, A, premultiplied (CSI `ARGB`).
    case bgra8
    /// 8-bit gray, alpha, premultiplied (CSI `GA8 `).
    case grayAlpha8
    /// 8-bit gray without alpha (deepmap pixel code 1).
    case gray8
    /// 8-bit B, G, R without alpha (deepmap pixel code 3).
    case bgr8
    /// Little-endian float32 R, G, B, A, premultiplied, extended range (wide `RGBW` deepmap).
    case rgbaFloat32
    /// binary16 R, G, B, A as stored by raw wide deepmap chunks.
    case rgbaHalf16

    public var bytesPerPixel: Int {
        switch self {
        case .bgra8: 4
        case .grayAlpha8: 2
        case .gray8: 1
        case .bgr8: 3
        case .rgbaFloat32: 16
        case .rgbaHalf16: 8
        }
    }
}

/// A decoded image: tight rows, top row first.
public struct Bitmap: Sendable, Equatable {
    public var width: Int
    public var height: Int
    public var layout: PixelLayout
    public var pixels: [UInt8]

    public init(width: Int, height: Int, layout: PixelLayout, pixels: [UInt8]) {
        self.width = width
        self.height = height
        self.layout = layout
        self.pixels = pixels
    }

    public var bytesPerRow: Int { width * layout.bytesPerPixel }

    /// Every pixel fully opaque (8-bit layouts; wide ones count as opaque when they have no
    /// alpha channel only).
    public var isOpaque: Bool {
        switch layout {
        case .gray8, .bgr8: true
        case .bgra8: stride(from: 3, to: pixels.count, by: 4).allSatisfy { pixels[$0] == 255 }
        case .grayAlpha8: stride(from: 1, to: pixels.count, by: 2).allSatisfy { pixels[$0] == 255 }
        case .rgbaFloat32, .rgbaHalf16: false
        }
    }

    /// The rectangle `x, y, width, height` (top-left origin), or nil when it leaves the bitmap.
    public func cropped(x: Int, y: Int, width cropWidth: Int, height cropHeight: Int) -> Bitmap? {
        guard x >= 0, y >= 0, cropWidth >= 0, cropHeight >= 0,
              x <= width - cropWidth, y <= height - cropHeight else { return nil }
        let bpp = layout.bytesPerPixel
        var result = [UInt8]()
        result.reserveCapacity(cropWidth * cropHeight * bpp)
        for row in y ..< y + cropHeight {
            let start = (row * width + x) * bpp
            result.append(contentsOf: pixels[start ..< start + cropWidth * bpp])
        }
        return Bitmap(width: cropWidth, height: cropHeight, layout: layout, pixels: result)
    }

    /// The bitmap mirrored left to right: how a flippable rendition is drawn for the opposite
    /// layout direction.
    public func mirroredHorizontally() -> Bitmap {
        let bpp = layout.bytesPerPixel
        var result = pixels
        for row in 0..<height {
            for column in 0..<width {
                let from = (row * width + column) * bpp, to = (row * width + width - 1 - column) * bpp
                for byte in 0..<bpp { result[to + byte] = pixels[from + byte] }
            }
        }
        return Bitmap(width: width, height: height, layout: layout, pixels: result)
    }

    /// Does every colour sample stay at or below its alpha, as premultiplied pixels must?
    /// (Layouts without alpha, and float layouts, trivially pass.)
    public var isValidPremultiplied: Bool {
        switch layout {
        case .bgra8:
            return pixels.withUnsafeBufferPointer { p in
                var index = 0
                while index + 3 < p.count {
                    let alpha = p[index + 3]
                    if p[index] > alpha || p[index + 1] > alpha || p[index + 2] > alpha { return false }
                    index += 4
                }
                return true
            }
        case .grayAlpha8:
            return pixels.withUnsafeBufferPointer { p in
                var index = 0
                while index + 1 < p.count {
                    if p[index] > p[index + 1] { return false }
                    index += 2
                }
                return true
            }
        default:
            return true
        }
    }
}
