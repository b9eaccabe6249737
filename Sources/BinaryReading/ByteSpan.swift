#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Memory that a `ByteSpan` points into; kept alive for as long as any span refers to it.
public final class ByteStorage: @unchecked Sendable {
    public let buffer: UnsafeRawBufferPointer
    private let release: () -> Void

    init(buffer: UnsafeRawBufferPointer, release: @escaping () -> Void) {
        self.buffer = buffer
        self.release = release
    }

    deinit { release() }

    /// Calls `body` with the bytes while this storage is certainly alive. Reading `buffer` after
    /// the last use of a `ByteStorage` is a use-after-free: Swift may release it right after the
    /// property access, so go through this (or `bytes`) instead.
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try withExtendedLifetime(self) { try body(buffer) }
    }

    /// A copy of the bytes.
    public var bytes: [UInt8] { withUnsafeBytes { Array($0) } }

    /// A private copy of `bytes`.
    public convenience init(copying bytes: some Collection<UInt8>) {
        let memory = UnsafeMutableRawBufferPointer.allocate(byteCount: max(bytes.count, 1), alignment: 16)
        // Arrays and slices copy as one block; only other collections go element by element.
        let copied: Void? = bytes.withContiguousStorageIfAvailable { source in
            memory.copyMemory(from: UnsafeRawBufferPointer(source))
        }
        if copied == nil { _ = memory.initializeMemory(as: UInt8.self, from: bytes) }
        self.init(buffer: UnsafeRawBufferPointer(rebasing: memory[0..<bytes.count])) { memory.deallocate() }
    }

    /// Memory owned by the caller, who keeps it alive while spans over it are in use.
    public convenience init(borrowing buffer: UnsafeRawBufferPointer) {
        self.init(buffer: buffer) {}
    }

    /// The file at `path`, memory-mapped read-only.
    ///
    /// Mapping rather than reading means that opening a 4 MB catalog to look up one colour touches
    /// only the pages that lookup needs.
    public convenience init(mapping path: String) throws {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw FileError(path: path, reason: String(cString: strerror(errno))) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw FileError(path: path, reason: String(cString: strerror(errno))) }
        guard (info.st_mode & S_IFMT) == S_IFREG else { throw FileError(path: path, reason: "not a regular file") }
        let size = Int(info.st_size)
        if size == 0 {
            self.init(copying: [])
            return
        }
        guard let address = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), address != MAP_FAILED else {
            throw FileError(path: path, reason: "mmap failed: \(String(cString: strerror(errno)))")
        }
        self.init(buffer: UnsafeRawBufferPointer(start: address, count: size)) { munmap(address, size) }
    }
}

/// A file that could not be opened or mapped.
public struct FileError: Error, Sendable, CustomStringConvertible {
    public var path: String
    public var reason: String
    public var description: String { "\(path): \(reason)" }
}

/// A read-only, bounds-checked window onto bytes.
///
/// Every accessor checks its range and throws a `FormatError` naming the absolute offset, so that
/// parsers can read fields from untrusted files without any arithmetic that could trap. Offsets
/// passed to accessors are relative to the start of the span; errors report them absolute
/// (`origin + offset`), which is what a user compares against a hex dump.
public struct ByteSpan: @unchecked Sendable {
    public let storage: ByteStorage
    /// The bytes of this window.
    public let buffer: UnsafeRawBufferPointer
    /// Absolute offset of the first byte of this window in its storage.
    public let origin: Int
    /// Name of the structure this span holds, used in error messages.
    public let structure: String

    public init(_ storage: ByteStorage, structure: String = "file") {
        self.storage = storage
        self.buffer = storage.buffer
        self.origin = 0
        self.structure = structure
    }

    public init(copying bytes: some Collection<UInt8>, structure: String = "buffer") {
        self.init(ByteStorage(copying: bytes), structure: structure)
    }

    private init(storage: ByteStorage, buffer: UnsafeRawBufferPointer, origin: Int, structure: String) {
        self.storage = storage
        self.buffer = buffer
        self.origin = origin
        self.structure = structure
    }

    public var count: Int { buffer.count }
    public var isEmpty: Bool { buffer.isEmpty }

    /// An error at `offset` (relative to this span) in this span's structure.
    public func error(at offset: Int, _ reason: String) -> FormatError {
        FormatError(structure, at: origin &+ offset, reason)
    }

    /// Throws unless `length` bytes exist at `offset`.
    @inlinable
    public func require(_ offset: Int, _ length: Int, _ what: @autoclosure () -> String = "field") throws {
        guard offset >= 0, length >= 0, offset <= buffer.count, length <= buffer.count - offset else {
            throw error(at: offset, "\(what()) needs \(length) bytes, only \(max(0, buffer.count - max(0, offset))) remain")
        }
    }

    /// The sub-window `offset ..< offset + length`.
    public func slice(_ offset: Int, _ length: Int, as structure: String? = nil) throws -> ByteSpan {
        try require(offset, length, structure ?? "slice")
        return ByteSpan(storage: storage,
                        buffer: UnsafeRawBufferPointer(rebasing: buffer[offset ..< offset + length]),
                        origin: origin + offset, structure: structure ?? self.structure)
    }

    /// The window from `offset` to the end.
    public func suffix(from offset: Int, as structure: String? = nil) throws -> ByteSpan {
        try require(offset, 0)
        return try slice(offset, buffer.count - offset, as: structure)
    }

    /// The same bytes under another name for error messages.
    public func named(_ structure: String) -> ByteSpan {
        ByteSpan(storage: storage, buffer: buffer, origin: origin, structure: structure)
    }

    @inlinable
    func load<T: FixedWidthInteger>(_ offset: Int, as type: T.Type) throws -> T {
        try require(offset, MemoryLayout<T>.size, "\(T.self)")
        return buffer.loadUnaligned(fromByteOffset: offset, as: T.self)
    }

    public func u8(_ offset: Int) throws -> UInt8 { try load(offset, as: UInt8.self) }
    public func u16le(_ offset: Int) throws -> UInt16 { UInt16(littleEndian: try load(offset, as: UInt16.self)) }
    public func u32le(_ offset: Int) throws -> UInt32 { UInt32(littleEndian: try load(offset, as: UInt32.self)) }
    public func u64le(_ offset: Int) throws -> UInt64 { UInt64(littleEndian: try load(offset, as: UInt64.self)) }
    public func u16be(_ offset: Int) throws -> UInt16 { UInt16(bigEndian: try load(offset, as: UInt16.self)) }
    public func u32be(_ offset: Int) throws -> UInt32 { UInt32(bigEndian: try load(offset, as: UInt32.self)) }
    public func f64le(_ offset: Int) throws -> Double { Double(bitPattern: try u64le(offset)) }

    /// A little-endian u32 widened to `Int` (never negative, never traps).
    public func int32le(_ offset: Int) throws -> Int { Int(try u32le(offset)) }
    public func int32be(_ offset: Int) throws -> Int { Int(try u32be(offset)) }

    /// Do the bytes at `offset` equal `magic`?
    public func has(_ magic: String, at offset: Int = 0) -> Bool {
        let expected = Array(magic.utf8)
        guard offset >= 0, offset <= buffer.count, expected.count <= buffer.count - offset else { return false }
        for (index, byte) in expected.enumerated() where buffer[offset + index] != byte { return false }
        return true
    }

    /// Four bytes as text, for reporting tags (non-printable bytes as `?`).
    public func fourCC(_ offset: Int) throws -> String {
        try require(offset, 4, "four-character code")
        return String(decoding: (0..<4).map { index in
            let byte = buffer[offset + index]
            return (0x20...0x7E).contains(byte) ? byte : UInt8(ascii: "?")
        }, as: UTF8.self)
    }

    /// A fixed-size, NUL-padded UTF-8 string, trimmed at the first NUL and of surrounding white space.
    public func paddedString(_ offset: Int, length: Int) throws -> String {
        try require(offset, length, "string")
        let field = buffer[offset ..< offset + length]
        let text = field.firstIndex(of: 0).map { field[field.startIndex ..< $0] } ?? field
        return String(decoding: text, as: UTF8.self).trimmingWhitespace()
    }

    /// A NUL-padded field as written, trailing whitespace and line breaks kept.
    public func cString(_ offset: Int, length: Int) throws -> String {
        try require(offset, length, "string")
        let field = buffer[offset ..< offset + length]
        return String(decoding: field.firstIndex(of: 0).map { field[field.startIndex ..< $0] } ?? field, as: UTF8.self)
    }

    /// All bytes as UTF-8 text (invalid sequences replaced).
    public var utf8String: String { String(decoding: buffer, as: UTF8.self) }

    /// A copy of the bytes.
    public var bytes: [UInt8] { Array(buffer) }
}

extension String {
    func trimmingWhitespace() -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
              let last = scalars.lastIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        return String(scalars[first...last])
    }
}
