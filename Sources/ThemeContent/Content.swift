import BlobStore
import Hashing

/// What the content store hands out: served bytes, and why there are none.
extension ContentStore {
    /// Served bytes: a stored blob (sent from its pack with `sendfile`), or bytes in memory when
    /// the blob store could not keep them.
    public struct Content: Sendable {
        public enum Body: Sendable {
            case blob(BlobStore.Blob)
            case bytes([UInt8])
        }

        public var body: Body
        /// The SHA-256 of the bytes: their ETag and their name under `/blobs/`.
        public var digest: Digest
        public var contentType: String
        /// The bitmap was mirrored for the opposite direction (vectors and other formats are
        /// served as stored).
        public var isMirrored = false

        public var count: Int {
            switch body {
            case .blob(let blob): blob.count
            case .bytes(let bytes): bytes.count
            }
        }

        public init(_ blob: BlobStore.Blob, isMirrored: Bool = false) {
            (body, digest, contentType, self.isMirrored) = (.blob(blob), blob.digest, blob.contentType, isMirrored)
        }

        /// Bytes in memory; `digest` when it is known already (an ETag that names these bytes).
        public init(bytes: [UInt8], contentType: String, digest: Digest? = nil, isMirrored: Bool = false) {
            (body, self.contentType, self.isMirrored) = (.bytes(bytes), contentType, isMirrored)
            self.digest = digest ?? ContentHash.of(bytes)
        }
    }

    /// Why a variant has no bytes to serve.
    public struct Unavailable: Error, CustomStringConvertible {
        public var description: String
        public init(description: String) { self.description = description }
    }

    /// A worker pool's queue is full (the decoders', or the transforms'): the load was not started.
    public struct Busy: Error, CustomStringConvertible {
        public var queue = "decoder"
        public var description: String { "the \(queue) queue is full; try again" }
    }
}
