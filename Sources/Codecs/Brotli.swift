import BinaryReading
import CBrotli

/// Brotli (RFC 7932) through Debian's libbrotli, for `Content-Encoding: br`.
public enum Brotli {
    /// Compresses `input`; quality 0-11 (11 is the smallest and slowest), the full window.
    public static func compress(_ input: UnsafeRawBufferPointer, quality: Int32 = 9) -> [UInt8] {
        var length = BrotliEncoderMaxCompressedSize(input.count)
        if length == 0 { length = input.count + 1024 } // the bound overflowed: input near SIZE_MAX
        var output = [UInt8](repeating: 0, count: length)
        let succeeded = output.withUnsafeMutableBytes { buffer in
            BrotliEncoderCompress(quality, BROTLI_DEFAULT_WINDOW, BROTLI_MODE_GENERIC, input.count,
                                  input.baseAddress?.assumingMemoryBound(to: UInt8.self) ?? UnsafePointer(bitPattern: 1),
                                  &length, buffer.baseAddress?.assumingMemoryBound(to: UInt8.self))
        }
        precondition(succeeded == BROTLI_TRUE, "BrotliEncoderCompress cannot fail with a buffer of its own bound")
        output.removeSubrange(length...)
        return output
    }

    /// Decompresses a brotli stream to at most `limit` bytes.
    public static func decompress(_ input: UnsafeRawBufferPointer, limit: Int) throws -> [UInt8] {
        guard let decoder = BrotliDecoderCreateInstance(nil, nil, nil) else { throw FormatError("brotli stream", at: 0, "decoder could not start") }
        defer { BrotliDecoderDestroyInstance(decoder) }
        var availableIn = input.count
        var nextIn = input.baseAddress?.assumingMemoryBound(to: UInt8.self)
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            var availableOut = chunk.count
            let result = chunk.withUnsafeMutableBytes { buffer -> BrotliDecoderResult in
                var nextOut = buffer.baseAddress?.assumingMemoryBound(to: UInt8.self)
                return BrotliDecoderDecompressStream(decoder, &availableIn, &nextIn, &availableOut, &nextOut, nil)
            }
            let produced = chunk.count - availableOut
            guard output.count + produced <= limit else {
                throw FormatError("brotli stream", at: input.count - availableIn, "output exceeds the limit of \(limit) bytes")
            }
            output.append(contentsOf: chunk[0..<produced])
            switch result {
            case BROTLI_DECODER_RESULT_SUCCESS: return output
            case BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT: continue
            case BROTLI_DECODER_RESULT_NEEDS_MORE_INPUT: throw FormatError("brotli stream", at: input.count, "stream is truncated")
            default:
                throw FormatError("brotli stream", at: input.count - availableIn, String(cString: BrotliDecoderErrorString(BrotliDecoderGetErrorCode(decoder))))
            }
        }
    }
}
