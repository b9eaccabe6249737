/// Little-endian fields and CoreUI's fixed strings and tags, for writing catalog structures.
func le16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }
func le32(_ value: Int) -> [UInt8] { (0..<4).map { UInt8(value >> (8 * $0) & 0xFF) } }
func le64(_ value: UInt64) -> [UInt8] { (0..<8).map { UInt8(value >> (8 * UInt64($0)) & 0xFF) } }

/// A NUL-padded fixed-size string field.
func fixed(_ text: String, _ size: Int) -> [UInt8] {
    let bytes = Array(text.utf8.prefix(size - 1))
    return bytes + [UInt8](repeating: 0, count: size - bytes.count)
}

/// A CoreUI tag: the name's bytes reversed (stored as a little-endian number of its big-endian reading).
func tag(_ name: String) -> [UInt8] { Array(name.utf8).reversed() }
