import CLinux
import Foundation
import Hashing
import Synchronization
import ThemeVocabulary

/// Writes releases into the local themes folder, the way a dropped .car arrives: the new folder is
/// built beside the old one (hidden, so the index never sees it half-written), every file checked
/// against its hash and on disk, then swapped in with one atomic exchange. A release that cannot be written
/// leaves the previous one serving. The previous release's folder waits, hidden, for `removeReplaced`.
public struct Materializer: Sendable {
    public let themesDirectory: String
    /// Inside each materialized theme: the generation it holds.
    static let marker = ".themed-release"
    /// What this materializer did to the folder that it asks again later.
    private let record = Record()

    private final class Record: Sendable {
        /// The folders of replaced releases set aside since `removeReplaced` last ran: it removes
        /// them by name, without listing a folder of a platform's 10,000 themes after each change.
        let setAside = Mutex<[String]>([])
        /// The generation last swapped into each folder.
        let swappedIn = Mutex<[String: Generation]>([:])
    }

    public init(themesDirectory: String) {
        self.themesDirectory = themesDirectory
    }

    /// The generation of the theme's folder, if a release made it. Read with one open and one
    /// read: a sync asks it of every theme, and `String(contentsOfFile:)` resolved each link of
    /// the path first (an eighth of a replica's start with 10,000 themes).
    public func generation(of theme: String) -> Generation? {
        let descriptor = open("\(themesDirectory)/\(theme)/\(Self.marker)", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        // A generation is at most 19 digits and a newline; a longer file is not a marker of ours.
        var bytes = [UInt8](repeating: 0, count: 64)
        let count = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        guard count > 0, count < bytes.count else { return nil }
        return Generation(String(decoding: bytes[..<count], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// What releases made in the themes folder.
    public struct Inventory: Sendable, Equatable {
        /// Each theme's generation (not the generations kept beside them).
        public var themes: [String: Generation] = [:]
        /// The older or newer generations kept here in folders of their own (`brand@43`): a
        /// rollout's, or one an alias pins.
        public var kept: Set<PinnedGeneration> = []
    }

    /// The folder listed once and each marker read once: a sync of every theme asks after
    /// each of a platform's 10,000.
    public func inventory() -> Inventory {
        var inventory = Inventory()
        for name in (try? FileManager.default.contentsOfDirectory(atPath: themesDirectory)) ?? [] where !name.hasPrefix(".") {
            guard let generation = generation(of: name) else { continue }
            if let pin = ThemeName.pin(in: name) {
                inventory.kept.insert(PinnedGeneration(theme: pin.theme, generation: pin.generation))
            } else {
                inventory.themes[name] = generation
            }
        }
        return inventory
    }

    /// Whether `folder` holds the release this materializer last swapped in there (by its
    /// marker): a folder watcher that sees the swap has nothing to read that the follower, which
    /// reloads what it writes, does not.
    public func holdsLastSwap(_ folder: String) -> Bool {
        guard let swapped = record.swappedIn.withLock({ $0[folder] }) else { return false }
        return generation(of: folder) == swapped
    }

    /// The parent a materialized theme's `theme.json` names, if any.
    public func parent(of theme: String) -> String? {
        guard Release.isSafe(theme: theme) else { return nil }
        return (try? ThemeSettings(folder: "\(themesDirectory)/\(theme)"))?.parent ?? nil
    }

    /// Leftovers of a materialization that was cut short (a replica killed mid-way), and previous
    /// releases not removed yet: removed at start, so a restart begins clean.
    public func removeLeftovers() {
        let leftovers = [".staging-", ".replaced-", Self.previousPrefix]
        for name in (try? FileManager.default.contentsOfDirectory(atPath: themesDirectory)) ?? [] where leftovers.contains(where: name.hasPrefix) {
            try? FileManager.default.removeItem(atPath: "\(themesDirectory)/\(name)")
        }
    }

    /// Removes the folders of the releases that materializations replaced. A replica calls it once
    /// it has reported the change served: removing a folder waits for the disk once per directory
    /// in it (on a file system mounted with `discard`), and each wait, on a busy host, for a CPU.
    public func removeReplaced() {
        let replaced = record.setAside.withLock { paths in
            let taken = paths
            paths = []
            return taken
        }
        for path in replaced { try? FileManager.default.removeItem(atPath: path) }
    }

    /// The hidden name a replaced release's folder waits under for `removeReplaced`.
    static let previousPrefix = ".previous-"

    /// Writes `release` into the theme's folder, or with `kept`, into the folder of a generation
    /// kept beside it (`ThemeName.pinned`). A file the theme's folder already holds with the same
    /// content is taken from there; only the others are asked of `blob` (the store): a release
    /// usually changes a few of its files, and each question to a store short of CPU waits.
    public func materialize(_ release: Release, kept: Bool = false, blob: (String) throws -> [UInt8]) throws {
        guard Release.isSafe(theme: release.theme), !kept || ThemeName.isValid(release.theme) else { throw ClusterError.unsafeName(release.theme) }
        let folder = kept ? ThemeName.pinned(release.theme, generation: release.generation) : release.theme
        let manager = FileManager.default
        try manager.createDirectory(atPath: themesDirectory, withIntermediateDirectories: true)
        let staging = "\(themesDirectory)/.staging-\(folder)-\(release.generation)"
        try? manager.removeItem(atPath: staging)
        do {
            var staged = try StagedFiles(root: staging)
            for file in release.files {
                guard Release.isSafe(path: file.path) else { throw ClusterError.unsafeName(file.path) }
                try staged.write(try local(file, of: release.theme) ?? fetched(file, from: blob), at: file.path)
            }
            try staged.write(Array("\(release.generation)\n".utf8), at: Self.marker)
            try staged.flush()
            let target = "\(themesDirectory)/\(folder)"
            if manager.fileExists(atPath: target) {
                guard themed_exchange_paths(staging, target) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
                // `staging` now holds the previous release: set aside for `removeReplaced`.
                let previous = "\(themesDirectory)/\(Self.previousPrefix)\(folder)-\(release.generation)"
                if (try? manager.moveItem(atPath: staging, toPath: previous)) == nil {
                    try? manager.removeItem(atPath: staging)
                } else {
                    record.setAside.withLock { $0.append(previous) }
                }
            } else {
                try manager.moveItem(atPath: staging, toPath: target)
            }
            record.swappedIn.withLock { $0[folder] = release.generation }
        } catch {
            try? manager.removeItem(atPath: staging)
            throw error
        }
    }

    /// The bytes of `file` in the theme's folder as it is, when they are the release's (its size,
    /// then its hash); nil otherwise.
    private func local(_ file: Release.File, of theme: String) -> [UInt8]? {
        let path = "\(themesDirectory)/\(theme)/\(file.path)"
        guard let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int, size == file.size,
              let data = FileManager.default.contents(atPath: path) else { return nil }
        let bytes = Array(data)
        return ContentHash.of(bytes).hex == file.hash ? bytes : nil
    }

    /// The blob of `file` from the store, checked against its size and hash.
    private func fetched(_ file: Release.File, from blob: (String) throws -> [UInt8]) throws -> [UInt8] {
        let bytes = try blob(file.hash)
        guard bytes.count == file.size, ContentHash.of(bytes).hex == file.hash else { throw ClusterError.corruptBlob(file.hash) }
        return bytes
    }

    /// Takes a retired theme's folder away (moved aside first, then deleted).
    public func remove(_ theme: String) throws {
        guard Release.isSafe(theme: theme) else { throw ClusterError.unsafeName(theme) }
        let target = "\(themesDirectory)/\(theme)"
        guard FileManager.default.fileExists(atPath: target) else { return }
        let aside = "\(themesDirectory)/.replaced-\(theme)"
        try? FileManager.default.removeItem(atPath: aside)
        try FileManager.default.moveItem(atPath: target, toPath: aside)
        try FileManager.default.removeItem(atPath: aside)
    }
}
