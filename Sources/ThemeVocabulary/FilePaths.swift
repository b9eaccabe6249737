/// Paths as users and archives give them. Foundation's `NSString.deletingLastPathComponent` traps
/// on Linux on every one-character path ("b", ".") and on some two-character ones ("b/")
/// (swift-corelibs-foundation with Swift 6.3: `themed serve --blobs b` stopped with SIGILL), so
/// every folder of a path given from outside is taken here.
public enum FilePaths {
    /// The folder part of `path`, as typed: "" for a bare name, "/" for a name at the root; trailing
    /// slashes name the same file ("a/b/" is in "a").
    public static func folder(of path: String) -> String {
        var name = Substring(path)
        while name.count > 1, name.hasSuffix("/") { name.removeLast() }
        guard let slash = name.lastIndex(of: "/") else { return "" }
        var folder = name[..<slash]
        while folder.hasSuffix("/") { folder.removeLast() }
        return folder.isEmpty ? "/" : String(folder)
    }

    /// The folder of `path` as a path to open: "." for a bare name.
    public static func directory(of path: String) -> String {
        let folder = folder(of: path)
        return folder.isEmpty ? "." : folder
    }
}
