import Foundation

/// Property lists from untrusted files: binary ones read here, XML and OpenStep ones by
/// Foundation.
///
/// Foundation's binary reader crashes the process on some malformed files (a fuzzer found a
/// `set` object that makes it fault while bridging), so a theme file could take the daemon down.
/// This reader checks every offset, count and reference, refuses cycles and deep nesting, and
/// answers with the values themed reads: dictionaries, arrays, strings, numbers, booleans, data.
public enum PropertyList {
    public struct Malformed: Error, CustomStringConvertible {
        public var description: String
    }

    /// The property list in `bytes` (binary `bplist00`, XML or OpenStep). Every file that starts
    /// like a binary one is read here, never by Foundation (which takes any `bplist0?` header).
    public static func parse(_ bytes: [UInt8]) throws(Malformed) -> Any {
        if bytes.starts(with: Array("bplist".utf8)) {
            guard bytes.starts(with: Array("bplist00".utf8)) else { throw Malformed(description: "binary property list of an unknown version") }
            return try BinaryPropertyList(bytes).root()
        }
        do {
            return try PropertyListSerialization.propertyList(from: Data(bytes), options: [], format: nil)
        } catch {
            throw Malformed(description: "not a property list (XML, binary or OpenStep)")
        }
    }
}

/// The `bplist00` format: objects, an offset table and a 32-byte trailer (CFBinaryPList.c).
struct BinaryPropertyList {
    let bytes: [UInt8]
    let offsets: [Int]
    let referenceSize: Int
    let top: Int
    static let maximumDepth = 64
    /// Objects decoded in all: shared objects count each time they are reached, so a file whose
    /// arrays point at each other over and over cannot expand without end.
    static let maximumObjects = 1_000_000

    /// Where the reading is: the objects being read (to refuse cycles) and how many were read.
    struct Walk {
        var path: [Int] = []
        var decoded = 0
    }

    init(_ bytes: [UInt8]) throws(PropertyList.Malformed) {
        self.bytes = bytes
        guard bytes.count >= 8 + 32 else { throw PropertyList.Malformed(description: "binary property list shorter than its trailer") }
        let trailer = bytes.count - 32
        let offsetSize = Int(bytes[trailer + 6])
        referenceSize = Int(bytes[trailer + 7])
        let count = Self.number(bytes[(trailer + 8)..<(trailer + 16)])
        top = Self.number(bytes[(trailer + 16)..<(trailer + 24)])
        let table = Self.number(bytes[(trailer + 24)..<(trailer + 32)])
        guard (1...8).contains(offsetSize), (1...8).contains(referenceSize), count > 0, count <= trailer / max(1, offsetSize),
              top >= 0, top < count, table >= 8, table <= trailer, trailer - table >= count * offsetSize else {
            throw PropertyList.Malformed(description: "binary property list trailer is inconsistent")
        }
        var offsets: [Int] = []
        offsets.reserveCapacity(count)
        for index in 0..<count {
            let start = table + index * offsetSize
            let offset = Self.number(bytes[start..<(start + offsetSize)])
            guard offset >= 8, offset < table else { throw PropertyList.Malformed(description: "object \(index) lies outside the object area") }
            offsets.append(offset)
        }
        self.offsets = offsets
    }

    func root() throws(PropertyList.Malformed) -> Any {
        var walk = Walk()
        return try object(top, walk: &walk)
    }

    /// A big-endian unsigned number of up to 8 bytes (larger values saturate and fail checks).
    static func number(_ slice: ArraySlice<UInt8>) -> Int {
        var value: UInt64 = 0
        for byte in slice { value = value << 8 | UInt64(byte) }
        return value > UInt64(Int.max) ? Int.max : Int(value)
    }

    private func fail(_ message: String) -> PropertyList.Malformed {
        PropertyList.Malformed(description: "binary property list: \(message)")
    }

    private func slice(_ start: Int, _ length: Int) throws(PropertyList.Malformed) -> ArraySlice<UInt8> {
        guard length >= 0, start >= 0, start <= bytes.count, bytes.count - start >= length else { throw fail("object runs past the end") }
        return bytes[start..<(start + length)]
    }

    /// An object's count: the marker's low nibble, or an integer object after it when that is 15.
    private func count(_ marker: UInt8, at offset: Int) throws(PropertyList.Malformed) -> (count: Int, start: Int) {
        let nibble = Int(marker & 0x0F)
        guard nibble == 0x0F else { return (nibble, offset + 1) }
        let intMarker = try slice(offset + 1, 1).first ?? 0
        guard intMarker & 0xF0 == 0x10, intMarker & 0x0F <= 3 else { throw fail("bad length at \(offset)") }
        let size = 1 << Int(intMarker & 0x0F)
        return (Self.number(try slice(offset + 2, size)), offset + 2 + size)
    }

    private func reference(_ start: Int, _ index: Int) throws(PropertyList.Malformed) -> Int {
        let value = Self.number(try slice(start + index * referenceSize, referenceSize))
        guard value < offsets.count else { throw fail("reference \(value) to an object that does not exist") }
        return value
    }

    private func object(_ index: Int, walk: inout Walk) throws(PropertyList.Malformed) -> Any {
        guard walk.path.count < Self.maximumDepth else { throw fail("nested deeper than \(Self.maximumDepth)") }
        guard !walk.path.contains(index) else { throw fail("object \(index) contains itself") }
        walk.decoded += 1
        guard walk.decoded <= Self.maximumObjects else { throw fail("more than \(Self.maximumObjects) objects") }
        walk.path.append(index)
        defer { walk.path.removeLast() }
        let offset = offsets[index]
        let marker = try slice(offset, 1).first ?? 0
        switch marker >> 4 {
        case 0x0:
            switch marker {
            case 0x08: return false
            case 0x09: return true
            default: throw fail("unsupported marker \(marker) at \(offset)")
            }
        case 0x1:
            let size = 1 << Int(marker & 0x0F)
            guard size <= 16 else { throw fail("integer of \(size) bytes") }
            let raw = try slice(offset + 1, size)
            // 8-byte integers are signed; 16-byte ones keep their low 8 bytes.
            var value: UInt64 = 0
            for byte in raw.suffix(8) { value = value << 8 | UInt64(byte) }
            return size >= 8 ? Int(Int64(bitPattern: value)) : Int(value)
        case 0x2:
            switch marker & 0x0F {
            case 2: return Double(Float(bitPattern: UInt32(Self.number(try slice(offset + 1, 4)))))
            case 3: return Double(bitPattern: UInt64(truncatingIfNeeded: Self.number(try slice(offset + 1, 8))))
            default: throw fail("real of unsupported size at \(offset)")
            }
        case 0x3:
            return Date(timeIntervalSinceReferenceDate: Double(bitPattern: UInt64(truncatingIfNeeded: Self.number(try slice(offset + 1, 8)))))
        case 0x4:
            let (length, start) = try count(marker, at: offset)
            return Data(try slice(start, length))
        case 0x5:
            let (length, start) = try count(marker, at: offset)
            guard let text = String(bytes: try slice(start, length), encoding: .ascii) else { throw fail("ASCII string with other bytes at \(offset)") }
            return text
        case 0x6:
            let (length, start) = try count(marker, at: offset)
            guard length <= bytes.count / 2 else { throw fail("string longer than the file at \(offset)") }
            let units = try slice(start, length * 2)
            let code = stride(from: units.startIndex, to: units.endIndex, by: 2).map { UInt16(units[$0]) << 8 | UInt16(units[$0 + 1]) }
            return String(decoding: code, as: UTF16.self)
        case 0xA, 0xC: // arrays; sets are read as arrays
            let (length, start) = try count(marker, at: offset)
            guard length <= bytes.count / referenceSize else { throw fail("array longer than the file at \(offset)") }
            var items: [Any] = []
            for position in 0..<length { items.append(try object(try reference(start, position), walk: &walk)) }
            return items
        case 0xD:
            let (length, start) = try count(marker, at: offset)
            guard length <= bytes.count / (2 * referenceSize) else { throw fail("dictionary longer than the file at \(offset)") }
            var dictionary: [String: Any] = [:]
            for position in 0..<length {
                guard let key = try object(try reference(start, position), walk: &walk) as? String else { throw fail("dictionary key is not a string at \(offset)") }
                dictionary[key] = try object(try reference(start, length + position), walk: &walk)
            }
            return dictionary
        default:
            throw fail("unsupported marker \(marker) at \(offset)")
        }
    }
}
