import Foundation

/// Answers kept on disk by URL with their ETag: what lets an app start offline from the last
/// good values, and revalidate with `If-None-Match` instead of downloading again.
///
/// Each entry is one file named by a hash of the URL: a line of JSON (the URL itself, so that a
/// hash collision is a miss, and the ETag), then the body. It is written to a temporary file and
/// renamed into place, so a crash leaves the old entry or the new one, never a body with another
/// body's ETag. The client stores only answers it has parsed whole.
public struct ResponseCache: Sendable {
    public struct Entry: Sendable, Equatable {
        public var body: Data
        public var etag: String?

        public init(body: Data, etag: String?) {
            (self.body, self.etag) = (body, etag)
        }
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
        guard let file = try? Data(contentsOf: file(for: url)), let newline = file.firstIndex(of: UInt8(ascii: "\n")),
              let record = try? JSONDecoder().decode(Record.self, from: file[..<newline]), record.url == url.absoluteString else { return nil }
        return Entry(body: Data(file[(newline + 1)...]), etag: record.etag)
    }

    /// When the entry for `url` was written; nil when there is none.
    func written(for url: URL) -> Date? {
        (try? FileManager.default.attributesOfItem(atPath: file(for: url).path))?[.modificationDate] as? Date
    }

    public func store(_ entry: Entry, for url: URL) throws(ThemedClientError) {
        var file = (try? JSONEncoder().encode(Record(url: url.absoluteString, etag: entry.etag))) ?? Data()
        file.append(UInt8(ascii: "\n"))
        file.append(entry.body)
        try write(file, to: self.file(for: url))
    }

    /// A small file of the client's own beside the answers (the client id, an alias's assignment).
    func kept(_ name: String) -> Data? {
        try? Data(contentsOf: directory.appendingPathComponent(name))
    }

    func keep(_ data: Data, as name: String) throws(ThemedClientError) {
        try write(data, to: directory.appendingPathComponent(name))
    }

    private func write(_ data: Data, to file: URL) throws(ThemedClientError) {
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try data.write(to: file, options: .atomic)
        } catch {
            throw .cache("cannot write \(file.lastPathComponent) in \(directory.path): \(error.localizedDescription)")
        }
    }

    private func file(for url: URL) -> URL {
        // FNV-1a, 64 bits: a stable file name from the URL without a crypto library.
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in url.absoluteString.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
        return directory.appendingPathComponent(String(hash, radix: 16) + ".answer")
    }
}
