import CCrypto

/// SHA-256 of content, through OpenSSL's libcrypto (SHA-NI where the CPU has it).
///
/// Everything that names content by its bytes uses it: ETags, blob names, the fingerprints of
/// catalogs in the index. The same bytes give the same name on every machine, which is what lets
/// two replicas agree on ETags and a CDN keep one copy.
public struct ContentHash: ~Copyable {
    private let context: OpaquePointer

    public init() {
        LibCrypto.setUp
        // EVP_MD_CTX_new fails only when malloc does; there is nothing sensible to go on with.
        guard let context = EVP_MD_CTX_new() else { fatalError("out of memory: EVP_MD_CTX_new") }
        EVP_DigestInit_ex(context, EVP_sha256(), nil)
        self.context = context
    }

    deinit { EVP_MD_CTX_free(context) }

    public mutating func add(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        EVP_DigestUpdate(context, base, bytes.count)
    }

    public mutating func add(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { add($0) }
    }

    public mutating func add(_ text: String) {
        var copy = text
        copy.withUTF8 { add(UnsafeRawBufferPointer($0)) }
    }

    /// The digest of what was added so far (more may be added after).
    public var digest: Digest {
        var raw: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        guard let copy = EVP_MD_CTX_new() else { fatalError("out of memory: EVP_MD_CTX_new") }
        defer { EVP_MD_CTX_free(copy) }
        EVP_MD_CTX_copy_ex(copy, context)
        var length: UInt32 = 0
        withUnsafeMutableBytes(of: &raw) { buffer in
            _ = EVP_DigestFinal_ex(copy, buffer.baseAddress?.assumingMemoryBound(to: UInt8.self), &length)
        }
        return Digest(bigEndianWords: raw)
    }

    public var hex: String { digest.hex }

    /// The digest of `bytes` in one call.
    public static func of(_ bytes: UnsafeRawBufferPointer) -> Digest {
        var hash = ContentHash()
        hash.add(bytes)
        return hash.digest
    }

    public static func of(_ bytes: [UInt8]) -> Digest {
        bytes.withUnsafeBytes { of($0) }
    }
}

/// A SHA-256 digest; printed and parsed as 64 lowercase hex digits.
///
/// Held inline as four words in the bytes' order (so words compare as the bytes do): a blob
/// store keys hundreds of thousands of entries by digest, read at every start, and an array
/// would be an allocation and 33 values to hash for each.
public struct Digest: Hashable, Sendable, Comparable, CustomStringConvertible {
    public static let byteCount = 32
    private let words: (first: UInt64, second: UInt64, third: UInt64, fourth: UInt64)

    /// Exactly 32 bytes; nil for any other count.
    public init?(bytes: ArraySlice<UInt8>) {
        guard bytes.count == Self.byteCount else { return nil }
        var raw: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        withUnsafeMutableBytes(of: &raw) { buffer in bytes.withUnsafeBytes { buffer.copyMemory(from: $0) } }
        self.init(bigEndianWords: raw)
    }

    /// Exactly 32 bytes; nil for any other count.
    public init?(bytes: [UInt8]) {
        self.init(bytes: bytes[...])
    }

    /// Parses 64 hex digits (either case); nil for anything else.
    public init?(hex: some StringProtocol) {
        guard hex.utf8.count == 64, let bytes = Hex.decode(hex.utf8) else { return nil }
        self.init(bytes: bytes)
    }

    /// The 32 bytes as they are in memory, read as four words.
    init(bigEndianWords raw: (UInt64, UInt64, UInt64, UInt64)) {
        words = (UInt64(bigEndian: raw.0), UInt64(bigEndian: raw.1), UInt64(bigEndian: raw.2), UInt64(bigEndian: raw.3))
    }

    public var bytes: [UInt8] {
        var raw = (words.first.bigEndian, words.second.bigEndian, words.third.bigEndian, words.fourth.bigEndian)
        return withUnsafeBytes(of: &raw) { Array($0) }
    }

    public var hex: String { Hex.encode(bytes) }

    public var description: String { hex }

    public static func == (lhs: Digest, rhs: Digest) -> Bool { lhs.words == rhs.words }

    public static func < (lhs: Digest, rhs: Digest) -> Bool { lhs.words < rhs.words }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(words.first)
        hasher.combine(words.second)
        hasher.combine(words.third)
        hasher.combine(words.fourth)
    }
}

/// Hexadecimal text, as digests and PostgreSQL's `bytea` print bytes.
public enum Hex {
    /// Bytes as lower-case hex digits, two a byte.
    public static func encode(_ bytes: some Collection<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text = [UInt8]()
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 15)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// Pairs of hex digits (either case) to bytes; nil for an odd count or any other character.
    public static func decode(_ digits: some Collection<UInt8>) -> [UInt8]? {
        var bytes = [UInt8]()
        bytes.reserveCapacity(digits.count / 2)
        var high: UInt8?
        for digit in digits {
            guard let nibble = value(of: digit) else { return nil }
            if let first = high {
                bytes.append(first << 4 | nibble)
                high = nil
            } else {
                high = nibble
            }
        }
        return high == nil ? bytes : nil
    }

    private static func value(of digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
