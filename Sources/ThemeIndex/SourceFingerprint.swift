import Foundation
import Hashing
import Synchronization
import ThemeBundle

extension ParsedSource {
    /// Size and modification time of a file; for folders, of every file inside; for bundles, of
    /// Info.plist, the `.lproj` folders and every resource the bundle read; for tokens, of their
    /// ancestors' files too. A source whose fingerprint is unchanged is not parsed again.
    /// `stamps`: the ancestors' files as this sync found them.
    static func fingerprint(_ source: ThemeFolder.Source, stamps: FileStamps) -> String {
        var hash = ContentHash()
        for stamp in stamped(source, stamps) { hash.add(stamp.line) }
        return hash.hex
    }

    /// The files whose size and time make a source's fingerprint, in the order they are hashed.
    private static func stamped(_ source: ThemeFolder.Source, _ stamps: FileStamps) -> [FileStamps.Stamp] {
        switch source.kind {
        case .car:
            return FileStamps.stamps(of: [source.path])
        case .xcassets:
            let enumerator = FileManager.default.enumerator(atPath: source.path)
            return FileStamps.stamps(of: [source.path] + ((enumerator?.allObjects as? [String]) ?? []).sorted().map { "\(source.path)/\($0)" })
        case .bundle:
            return FileStamps.stamps(of: [source.path] + (source.bundle?.watchedPaths ?? []))
        case .tokens:
            return tokenFiles(source.tokens, or: source.path, stamps)
        case .material:
            // theme.json (the seed is in it); with a seed named by alias, the tokens it names.
            let settings = String(source.path.dropLast(ThemeFolder.materialSuffix.count))
            return FileStamps.stamps(of: [settings]) + (source.material?.seed.isAlias == true ? tokenFiles(source.tokens, or: source.path, stamps) : [])
        }
    }

    /// Every JSON file of the theme folder outside its catalogs (a resolver may name any), and
    /// theme.json (its traits make the colour variants). An ancestor's files too: a child's
    /// tokens are resolved with its parents' (an edit of the base re-reads every brand over it).
    private static func tokenFiles(_ tokens: ThemeFolder.TokenFiles?, or path: String, _ stamps: FileStamps) -> [FileStamps.Stamp] {
        let ancestors = tokens?.ancestors ?? []
        // A catalog parent's colours are read with them: its files' changes are the tokens' too.
        let catalogs = ancestors.flatMap(\.catalogs).flatMap { catalog in stamps.ofAncestor(catalog.path) { stamped(catalog, stamps) } }
        let roots = ancestors.compactMap(\.files?.root).flatMap { root in stamps.ofAncestor(root) { FileStamps.stamps(of: tokenPaths(in: root)) } }
        let own = FileStamps.stamps(of: tokenPaths(in: tokens?.root ?? path))
        return (catalogs + roots + own).sorted { $0.path < $1.path }
    }

    /// The JSON files under a theme's folder, outside its catalogs and hidden folders (at most
    /// 10,000), links not followed.
    private static func tokenPaths(in root: String) -> [String] {
        var found: [String] = []
        var folders = [root]
        while let folder = folders.popLast(), found.count < 10_000 {
            for entry in FileSystem.listing(of: folder) where found.count < 10_000 {
                let name = entry.name
                guard !name.hasPrefix("."), !name.hasSuffix(".xcassets"), !name.hasSuffix(".car") else { continue }
                if name.hasSuffix(".json") || name.hasSuffix(".tokens") { found.append("\(folder)/\(name)") }
                if entry.isFolder { folders.append("\(folder)/\(name)") }
            }
        }
        return found
    }
}

/// The files a sync has stamped (size and modification time) for the fingerprints, kept by the
/// ancestor folder or catalog they were found in, for that sync only: the brands of a platform
/// each read their base's files with their own (tokens over a shared base), and a restart of a
/// replica of 10,000 such brands listed and stat'ed the base's files 10,000 times (two thirds of
/// its CPU). A file changed during a sync is seen by the next one (the watcher's).
final class FileStamps: Sendable {
    struct Stamp: Sendable {
        var path: String
        /// What the fingerprint hashes of it.
        var line: String
    }

    private let ancestors = Mutex<[String: [Stamp]]>([:])

    /// The stamps of an ancestor's folder or catalog at `path`: made by `stamping` at the first
    /// question of the sync.
    func ofAncestor(_ path: String, stamping: () -> [Stamp]) -> [Stamp] {
        if let known = ancestors.withLock({ $0[path] }) { return known }
        let stamps = stamping()
        ancestors.withLock { $0[path] = stamps }
        return stamps
    }

    /// Each path's size and modification time now (-1 and 0 for a path that is not there).
    static func stamps(of paths: [String]) -> [Stamp] {
        paths.map { path in
            let attributes = (try? FileManager.default.attributesOfItem(atPath: path)) ?? [:]
            let size = (attributes[.size] as? NSNumber)?.int64Value ?? -1
            let modified = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
            return Stamp(path: path, line: "\(path)\0\(size)\0\(modified)\n")
        }
    }
}
