import BinaryReading
import CZlib

/// Deflate decoding through the system zlib: gzip, zlib and raw deflate streams.
public enum Zlib {
    /// Inflates `input`, whichever of the three framings it uses, to at most `limit` bytes.
    public static func decompress(_ input: UnsafeRawBufferPointer, limit: Int) throws -> [UInt8] {
        // 15 + 32: zlib or gzip, detected from the header; -15: raw deflate.
        let windowBits: Int32 = looksFramed(input) ? 15 + 32 : -15
        return try inflate(input, windowBits: windowBits, limit: limit)
    }

    /// Compresses `input` as a zlib stream (used by the PNG encoder).
    /// The most bytes `compress` can produce from `count` bytes.
    public static func compressedBound(_ count: Int) -> Int {
        Int(compressBound(uLong(count)))
    }

    /// Compresses `input` into `output`, which has room for `compressedBound(input.count)`
    /// bytes, and returns the length written.
    public static func compress(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer, level: Int32 = 6) -> Int {
        precondition(output.count >= compressedBound(input.count), "the output must hold compressedBound bytes")
        var length = uLong(output.count)
        let status = compress2(output.baseAddress?.assumingMemoryBound(to: Bytef.self), &length,
                               input.baseAddress?.assumingMemoryBound(to: Bytef.self), uLong(input.count), level)
        precondition(status == Z_OK, "compress2 cannot fail with a buffer of compressBound bytes")
        return Int(length)
    }

    public static func compress(_ input: UnsafeRawBufferPointer, level: Int32 = 6) -> [UInt8] {
        var length = compressBound(uLong(input.count))
        var output = [UInt8](repeating: 0, count: Int(length))
        let status = output.withUnsafeMutableBytes { out in
            compress2(out.baseAddress?.assumingMemoryBound(to: Bytef.self), &length,
                      input.baseAddress?.assumingMemoryBound(to: Bytef.self), uLong(input.count), level)
        }
        precondition(status == Z_OK, "compress2 cannot fail with a buffer of compressBound bytes")
        output.removeSubrange(Int(length)...)
        return output
    }

    /// Compresses `input` as a gzip member for `Content-Encoding: gzip`. The header carries no
    /// time or file name, so the same input gives the same bytes on every machine.
    public static func gzip(_ input: UnsafeRawBufferPointer, level: Int32 = 9) -> [UInt8] {
        var stream = z_stream()
        // 15 + 16: gzip framing; memory level 8 is zlib's default.
        guard deflateInit2_(&stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION,
                            Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            preconditionFailure("deflateInit2 fails only for bad parameters or no memory")
        }
        defer { deflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(input.count))) + 32)
        stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress?.assumingMemoryBound(to: Bytef.self))
        stream.avail_in = uInt(input.count)
        let status = output.withUnsafeMutableBytes { buffer -> Int32 in
            stream.next_out = buffer.baseAddress?.assumingMemoryBound(to: Bytef.self)
            stream.avail_out = uInt(buffer.count)
            return deflate(&stream, Z_FINISH)
        }
        precondition(status == Z_STREAM_END, "deflate cannot fall short of a buffer of deflateBound bytes")
        output.removeSubrange(Int(stream.total_out)...)
        return output
    }

    /// CRC-32 as PNG chunks use it.
    public static func crc32(_ bytes: UnsafeRawBufferPointer, initial: UInt32 = 0) -> UInt32 {
        UInt32(CZlib.crc32(uLong(initial), bytes.baseAddress?.assumingMemoryBound(to: Bytef.self), uInt(bytes.count)))
    }

    private static func looksFramed(_ input: UnsafeRawBufferPointer) -> Bool {
        guard input.count >= 2 else { return false }
        if input[0] == 0x1F && input[1] == 0x8B { return true }
        return input[0] & 0x0F == 8 && (UInt16(input[0]) << 8 | UInt16(input[1])) % 31 == 0
    }

    private static func inflate(_ input: UnsafeRawBufferPointer, windowBits: Int32, limit: Int) throws -> [UInt8] {
        var stream = z_stream()
        guard inflateInit2_(&stream, windowBits, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw FormatError("deflate stream", at: 0, "zlib could not start")
        }
        defer { inflateEnd(&stream) }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress?.assumingMemoryBound(to: Bytef.self))
        stream.avail_in = uInt(input.count)
        while true {
            let status = chunk.withUnsafeMutableBytes { buffer -> Int32 in
                stream.next_out = buffer.baseAddress?.assumingMemoryBound(to: Bytef.self)
                stream.avail_out = uInt(buffer.count)
                return CZlib.inflate(&stream, Z_NO_FLUSH)
            }
            let produced = chunk.count - Int(stream.avail_out)
            guard output.count + produced <= limit else {
                throw FormatError("deflate stream", at: Int(stream.total_in), "output exceeds the limit of \(limit) bytes")
            }
            output.append(contentsOf: chunk[0..<produced])
            switch status {
            case Z_STREAM_END:
                return output
            case Z_OK:
                continue
            case Z_BUF_ERROR where stream.avail_in == 0:
                throw FormatError("deflate stream", at: Int(stream.total_in), "stream is truncated")
            default:
                let message = stream.msg.map { String(cString: $0) } ?? "error \(status)"
                throw FormatError("deflate stream", at: Int(stream.total_in), message)
            }
        }
    }
}
