import Foundation
import Hashing
import Testing
import TestSupport
@testable import BlobStore

/// The blob store as a cache of encoded content: stored once, found again after a restart,
/// checked on first use, collected and compacted without losing what is referenced.
struct BlobStoreTests {
    let scratch = ScratchFolder("blobs")
    /// The store's folder, made by the store itself.
    var directory: String { scratch.path("store") }

    func bytes(_ seed: UInt8, count: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31) ^ seed }
    }

    @Test func contentHashIsSHA256() {
        for count in [0, 1, 55, 56, 64, 1000, 100_000] {
            let input = bytes(7, count: count)
            #expect(ContentHash.of(input).hex == SHA256.hex(input))
        }
        var hash = ContentHash()
        hash.add("ab")
        hash.add([UInt8(ascii: "c")])
        #expect(hash.hex == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad") // FIPS 180-2 "abc"
        #expect(Digest(hex: hash.hex) == hash.digest && Digest(hex: "xyz") == nil)
    }

    @Test func storesOnceAndReadsBack() throws {
        let store = try BlobStore(directory: directory)
        let payload = bytes(1, count: 5000)
        let first = try store.put(payload, contentType: "image/png", keys: ["catalog#1"])
        let again = try store.put(payload, contentType: "image/png", keys: ["catalog#1", "file"])
        #expect(first.digest == ContentHash.of(payload) && again.offset == first.offset)
        #expect(try store.read(first) == payload)
        #expect(store.verifiedBlob(forKey: "file")?.digest == first.digest)
        let statistics = store.statistics
        #expect(statistics.blobs == 1 && statistics.aliases == 2 && statistics.blobBytes == 5000 && statistics.writes == 3)
    }

    @Test("bytes stored under the digest they were hashed to already are the same blob as when the store hashes them")
    func storesUnderAKnownDigest() throws {
        let store = try BlobStore(directory: directory)
        let payload = bytes(2, count: 50_000)
        let known = try store.put(payload, digest: ContentHash.of(payload), contentType: "application/json")
        let hashed = try store.put(payload, contentType: "application/json")
        #expect(known.digest == ContentHash.of(payload) && hashed.offset == known.offset)
        #expect(try store.read(known) == payload && store.statistics.blobs == 1)
        let restarted = try BlobStore(directory: directory)
        #expect(restarted.blob(known.digest).map { try? restarted.read($0) } == payload, "checked against its digest after a restart")
    }

    @Test("trimmed to a budget, a cache store drops what was used longest ago, with its aliases, and its packs shrink")
    func trimDropsTheLeastRecentlyUsed() throws {
        let store = try BlobStore(directory: directory)
        let blobs = try (0..<8).map { n in try store.put(bytes(UInt8(n), count: 40_000), contentType: "image/png", keys: ["derived-\(n)"]) }
        // Blob 0, the oldest written, is used again: it is kept over 1, 2, ...
        #expect(store.verifiedBlob(forKey: "derived-0") != nil)
        let report = try store.trim(toBytes: 130_000)
        #expect(report.blobsDropped == 5 && report.aliasesDropped == 5 && report.bytesDropped == 200_000)
        #expect(store.statistics.blobBytes == 120_000 && store.statistics.blobBytes <= 130_000)
        #expect(store.verifiedBlob(forKey: "derived-0") != nil && store.verifiedBlob(forKey: "derived-7") != nil)
        #expect(store.verifiedBlob(forKey: "derived-1") == nil && store.verifiedBlob(blobs[1].digest) == nil)
        #expect(report.compacted && store.statistics.packBytes < 200_000, "the dropped bytes leave the disk")
        #expect(try store.trim(toBytes: 1 << 20) == BlobStore.Collection(), "under the budget: nothing to do")
        #expect(try store.read(#require(store.verifiedBlob(forKey: "derived-6"))) == bytes(6, count: 40_000))
    }

    @Test func aRestartFindsEveryBlobAndChecksItOnFirstUse() throws {
        let payload = bytes(2, count: 3000)
        do {
            let store = try BlobStore(directory: directory)
            try store.put(payload, contentType: "image/png", keys: ["key"])
        }
        let reopened = try BlobStore(directory: directory)
        #expect(reopened.verifiedBlob(forKey: "key") == nil, "not yet checked since the start")
        let blob = try #require(reopened.blob(forKey: "key"))
        #expect(blob.contentType == "image/png")
        #expect(try reopened.read(blob) == payload)
        #expect(reopened.verifiedBlob(forKey: "key") != nil)
    }

    @Test("a restart finds every record of a pack that mixes runs of small records, large bodies between them, runs of large ones, and a torn tail")
    func aRestartReadsMixedPacks() throws {
        // Sizes around the scan's window: small records come many to a read, large ones are skipped.
        let sizes = Array(repeating: 40, count: 300) + [PackReader.windowBytes * 3] + Array(repeating: 200, count: 100)
            + [PackReader.windowBytes - 100, PackReader.windowBytes + 1, PackReader.windowBytes * 2, 5 * PackReader.windowBytes] + [10, 20]
        let payloads = sizes.enumerated().map { bytes(UInt8(truncatingIfNeeded: $0.offset), count: $0.element + $0.offset) }
        let store = try BlobStore(directory: directory)
        for (number, payload) in payloads.enumerated() {
            try store.put(payload, contentType: "t/\(number)", keys: ["key-\(number)"])
        }
        let torn = try store.put(bytes(9, count: PackReader.windowBytes * 2), contentType: "t/torn", keys: ["torn"])
        truncate(torn.pack.path, off_t(torn.offset + PackReader.windowBytes))

        let reopened = try BlobStore(directory: directory)
        #expect(reopened.problems.count == 1 && reopened.problems[0].contains("cut short"))
        #expect(reopened.statistics.blobs == payloads.count && reopened.statistics.aliases == payloads.count)
        for (number, payload) in payloads.enumerated() {
            let blob = try #require(reopened.blob(forKey: "key-\(number)"))
            #expect(blob.contentType == "t/\(number)")
            #expect(try reopened.read(blob) == payload)
        }
        #expect(reopened.blob(forKey: "torn") == nil)
    }

    @Test func aCorruptBlobIsDroppedAndCanBeRebuilt() throws {
        let payload = bytes(3, count: 4000)
        let blob = try BlobStore(directory: directory).put(payload, contentType: "image/png", keys: ["key"])
        // Flip one byte of the body on disk.
        let handle = try #require(FileHandle(forUpdatingAtPath: blob.pack.path))
        try handle.seek(toOffset: UInt64(blob.offset + 100))
        try handle.write(contentsOf: [payload[100] ^ 0xFF])
        try handle.close()

        let reopened = try BlobStore(directory: directory)
        #expect(reopened.blob(forKey: "key") == nil)
        #expect(reopened.statistics.corrupt == 1 && reopened.statistics.blobs == 0)
        let rebuilt = try reopened.put(payload, contentType: "image/png", keys: ["key"])
        #expect(try reopened.read(rebuilt) == payload)
        #expect(try BlobStore(directory: directory).blob(forKey: "key").map { try reopened.read($0) } == payload)
    }

    @Test func aTornTailIsCutOffAtStartUp() throws {
        let store = try BlobStore(directory: directory)
        let kept = try store.put(bytes(4, count: 100), contentType: "text/plain", keys: ["kept"])
        let torn = try store.put(bytes(5, count: 1000), contentType: "text/plain")
        // A crash in the middle of the second record: the file ends inside its body.
        truncate(torn.pack.path, off_t(torn.offset + 10))

        let reopened = try BlobStore(directory: directory)
        #expect(reopened.problems.count == 1 && reopened.problems[0].contains("cut short"))
        #expect(reopened.blob(forKey: "kept")?.digest == kept.digest && reopened.blob(torn.digest) == nil)
        // Later writes land after the cut, not after garbage.
        let next = try reopened.put(bytes(6, count: 50), contentType: "text/plain", keys: ["next"])
        #expect(try BlobStore(directory: directory).blob(forKey: "next").map { try reopened.read($0) } == bytes(6, count: 50))
        #expect(next.offset < torn.offset + 1000)
    }

    @Test func notARecordIsReportedNotTrusted() throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: directory + "/00000001.pack", contents: Data(repeating: 0x41, count: 500))
        let store = try BlobStore(directory: directory)
        #expect(store.problems.first?.contains("not a record") == true && store.statistics.blobs == 0)
    }

    @Test func collectionKeepsReferencedBlobsAndCompacts() throws {
        let store = try BlobStore(directory: directory, packLimit: 64 << 10)
        var kept: [String: [UInt8]] = [:]
        for index in 0..<40 {
            let payload = bytes(UInt8(index), count: 20_000 + index)
            try store.put(payload, contentType: "image/png", keys: ["key\(index)"])
            if index % 4 == 0 { kept["key\(index)"] = payload }
        }
        // Within the grace period nothing goes.
        #expect(try store.collect(keeping: Set(kept.keys), grace: .seconds(60)).blobsDropped == 0)
        let before = store.statistics.packBytes
        let report = try store.collect(keeping: Set(kept.keys), grace: .zero)
        #expect(report.blobsDropped == 30 && report.aliasesDropped == 30 && report.compacted)
        let after = store.statistics
        #expect(after.blobs == 10 && after.packBytes < before / 3)
        #expect(Double(after.packBytes) <= 1.1 * Double(after.blobBytes))
        for (key, payload) in kept {
            #expect(try store.blob(forKey: key).map { try store.read($0) } == payload)
        }
        // And so after a restart, from the compacted packs alone.
        let reopened = try BlobStore(directory: directory)
        #expect(reopened.problems.isEmpty && reopened.statistics.blobs == 10)
        for (key, payload) in kept {
            #expect(try reopened.blob(forKey: key).map { try reopened.read($0) } == payload)
        }
    }

    @Test func aBlobInUseSurvivesCompaction() throws {
        let store = try BlobStore(directory: directory)
        let payload = bytes(9, count: 200_000)
        let blob = try store.put(payload, contentType: "application/pdf")
        try store.put(bytes(10, count: 300_000), contentType: "application/pdf")
        // The reference a response holds keeps its pack readable after compaction deleted it.
        try store.collect(keeping: [], extraBlobs: [blob.digest], grace: .zero)
        #expect(!FileManager.default.fileExists(atPath: blob.pack.path))
        #expect(try store.read(blob) == payload)
    }

    @Test("writers on several threads, lookups and a compaction at once: every record whole where the index says, also after a restart")
    func concurrentWritersKeepThePacksWhole() throws {
        let store = try BlobStore(directory: directory, packLimit: 256 << 10)
        let payloads = (0..<160).map { bytes(UInt8($0 % 251), count: 3_000 + $0 * 97) }
        DispatchQueue.concurrentPerform(iterations: 4) { writer in
            for index in stride(from: writer, to: payloads.count, by: 4) {
                #expect(throws: Never.self) { try store.put(payloads[index], contentType: "application/json", keys: ["key\(index)"]) }
                // Lookups meanwhile, as the event loops make them.
                _ = store.verifiedBlob(ContentHash.of(payloads[index / 2]))
                if writer == 0, index == 80 {
                    #expect(throws: Never.self) { try store.collect(keeping: Set((0..<payloads.count).map { "key\($0)" }), grace: .zero) }
                }
            }
        }
        for (index, payload) in payloads.enumerated() {
            #expect(try store.verifiedBlob(forKey: "key\(index)").map { try store.read($0) } == payload)
        }
        let reopened = try BlobStore(directory: directory)
        #expect(reopened.problems.isEmpty)
        #expect(reopened.statistics.blobs == payloads.count)
        for (index, payload) in payloads.enumerated() {
            #expect(try reopened.blob(forKey: "key\(index)").map { try reopened.read($0) } == payload)
        }
    }

    @Test func anUnwritableFolderIsAClearError() {
        #expect(throws: BlobStoreError.self) { try BlobStore(directory: "/proc/themed-blobs") }
    }
}
