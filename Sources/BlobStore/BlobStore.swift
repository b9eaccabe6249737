#if canImport(Glibc)
import Glibc
#endif
import Hashing
import Synchronization

/// Bytes stored once under their SHA-256, in append-only pack files under one folder, and
/// aliases that name content before it is encoded (a catalog rendition, a mirrored file) so that
/// a restart finds the encoded bytes without decoding anything.
///
/// Like FastImageCache's image tables (seed 002) the bytes live in a few large files rather than
/// one file per blob: small blobs cost no file-system block each, and a response is one
/// `sendfile` from an open pack. Nothing is synced: a blob is checked against its name (its
/// hash) the first time it is used after a start, so a torn or damaged record is found, dropped
/// and rebuilt by whoever asked for it. `collect` drops what nobody references after a grace
/// period and rewrites the packs when more than a tenth of them is dead.
public final class BlobStore: Sendable {
    public let directory: String
    private let packLimit: Int
    private let state: Mutex<State>
    /// Held by whoever appends to the packs (one writer at a time, the end of the pack being
    /// written is theirs), without holding `state` while the bytes go to the disk.
    private let appending = Mutex(())

    private struct Entry {
        var pack: PackFile
        /// The offset of the record; the body follows its header and label.
        var recordOffset: Int
        var record: PackRecord
        var contentType: String
        var verified: Bool
        var touched: ContinuousClock.Instant

        var bodyOffset: Int { recordOffset + PackRecord.headerLength + record.label.count }
    }

    private struct Alias {
        var target: Digest
        var pack: PackFile
        var record: PackRecord
        var touched: ContinuousClock.Instant
    }

    private struct State {
        var blobs: [Digest: Entry] = [:]
        var aliases: [Digest: Alias] = [:]
        /// Every open pack by number; the highest is written to.
        var packs: [Int: PackFile] = [:]
        var writing: PackFile?
        var writeOffset = 0
        var statistics = Statistics()
        var problems: [String] = []
    }

    /// Opens (creating it if needed) the store in `directory` and reads the index of its packs.
    /// A damaged tail (a record cut short by a crash) is cut off and reported in `problems`.
    public init(directory: String, packLimit: Int = 64 << 20) throws(BlobStoreError) {
        self.directory = directory
        self.packLimit = packLimit
        try PackFile.makeDirectory(directory)
        var state = State()
        for number in try PackFile.numbers(in: directory) {
            let pack = try PackFile(path: Self.packPath(directory, number), number: number)
            state.packs[number] = pack
            Self.scan(pack, into: &state)
        }
        if let last = state.packs.keys.max(), let pack = state.packs[last], pack.size < packLimit {
            (state.writing, state.writeOffset) = (pack, pack.size)
        }
        self.state = Mutex(state)
    }

    /// Damage found when the packs were read at start-up.
    public var problems: [String] { state.withLock { $0.problems } }

    public var statistics: Statistics {
        state.withLock { state in
            var statistics = state.statistics
            statistics.blobs = state.blobs.count
            statistics.aliases = state.aliases.count
            statistics.blobBytes = state.blobs.values.reduce(0) { $0 + $1.record.bodyLength }
            statistics.packBytes = state.packs.values.reduce(0) { $0 + $1.size }
            return statistics
        }
    }

    // MARK: Lookups

    /// The blob named `digest` if it is stored and was checked since start-up: no I/O, fine on an
    /// event loop.
    public func verifiedBlob(_ digest: Digest) -> Blob? {
        state.withLock { state in
            guard var entry = state.blobs[digest], entry.verified else { return nil }
            entry.touched = .now
            state.blobs[digest] = entry
            return Self.blob(digest, entry)
        }
    }

    /// The blob the alias `key` points at, if it was checked since start-up (no I/O).
    public func verifiedBlob(forKey key: String) -> Blob? {
        guard let target = target(ofKey: key) else { return nil }
        return verifiedBlob(target)
    }

    /// The blob named `digest`, its bytes checked against the name on first use (a read of the
    /// whole blob: call it off the event loops). A blob that fails the check is dropped: nil.
    public func blob(_ digest: Digest) -> Blob? {
        guard let entry = state.withLock({ $0.blobs[digest] }) else { return nil }
        if entry.verified { return verifiedBlob(digest) }
        let intact = (try? entry.pack.read(at: entry.bodyOffset, count: entry.record.bodyLength)).map { ContentHash.of($0) == digest } ?? false
        return state.withLock { state in
            guard var current = state.blobs[digest], current.pack === entry.pack, current.recordOffset == entry.recordOffset else {
                return state.blobs[digest].flatMap { $0.verified ? Self.blob(digest, $0) : nil }
            }
            guard intact else {
                state.blobs[digest] = nil
                state.statistics.corrupt += 1
                return nil
            }
            current.verified = true
            current.touched = .now
            state.blobs[digest] = current
            return Self.blob(digest, current)
        }
    }

    /// The blob the alias `key` points at, checked on first use.
    public func blob(forKey key: String) -> Blob? {
        guard let target = target(ofKey: key) else { return nil }
        return blob(target)
    }

    /// Whether the blob `digest` is stored (not necessarily checked yet): no I/O.
    public func contains(_ digest: Digest) -> Bool {
        state.withLock { $0.blobs[digest] != nil }
    }

    /// The digest the alias `key` points at (the blob itself may be gone).
    public func target(ofKey key: String) -> Digest? {
        let name = ContentHash.of(Array(key.utf8))
        return state.withLock { state in
            guard var alias = state.aliases[name] else { return nil }
            alias.touched = .now
            state.aliases[name] = alias
            return alias.target
        }
    }

    /// The bytes of a blob.
    public func read(_ blob: Blob) throws(BlobStoreError) -> [UInt8] {
        try blob.pack.read(at: blob.offset, count: blob.count)
    }

    // MARK: Writing

    /// Stores `bytes` (once: an intact blob with the same hash is reused) and points the aliases
    /// `keys` at it.
    @discardableResult
    public func put(_ bytes: [UInt8], contentType: String, keys: [String] = []) throws(BlobStoreError) -> Blob {
        try put(bytes, digest: ContentHash.of(bytes), contentType: contentType, keys: keys)
    }

    /// The same, for bytes whose SHA-256 the caller made from them (a `ContentStore.Content`'s
    /// digest, its ETag): a JSON answer kept as a blob was hashed for its ETag on the event loop,
    /// and hashing its 50 KB again cost the worker as much as writing them. The test build
    /// checks that the digest is the bytes'.
    @discardableResult
    public func put(_ bytes: [UInt8], digest: Digest, contentType: String, keys: [String] = []) throws(BlobStoreError) -> Blob {
        guard bytes.count <= PackRecord.maximumBodyLength else { throw .tooLarge(bytes.count) }
        #if DEBUG || CHECK_INVARIANTS
        precondition(ContentHash.of(bytes) == digest, "a blob stored under \(digest.hex) whose bytes hash otherwise")
        #endif
        let existing = blob(digest)
        return try appending.withLock { _ throws(BlobStoreError) -> Blob in
            let entry: Entry
            if let existing, let current = state.withLock({ $0.blobs[existing.digest] }) {
                entry = current
            } else {
                let record = PackRecord(kind: .blob, digest: digest, label: Array(contentType.utf8.prefix(255)), bodyLength: bytes.count)
                let (pack, offset) = try append(record, body: bytes)
                entry = Entry(pack: pack, recordOffset: offset, record: record, contentType: contentType, verified: true, touched: .now)
                state.withLock { $0.blobs[digest] = entry }
            }
            for key in keys { try setAlias(key, to: digest) }
            return Self.blob(digest, entry)
        }
    }

    /// Points the alias `key` at the blob `digest`.
    public func alias(_ key: String, to digest: Digest) throws(BlobStoreError) {
        try appending.withLock { _ throws(BlobStoreError) in try setAlias(key, to: digest) }
    }

    /// Call holding `appending`.
    private func setAlias(_ key: String, to digest: Digest) throws(BlobStoreError) {
        let name = ContentHash.of(Array(key.utf8))
        if let alias = state.withLock({ $0.aliases[name] }), alias.target == digest { return }
        let record = PackRecord(kind: .alias, digest: digest, label: name.bytes, bodyLength: 0)
        let (pack, _) = try append(record, body: [])
        state.withLock { $0.aliases[name] = Alias(target: digest, pack: pack, record: record, touched: .now) }
    }

    /// Writes a record at the end of the pack being written, starting a new pack when it is full.
    /// Call holding `appending`: the end moves only under it, so the write itself is made outside
    /// `state`, whose lock the event loops take for every lookup and must not wait on a disk for.
    private func append(_ record: PackRecord, body: [UInt8]) throws(BlobStoreError) -> (PackFile, Int) {
        let (pack, offset) = try state.withLock { state throws(BlobStoreError) -> (PackFile, Int) in
            if state.writing == nil || state.writeOffset >= packLimit {
                let number = (state.packs.keys.max() ?? 0) + 1
                let pack = try PackFile(path: Self.packPath(directory, number), number: number)
                state.packs[number] = pack
                (state.writing, state.writeOffset) = (pack, 0)
            }
            guard let pack = state.writing else { throw .io(directory, "has no pack to write", 0) }
            return (pack, state.writeOffset)
        }
        do {
            try pack.write(record.encodedHead() + body, at: offset)
        } catch {
            pack.truncate(to: offset) // a half-written record would hide the ones after it
            throw error
        }
        state.withLock { state in
            state.writeOffset = offset + record.length
            state.statistics.writes += 1
        }
        return (pack, offset)
    }

    // MARK: Collection

    /// Drops the aliases not in `keys` and the blobs no remaining alias points at, unless they
    /// were written or used within `grace`; then rewrites the packs if more than a tenth of
    /// their bytes is dead. Lookups and writes go on meanwhile: the copy is made outside the lock.
    @discardableResult
    public func collect(keeping keys: Set<String>, extraBlobs: Set<Digest> = [], grace: Duration) throws(BlobStoreError) -> Collection {
        let names = Set(keys.map { ContentHash.of(Array($0.utf8)) })
        let now = ContinuousClock.now
        var report = Collection()
        // Between two puts: a put publishes its blob, then its aliases; a blob seen between the
        // two has no alias yet and would be dropped under the alias about to point at it.
        let needsCompaction = appending.withLock { _ in state.withLock { state -> Bool in
            for (name, alias) in state.aliases where !names.contains(name) && now - alias.touched > grace {
                state.aliases[name] = nil
                report.aliasesDropped += 1
            }
            let referenced = Set(state.aliases.values.map(\.target)).union(extraBlobs)
            for (digest, entry) in state.blobs where !referenced.contains(digest) && now - entry.touched > grace {
                state.blobs[digest] = nil
                report.blobsDropped += 1
                report.bytesDropped += entry.record.bodyLength
            }
            state.statistics.collected += report.blobsDropped
            return Self.worthCompacting(state)
        } }
        return try compacting(report, if: needsCompaction)
    }

    /// Drops the least recently used blobs (written, checked or looked up longest ago), and the
    /// aliases that point at them, until the live blobs' bytes are at most `bytes`; then rewrites
    /// the packs as `collect` does. For a store that is a cache (derived images): what it holds
    /// can be made again.
    @discardableResult
    public func trim(toBytes bytes: Int) throws(BlobStoreError) -> Collection {
        var report = Collection()
        // Between two puts, as `collect` drops.
        let needsCompaction = appending.withLock { _ in state.withLock { state -> Bool in
            var live = state.blobs.values.reduce(0) { $0 + $1.record.bodyLength }
            guard live > bytes else { return false }
            var dropped = Set<Digest>()
            for (digest, entry) in state.blobs.sorted(by: { $0.value.touched < $1.value.touched }) {
                guard live > bytes else { break }
                state.blobs[digest] = nil
                dropped.insert(digest)
                live -= entry.record.bodyLength
                report.blobsDropped += 1
                report.bytesDropped += entry.record.bodyLength
            }
            for (name, alias) in state.aliases where dropped.contains(alias.target) {
                state.aliases[name] = nil
                report.aliasesDropped += 1
            }
            state.statistics.collected += report.blobsDropped
            return Self.worthCompacting(state)
        } }
        return try compacting(report, if: needsCompaction)
    }

    /// The report of a collection, the packs rewritten first when that is worth it.
    private func compacting(_ report: Collection, if needed: Bool) throws(BlobStoreError) -> Collection {
        guard needed else { return report }
        try compact()
        var compacted = report
        compacted.compacted = true
        return compacted
    }

    /// Whether more than a tenth of the packs' bytes (and at least 64 KiB) is dead records.
    private static func worthCompacting(_ state: State) -> Bool {
        let live = state.blobs.values.reduce(0) { $0 + $1.record.length } + state.aliases.values.reduce(0) { $0 + $1.record.length }
        let onDisk = state.packs.values.reduce(0) { $0 + $1.size }
        return onDisk > live + live / 10 && onDisk - live > 64 << 10
    }

    /// Copies the live records of every pack but a fresh one into a new pack, points the index at
    /// the copies and deletes the old packs. Writes made meanwhile go to the fresh pack.
    private func compact() throws(BlobStoreError) {
        // Between two appends: one under way would end in the pack being copied, after the copy.
        let (blobs, aliases, old, number) = try appending.withLock { _ throws(BlobStoreError) in
            try state.withLock { state throws(BlobStoreError) in
                let old = Array(state.packs.values)
                let target = (state.packs.keys.max() ?? 0) + 1
                // New writes go to a pack of their own while the copy is made.
                let fresh = try PackFile(path: Self.packPath(directory, target + 1), number: target + 1)
                state.packs[fresh.number] = fresh
                (state.writing, state.writeOffset) = (fresh, 0)
                return (state.blobs, state.aliases, old, target)
            }
        }
        let pack = try PackFile(path: Self.packPath(directory, number), number: number)
        var offset = 0
        var moved: [Digest: Entry] = [:]
        for (digest, entry) in blobs.sorted(by: { $0.key < $1.key }) {
            guard let body = try? entry.pack.read(at: entry.bodyOffset, count: entry.record.bodyLength),
                  ContentHash.of(body) == digest else { continue }
            try pack.write(entry.record.encodedHead() + body, at: offset)
            moved[digest] = Entry(pack: pack, recordOffset: offset, record: entry.record, contentType: entry.contentType,
                                  verified: true, touched: entry.touched)
            offset += entry.record.length
        }
        var movedAliases: [Digest: Alias] = [:]
        for (name, alias) in aliases.sorted(by: { $0.key < $1.key }) where moved[alias.target] != nil {
            try pack.write(alias.record.encodedHead(), at: offset)
            movedAliases[name] = Alias(target: alias.target, pack: pack, record: alias.record, touched: alias.touched)
            offset += alias.record.length
        }
        let oldNumbers = Set(old.map(\.number))
        state.withLock { state in
            state.packs[number] = pack
            for (digest, entry) in state.blobs where oldNumbers.contains(entry.pack.number) {
                state.blobs[digest] = moved[digest]
            }
            for (name, alias) in state.aliases where oldNumbers.contains(alias.pack.number) {
                state.aliases[name] = movedAliases[name]
            }
            for number in oldNumbers { state.packs[number] = nil }
            state.statistics.compactions += 1
        }
        for pack in old { unlink(pack.path) }
    }

    // MARK: Files

    private static func blob(_ digest: Digest, _ entry: Entry) -> Blob {
        Blob(digest: digest, contentType: entry.contentType, count: entry.record.bodyLength, pack: entry.pack, offset: entry.bodyOffset)
    }

    private static func packPath(_ directory: String, _ number: Int) -> String {
        let digits = String(number)
        return "\(directory)/\(String(repeating: "0", count: max(0, 8 - digits.count)))\(digits).pack"
    }

    /// Reads the records of a pack into the index; cuts the pack at the first damaged record.
    private static func scan(_ pack: PackFile, into state: inout State) {
        var reader = PackReader(pack)
        // Every record of the packs read at start-up was touched then: one clock reading.
        let now = ContinuousClock.now
        var offset = 0
        while offset < reader.size {
            let head = reader.bytes(at: offset, count: PackRecord.headerLength + 255)
            let record: PackRecord
            do {
                record = try PackRecord.decodeHead(head, available: reader.size - offset)
            } catch {
                state.problems.append("\(pack.path): \(error == .truncated ? "a record cut short" : "not a record") at offset \(offset); "
                    + "\(reader.size - offset) bytes dropped")
                pack.truncate(to: offset)
                return
            }
            switch record.kind {
            case .blob:
                state.blobs[record.digest] = Entry(pack: pack, recordOffset: offset, record: record,
                                                   contentType: String(decoding: record.label, as: UTF8.self), verified: false, touched: now)
            case .alias:
                // decodeHead took only an alias whose label is a digest's 32 bytes.
                if let name = Digest(bytes: record.label) {
                    state.aliases[name] = Alias(target: record.digest, pack: pack, record: record, touched: now)
                }
            }
            offset += record.length
        }
    }
}
