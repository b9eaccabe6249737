import CCrypto

/// HMAC-SHA-256 (RFC 2104) through libcrypto: what signs a URL whose parameters a server only
/// acts on when someone holding the key asked for them.
public enum HMAC {
    public static func sha256(key: [UInt8], message: [UInt8]) -> [UInt8] {
        LibCrypto.setUp
        var output = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        let made = key.withUnsafeBytes { key in
            message.withUnsafeBytes { message in
                CCrypto.HMAC(EVP_sha256(), key.baseAddress, Int32(key.count), message.baseAddress?.assumingMemoryBound(to: UInt8.self), message.count,
                             &output, &length)
            }
        }
        // HMAC fails only when libcrypto cannot allocate; an all-zero tag then matches nothing.
        return made == nil || length != 32 ? [UInt8](repeating: 0, count: 32) : output
    }

    /// Whether two tags are equal, in time that does not depend on where they differ.
    public static func equal(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        return zip(a, b).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
