import BinaryReading

extension Deepmap {
    /// Mode 2: the inverse of the predictive filter and of the YCoCg-R colour transform.
    ///
    /// Each stream covers one region (a `dmap` tile or a `dmp2` strip) and decodes to planes:
    /// alpha (if any), one predictor byte per row, then the high and the low bytes of every
    /// 16-bit residual, zero-padded to a multiple of 8 (`dmap`) or 16 (`dmp2`) bytes.
    struct Filtered {
        var header: Header
        var code: PixelCode
        var width: Int
        var rows: Int

        func decode(_ streams: [[UInt8]], chunk: ByteSpan) throws -> Bitmap {
            let regions = try Deepmap.regions(header, width: width, rows: rows)
            guard regions.count == streams.count else {
                throw chunk.error(at: header.bodyOffset, "\(streams.count) streams for \(regions.count) regions")
            }
            let layout = code.layout(filtered: true)
            var output = [UInt8](repeating: 0, count: width * rows * layout.bytesPerPixel)
            for (region, stream) in zip(regions, streams) {
                try unfilter(stream, region: region, into: &output, chunk: chunk)
            }
            return Bitmap(width: width, height: rows, layout: layout, pixels: output)
        }

        private func unfilter(_ stream: [UInt8], region: (x: Int, y: Int, width: Int, height: Int),
                              into output: inout [UInt8], chunk: ByteSpan) throws {
            let w = region.width, r = region.height, channels = code.channels
            let alphaBytes = code.hasAlpha ? w * r : 0
            let planeBytes = alphaBytes + r + 2 * w * r * channels
            let padding = header.isDeepmap2 ? 16 : 8
            let expected = (planeBytes + padding - 1) / padding * padding
            guard stream.count == expected else {
                throw chunk.error(at: header.bodyOffset, "mode-2 stream of \(stream.count) bytes, a \(w)x\(r) region needs \(expected)")
            }
            guard stream[planeBytes...].allSatisfy({ $0 == 0 }) else {
                throw chunk.error(at: header.bodyOffset, "mode-2 stream padding is not zero")
            }
            let predictorOffset = alphaBytes
            let highOffset = predictorOffset + r
            let lowOffset = highOffset + w * r * channels
            let layout = code.layout(filtered: true)
            let outputBpp = layout.bytesPerPixel

            var previous = [Int32](repeating: 0, count: w * channels)
            var current = [Int32](repeating: 0, count: w * channels)
            for y in 0..<r {
                let predictor = stream[predictorOffset + y]
                guard predictor <= 4 else { throw chunk.error(at: header.bodyOffset, "row \(region.y + y) uses unknown predictor \(predictor)") }
                for x in 0..<w {
                    let pixel = x * channels
                    // Predictor 1 chooses once per pixel, on channel 0: left where the up-left to up
                    // gradient is no steeper than up-left to left.
                    var useLeft = predictor == 2
                    if predictor == 1 {
                        let up = previous[pixel], upLeft = x > 0 ? previous[pixel - channels] : 0
                        let left = x > 0 ? current[pixel - channels] : 0
                        useLeft = x > 0 && abs(up - upLeft) <= abs(left - upLeft)
                    }
                    for c in 0..<channels {
                        let sample = (y * w + x) * channels + c
                        let coded = Int32(stream[highOffset + sample]) << 8 | Int32(stream[lowOffset + sample])
                        let residual = coded & 1 == 1 ? -(coded >> 1) : coded >> 1
                        let up = previous[pixel + c]
                        let left = x > 0 ? current[pixel - channels + c] : 0
                        let prediction: Int32
                        switch predictor {
                        case 0: prediction = 0
                        case 3: prediction = up
                        case 4: prediction = x == 0 ? up : (left + up + 1) / 2
                        default: prediction = useLeft ? left : up
                        }
                        current[pixel + c] = Int32(Int16(truncatingIfNeeded: prediction + residual))
                    }
                }
                let rowStart = ((region.y + y) * width + region.x) * outputBpp
                for x in 0..<w {
                    let alpha = code.hasAlpha ? stream[y * w + x] : 255
                    try store(current, pixel: x, alpha: alpha, to: &output, at: rowStart + x * outputBpp, chunk: chunk)
                }
                swap(&previous, &current)
            }
        }

        /// Writes one pixel: gray as is; colour through the inverse YCoCg-R transform.
        private func store(_ samples: [Int32], pixel x: Int, alpha: UInt8, to output: inout [UInt8], at offset: Int, chunk: ByteSpan) throws {
            let channels = code.channels
            if channels == 1 {
                let gray = samples[x]
                guard (0...255).contains(gray) else { throw chunk.error(at: header.bodyOffset, "gray sample \(gray) is out of range") }
                output[offset] = UInt8(gray)
                if code.hasAlpha { output[offset + 1] = alpha }
                return
            }
            var co = samples[x * 3 + 1], cg = samples[x * 3 + 2]
            if header.chromaScale { co *= 2; cg *= 2 }
            let t = samples[x * 3] - cg / 2
            let s0 = t - co / 2
            let s1 = t + cg
            let s2 = s0 + co
            if code.isWide {
                // Wide pixels are R, G, B, A: s0 lands on blue, in units of 1/512.
                let values: [Float] = [Float(s2) / 512, Float(s1) / 512, Float(s0) / 512, Float(alpha) / 255]
                for (index, value) in values.enumerated() {
                    let bits = value.bitPattern.littleEndian
                    for byte in 0..<4 { output[offset + index * 4 + byte] = UInt8(truncatingIfNeeded: bits >> (8 * UInt32(byte))) }
                }
                return
            }
            guard (0...255).contains(s0), (0...255).contains(s1), (0...255).contains(s2) else {
                throw chunk.error(at: header.bodyOffset, "colour (\(s0), \(s1), \(s2)) is out of range")
            }
            // 8-bit pixels are B, G, R(, A): s0 is red.
            output[offset] = UInt8(s2)
            output[offset + 1] = UInt8(s1)
            output[offset + 2] = UInt8(s0)
            if code.hasAlpha { output[offset + 3] = alpha }
        }
    }
}
