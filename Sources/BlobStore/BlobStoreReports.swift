import Hashing

/// What the blob store hands out and reports: a stored blob, the store's statistics, and what a
/// collection dropped.
extension BlobStore {
    /// A stored blob: where its bytes are, for `sendfile` or `read`.
    public struct Blob: Sendable {
        public let digest: Digest
        public let contentType: String
        public let count: Int
        public let pack: PackFile
        /// Where the bytes start in the pack.
        public let offset: Int
    }

    public struct Statistics: Sendable, Equatable {
        public var blobs = 0
        public var aliases = 0
        /// The bytes of the live blobs' bodies.
        public var blobBytes = 0
        /// The size of the pack files on disk (records, dead ones included until compaction).
        public var packBytes = 0
        /// Blobs whose bytes no longer matched their hash when first used (dropped, then rebuilt).
        public var corrupt = 0
        /// Records written, and blobs dropped or moved by collection.
        public var writes = 0
        public var collected = 0
        public var compactions = 0
    }

    public struct Collection: Sendable, Equatable {
        public var blobsDropped = 0
        public var aliasesDropped = 0
        public var bytesDropped = 0
        public var compacted = false
    }
}
