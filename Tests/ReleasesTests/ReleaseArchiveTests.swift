import Foundation
import Releases
import Testing

/// Uploaded archives are untrusted: what `ReleaseArchive.unpack` takes, and what it refuses.
@Suite("release archives")
struct ReleaseArchiveTests {
    /// One ustar entry: a 512-byte header and the content padded to 512 bytes.
    static func entry(_ name: String, _ content: [UInt8] = [], type: Character = "0", link: String = "", claimedSize: Int? = nil) -> [UInt8] {
        var header = [UInt8](repeating: 0, count: 512)
        func put(_ text: String, at offset: Int) { for (index, byte) in text.utf8.enumerated() { header[offset + index] = byte } }
        put(name, at: 0)
        put("0000644", at: 100)
        put("0000000", at: 108)
        put("0000000", at: 116)
        put(String(format: "%011o", claimedSize ?? content.count), at: 124)
        put("00000000000", at: 136)
        put(String(type), at: 156)
        put(link, at: 157)
        put("ustar", at: 257)
        put("00", at: 263)
        put("        ", at: 148)
        let sum = header.reduce(0) { $0 + Int($1) }
        put(String(format: "%06o", sum) + "\0 ", at: 148)
        let padding = (512 - content.count % 512) % 512
        return header + content + [UInt8](repeating: 0, count: padding)
    }

    static func archive(_ entries: [[UInt8]]) -> [UInt8] { entries.flatMap { $0 } + [UInt8](repeating: 0, count: 1024) }

    /// Writes the archive, unpacks it into a fresh folder and returns the folder's files (or the refusal).
    static func unpack(_ bytes: [UInt8], totalBytes: Int = 1 << 20) -> Result<[String: [UInt8]], ReleaseArchive.Refused> {
        let folder = NSTemporaryDirectory() + "themed-archive-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try? FileManager.default.createDirectory(atPath: folder + "/out", withIntermediateDirectories: true)
        FileManager.default.createFile(atPath: folder + "/upload", contents: Data(bytes))
        do {
            try ReleaseArchive.unpack(folder + "/upload", into: folder + "/out", limits: .init(totalBytes: totalBytes))
        } catch {
            return .failure(error)
        }
        var files: [String: [UInt8]] = [:]
        let enumerator = FileManager.default.enumerator(atPath: folder + "/out")
        while let path = enumerator?.nextObject() as? String {
            if let data = FileManager.default.contents(atPath: "\(folder)/out/\(path)"), (enumerator?.fileAttributes?[.type] as? FileAttributeType) == .typeRegular {
                files[path] = Array(data)
            }
        }
        return .success(files)
    }

    @Test("a folder's files come out as they went in; ./ prefixes and hidden files (._ and .DS_Store) are dropped")
    func plainArchive() throws {
        let bytes = Self.archive([Self.entry("./Theme.xcassets/", type: "5"), Self.entry("./Theme.xcassets/Contents.json", Array("{}".utf8)),
                                  Self.entry("./._Contents.json", [1, 2]), Self.entry("Theme.xcassets/.DS_Store", [3])])
        #expect(try Self.unpack(bytes).get() == ["Theme.xcassets": [], "Theme.xcassets/Contents.json": Array("{}".utf8)].filter { !$0.value.isEmpty })
    }

    @Test("what pack writes (gzip-compressed), unpack reads back")
    func roundTrip() throws {
        let folder = NSTemporaryDirectory() + "themed-pack-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder + "/a/b", withIntermediateDirectories: true)
        let content = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 % 251) }
        FileManager.default.createFile(atPath: folder + "/a/b/data.bin", contents: Data(content))
        FileManager.default.createFile(atPath: folder + "/top.txt", contents: Data("top".utf8))
        try ReleaseArchive.pack([.init(path: "a/b/data.bin", location: folder + "/a/b/data.bin"), .init(path: "top.txt", location: folder + "/top.txt")],
                                to: folder + "/release.tar.gz")
        let packed = try #require(FileManager.default.contents(atPath: folder + "/release.tar.gz"))
        #expect(packed.prefix(2) == Data([0x1f, 0x8b]), "gzip")
        #expect(try Self.unpack(Array(packed)).get() == ["a/b/data.bin": content, "top.txt": Array("top".utf8)])
    }

    @Test("refused: a path out of the folder, an absolute path, a link, a device, too many bytes, a header that lies, not a tar")
    func refusals() {
        let cases: [(String, [UInt8], Bool)] = [
            ("..", Self.archive([Self.entry("../escape.txt", [1])]), false),
            ("..", Self.archive([Self.entry("a/../../escape.txt", [1])]), false),
            ("not a path", Self.archive([Self.entry("/etc/passwd", [1])]), false),
            ("not a regular file", Self.archive([Self.entry("link", type: "2", link: "/etc/passwd")]), false),
            ("not a regular file", Self.archive([Self.entry("hard", type: "1", link: "other")]), false),
            ("not a regular file", Self.archive([Self.entry("device", type: "3")]), false),
            ("bytes unpacked", Self.archive([Self.entry("big.bin", [UInt8](repeating: 7, count: 3000))]), true),
            ("", Array(Self.entry("short.bin", [1, 2, 3], claimedSize: 5000).prefix(600)), false),
            ("", Array("this is not an archive at all".utf8), false),
            ("no files", Self.archive([Self.entry("only/", type: "5")]), false),
        ]
        for (words, bytes, tooLarge) in cases {
            switch Self.unpack(bytes, totalBytes: 2048) {
            case .success(let files): Issue.record("unpacked \(files.keys) where \(words) was expected")
            case .failure(let refusal):
                #expect(refusal.tooLarge == tooLarge && (words.isEmpty || refusal.description.contains(words)), "\(refusal)")
            }
        }
    }
}
