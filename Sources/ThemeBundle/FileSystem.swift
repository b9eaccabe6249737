import Foundation

/// File-system questions the theme readers ask, in one place.
public enum FileSystem {
    /// An entry of a folder as its listing gives it.
    public struct Entry: Sendable, Equatable {
        public var name: String
        /// A folder, not a link to one.
        public var isFolder: Bool

        public init(name: String, isFolder: Bool) { (self.name, self.isFolder) = (name, isFolder) }
    }

    /// The entries of `path` in the order the file system lists them, dot-files too (not `.` and
    /// `..`); none when it cannot be listed. Read with readdir, each entry's type from the
    /// listing (asked of the file system only where the listing does not tell it): a platform's
    /// folders are listed at every start, and Foundation built and searched a path string per entry.
    public static func listing(of path: String) -> [Entry] {
        guard let folder = opendir(path) else { return [] }
        defer { closedir(folder) }
        var entries: [Entry] = []
        while let entry = readdir(folder) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard name != ".", name != ".." else { continue }
            entries.append(Entry(name: name, isFolder: isFolder(entry.pointee.d_type, "\(path)/\(name)")))
        }
        return entries
    }

    private static func isFolder(_ type: UInt8, _ path: String) -> Bool {
        guard type == UInt8(DT_UNKNOWN) else { return type == UInt8(DT_DIR) }
        var status = stat()
        return lstat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR
    }

    /// Names of the sub-directories (or links to directories) of `path`, in byte order.
    public static func directories(in path: String) -> [String] {
        entries(of: path).filter { isDirectory("\(path)/\($0)") }
    }

    /// Names of the entries of `path` in byte order, without dot-files.
    public static func entries(of path: String) -> [String] {
        listing(of: path).map(\.name)
            .filter { !$0.hasPrefix(".") }
            .sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    public static func isDirectory(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    public static func isRegularFile(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && !isDirectory.boolValue
    }
}
