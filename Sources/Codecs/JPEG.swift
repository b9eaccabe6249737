import BinaryReading

/// What themed reads of a JPEG itself: its pixel size, from the first start-of-frame marker.
/// (Decoding is the image coders' job.)
public enum JPEG {
    /// Width and height from the SOF segment, or nil when the bytes are not a JPEG or end first.
    /// Every read is checked; a segment length that points past the end stops the walk.
    public static func size(of file: ByteSpan) -> (width: Int, height: Int)? {
        guard (try? file.u8(0)) == 0xFF, (try? file.u8(1)) == 0xD8 else { return nil }
        var cursor = 2
        while let marker = try? file.u8(cursor), marker == 0xFF, let type = try? file.u8(cursor + 1) {
            // Fill bytes, and markers without a length (RST, SOI, TEM).
            if type == 0xFF { cursor += 1; continue }
            if (0xD0...0xD8).contains(type) || type == 0x01 { cursor += 2; continue }
            guard let length = try? file.u16be(cursor + 2), length >= 2 else { return nil }
            // SOF0-SOF15, except DHT (C4), JPG (C8) and DAC (CC).
            if (0xC0...0xCF).contains(type), ![0xC4, 0xC8, 0xCC].contains(type) {
                guard let height = try? file.u16be(cursor + 5), let width = try? file.u16be(cursor + 7) else { return nil }
                return (Int(width), Int(height))
            }
            if type == 0xDA || type == 0xD9 { return nil } // scan data or the end before any frame header
            cursor += 2 + Int(length)
        }
        return nil
    }
}
