#if canImport(Glibc)
import Glibc
#endif

/// An open pack file. Its descriptor stays open while anything holds the object, so a response
/// being sent from a pack that compaction has since deleted still reads the right bytes.
public final class PackFile: Sendable {
    public let path: String
    public let number: Int
    /// The open descriptor, for `sendfile`.
    public let descriptor: Int32

    init(path: String, number: Int) throws(BlobStoreError) {
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw .io(path, "cannot be opened", errno) }
        self.path = path
        self.number = number
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    var size: Int {
        var status = stat()
        return fstat(descriptor, &status) == 0 ? Int(status.st_size) : 0
    }

    /// Exactly `count` bytes from `offset`, or an error (a pack shorter than its index says is
    /// damage, not a short read to pass on).
    func read(at offset: Int, count: Int) throws(BlobStoreError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let result = bytes.withUnsafeMutableBytes { buffer in
                pread(descriptor, buffer.baseAddress! + done, count - done, off_t(offset + done))
            }
            if result < 0 && errno == EINTR { continue }
            guard result > 0 else { throw .io(path, result == 0 ? "ends before offset \(offset + count)" : "cannot be read", result == 0 ? 0 : errno) }
            done += result
        }
        return bytes
    }

    func write(_ bytes: [UInt8], at offset: Int) throws(BlobStoreError) {
        var done = 0
        while done < bytes.count {
            let result = bytes.withUnsafeBytes { buffer in
                pwrite(descriptor, buffer.baseAddress! + done, bytes.count - done, off_t(offset + done))
            }
            if result < 0 && errno == EINTR { continue }
            guard result > 0 else { throw .io(path, "cannot be written", errno) }
            done += result
        }
    }

    func truncate(to length: Int) {
        _ = ftruncate(descriptor, off_t(length))
    }
}

/// What went wrong with the blob store's files.
public enum BlobStoreError: Error, CustomStringConvertible, Equatable {
    case io(String, String, Int32)
    case tooLarge(Int)

    public var description: String {
        switch self {
        case .io(let path, let what, let code):
            code == 0 ? "\(path) \(what)" : "\(path) \(what): \(String(cString: strerror(code)))"
        case .tooLarge(let count):
            "a blob of \(count) bytes is larger than a pack record holds"
        }
    }
}

extension PackFile {
    /// The numbers of the packs in `directory`, in order.
    static func numbers(in directory: String) throws(BlobStoreError) -> [Int] {
        guard let folder = opendir(directory) else { throw .io(directory, "cannot be listed", errno) }
        defer { closedir(folder) }
        var numbers: [Int] = []
        while let entry = readdir(folder) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard name.hasSuffix(".pack"), let number = Int(name.dropLast(5)), number > 0 else { continue }
            numbers.append(number)
        }
        return numbers.sorted()
    }

    /// Makes `path` and the folders above it, and checks that it can be written.
    static func makeDirectory(_ path: String) throws(BlobStoreError) {
        var prefix = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            prefix += "/\(component)"
            if mkdir(prefix, 0o755) != 0 && errno != EEXIST { throw .io(prefix, "cannot be created", errno) }
        }
        guard access(path, W_OK) == 0 else { throw .io(path, "is not writable", errno) }
    }
}
