import Foundation

/// File-system questions the theme readers ask, in one place.
public enum FileSystem {
    /// An entry of a folder as its listing gives it.
    public struct Entry: Sendable, Equatable {
        public var name: String
        /// A folder, not a link to one.
        public var isFolder: Bool
        /// A symbolic link, whatever it points at.
        public var isLink: Bool

        public init(name: String, isFolder: Bool, isLink: Bool = false) { (self.name, self.isFolder, self.isLink) = (name, isFolder, isLink) }
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
            let type = fileType(entry.pointee.d_type, "\(path)/\(name)")
            entries.append(Entry(name: name, isFolder: type == S_IFDIR, isLink: type == S_IFLNK))
        }
        return entries
    }

    /// `S_IFDIR`, `S_IFLNK`, ... from the listing's type, or from `lstat` where it gives none.
    private static func fileType(_ type: UInt8, _ path: String) -> mode_t {
        switch Int32(type) {
        case Int32(DT_DIR): return S_IFDIR
        case Int32(DT_LNK): return S_IFLNK
        case Int32(DT_UNKNOWN):
            var status = stat()
            return lstat(path, &status) == 0 ? status.st_mode & S_IFMT : 0
        default: return S_IFREG
        }
    }

    /// The entries of `path` in byte order, without dot-files.
    public static func sortedListing(of path: String) -> [Entry] {
        listing(of: path).filter { !$0.name.hasPrefix(".") }.sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
    }

    /// Names of the sub-directories (or links to directories) of `path`, in byte order.
    public static func directories(in path: String) -> [String] {
        entries(of: path).filter { isDirectory("\(path)/\($0)") }
    }

    /// Names of the entries of `path` in byte order, without dot-files.
    public static func entries(of path: String) -> [String] {
        sortedListing(of: path).map(\.name)
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
