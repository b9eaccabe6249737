#if canImport(Glibc)
import Glibc
#endif
import HTTPTypes

/// Where the bodies of upload routes go: to a file, as they arrive, never whole in memory.
///
/// The routes that take uploads (a theme release) say which requests they take (by method, path
/// and head, for example only those with credentials); their bodies may be
/// up to `maxBytes` and must give Content-Length (a chunked upload is answered 411), so that the
/// size is checked before a byte is written. A body cut off mid-way leaves nothing behind: its
/// file is removed when the connection closes, and no handler sees it.
public struct BodySpool: Sendable {
    public var directory: String
    public var maxBytes: Int
    /// Whether a request (its head; the body is empty) is an upload. Not asked of GET and HEAD,
    /// which never are: the reads a server answers most are parsed as if there were no spool.
    public var accepts: @Sendable (Request) -> Bool

    public init(directory: String, maxBytes: Int, accepts: @escaping @Sendable (Request) -> Bool) {
        (self.directory, self.maxBytes, self.accepts) = (directory, maxBytes, accepts)
    }
}

/// A request body written to disk whole. The file is removed when the last copy of the request
/// that carries it is gone.
public final class SpooledBody: Sendable {
    public let path: String
    public let count: Int

    init(path: String, count: Int) {
        (self.path, self.count) = (path, count)
    }

    deinit { unlink(path) }
}

/// A body being written to its spool file by a connection's loop.
struct SpoolFile {
    let path: String
    private let fd: Int32
    /// Bytes still to come.
    private(set) var remaining: Int
    let length: Int

    struct Failure: Error, CustomStringConvertible { var description: String }

    init(directory: String, length: Int) throws(Failure) {
        var template = Array("\(directory)/body-XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { buffer in buffer.baseAddress.map { mkstemp($0) } ?? -1 }
        guard fd >= 0 else { throw Failure(description: "cannot create a spool file in \(directory): errno \(errno)") }
        self.fd = fd
        path = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        (remaining, self.length) = (length, length)
    }

    /// Writes what of `bytes` belongs to the body; returns how many bytes it took.
    mutating func write(_ bytes: ArraySlice<UInt8>) throws(Failure) -> Int {
        let taken = min(bytes.count, remaining)
        var written = 0
        while written < taken {
            let count = bytes.withUnsafeBytes { buffer in buffer.baseAddress.map { Glibc.write(fd, $0 + written, taken - written) } ?? 0 }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw Failure(description: "cannot write the request body to the spool: errno \(errno)") }
            written += count
        }
        remaining -= taken
        return taken
    }

    /// The whole body, as the request will carry it.
    func finish() -> SpooledBody {
        Glibc.close(fd)
        return SpooledBody(path: path, count: length)
    }

    /// A body that will not be finished: its bytes go.
    func discard() {
        Glibc.close(fd)
        unlink(path)
    }
}

/// An upload route's request whose body is being written to its spool file as it arrives, and
/// how its answer is to be sent.
struct SpoolingUpload {
    var request: Request
    var file: SpoolFile
    let keepAlive: Bool
    let version: HTTPVersion

    /// Writes the body's share of `inbox` to the file and removes it from the inbox; the request,
    /// its body on disk, once the body is whole.
    mutating func receive(from inbox: inout [UInt8]) throws -> Request? {
        inbox.removeFirst(try file.write(inbox[...]))
        guard file.remaining == 0 else { return nil }
        request.spooledBody = file.finish()
        return request
    }
}
