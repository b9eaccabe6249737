import Foundation

/// Answers kept on disk by URL with their ETag: what lets an app start offline from the last
/// good values, and revalidate with `If-None-Match` instead of downloading again.
///
/// Each entry is two files named by a hash of the URL: the body, and a small JSON record (the
/// URL itself, so that a hash collision is a miss, and the ETag). Writes go to a temporary file
/// renamed into place, so a crash leaves the old entry or the new one, never half of one.
public struct ResponseCache: Sendable {
    public struct Entry: Sendable, Equatable {
        public var body: Data
        public var etag: String?
    }

    private struct Record: Codable {
        var url: String
        var etag: String?
    }

    public let directory: URL

    public init(directory: URL) {
        self.directory = directory
    }

    public func entry(for url: URL) -> Entry? {
        let (recordFile, bodyFile) = files(for: url)
        guard let recordData = try? Data(contentsOf: recordFile),
              let record = try? JSONDecoder().decode(Record.self, from: recordData), record.url == url.absoluteString,
              let body = try? Data(contentsOf: bodyFile) else { return nil }
        return Entry(body: body, etag: record.etag)
    }

    public func store(_ entry: Entry, for url: URL) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let (recordFile, bodyFile) = files(for: url)
        try entry.body.write(to: bodyFile, options: .atomic)
        try JSONEncoder().encode(Record(url: url.absoluteString, etag: entry.etag)).write(to: recordFile, options: .atomic)
    }

    private func files(for url: URL) -> (record: URL, body: URL) {
        // FNV-1a, 64 bits: a stable file name from the URL without a crypto library.
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in url.absoluteString.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
        let name = String(hash, radix: 16)
        return (directory.appendingPathComponent(name + ".json"), directory.appendingPathComponent(name + ".body"))
    }
}
