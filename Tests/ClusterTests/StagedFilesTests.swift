@testable import Cluster
import Foundation
import Hashing
import Testing

@Suite("a release's files staged and flushed together")
struct StagedFilesTests {
    let root = NSTemporaryDirectory() + "themed-staged-\(UUID().uuidString.prefix(8))"

    @Test("files land in nested folders, each with exactly its bytes; a file written again is replaced whole")
    func nestedFiles() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        var staged = try StagedFiles(root: "\(root)/.staging-light-1")
        try staged.write(Array("a long first version".utf8), at: "Assets.xcassets/primary.colorset/Contents.json")
        try staged.write(Array("short".utf8), at: "Assets.xcassets/primary.colorset/Contents.json")
        try staged.write([], at: "empty")
        try staged.write(Array("{}".utf8), at: "theme.json")
        try staged.flush()
        let folder = "\(root)/.staging-light-1"
        #expect(try String(contentsOfFile: "\(folder)/Assets.xcassets/primary.colorset/Contents.json", encoding: .utf8) == "short")
        #expect(FileManager.default.contents(atPath: "\(folder)/empty") == Data())
        #expect(try String(contentsOfFile: "\(folder)/theme.json", encoding: .utf8) == "{}")
    }

    @Test("a file where a folder must go is refused, naming the path")
    func fileInTheWay() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        var staged = try StagedFiles(root: root)
        try staged.write(Array("plain".utf8), at: "colors")
        #expect { try staged.write(Array("{}".utf8), at: "colors/primary.json") } throws: { error in
            "\(error)".hasPrefix("cannot write \(root)/colors") && "\(error)".contains("ot a directory")
        }
    }

    @Test("a release that cannot be written (a file and a folder of one name) leaves the previous one serving, nothing beside it")
    func unwritableRelease() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let materializer = Materializer(themesDirectory: root)
        let bytes = Array("{}".utf8)
        let file = { (path: String) in Release.File(path: path, hash: ContentHash.of(bytes).hex, size: bytes.count) }
        try materializer.materialize(Release(theme: "light", generation: 1, files: [file("a.json")], retired: false)) { _ in bytes }
        let clash = Release(theme: "light", generation: 2, files: [file("a"), file("a/b.json")], retired: false)
        #expect(throws: StagedFiles.WriteFailed.self) { try materializer.materialize(clash) { _ in bytes } }
        #expect(materializer.generation(of: "light") == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: root) == ["light"])
    }

    @Test("a folder holds the materializer's last swap while its marker is that release's; not once replaced, nor one it never wrote")
    func lastSwap() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let materializer = Materializer(themesDirectory: root)
        let bytes = Array("{}".utf8)
        let file = Release.File(path: "a.json", hash: ContentHash.of(bytes).hex, size: bytes.count)
        for generation in [Int64(1), 2] {
            try materializer.materialize(Release(theme: "light", generation: generation, files: [file], retired: false)) { _ in bytes }
            #expect(materializer.holdsLastSwap("light"))
        }
        try FileManager.default.createDirectory(atPath: "\(root)/dark", withIntermediateDirectories: true)
        #expect(!materializer.holdsLastSwap("dark"), "a folder it never wrote")
        try "1\n".write(toFile: "\(root)/light/\(Materializer.marker)", atomically: true, encoding: .utf8)
        #expect(!materializer.holdsLastSwap("light"), "a folder put there by another hand")
    }

    @Test("a folder's generation is its marker's number; a missing, empty, foreign or overlong marker names none")
    func markers() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let materializer = Materializer(themesDirectory: root)
        func marking(_ theme: String, _ text: String) throws {
            try FileManager.default.createDirectory(atPath: "\(root)/\(theme)", withIntermediateDirectories: true)
            try text.write(toFile: "\(root)/\(theme)/\(Materializer.marker)", atomically: false, encoding: .utf8)
        }
        try marking("written", "42\n")
        try marking("largest", "\(Int64.max)\n")
        try marking("empty", "")
        try marking("foreign", "forty-two\n")
        try marking("overlong", "7" + String(repeating: " ", count: 100))
        try FileManager.default.createDirectory(atPath: "\(root)/unmarked", withIntermediateDirectories: true)
        #expect(materializer.generation(of: "written") == 42)
        #expect(materializer.generation(of: "largest") == Int64.max)
        for theme in ["empty", "foreign", "overlong", "unmarked", "absent"] {
            #expect(materializer.generation(of: theme) == nil, "\(theme)")
        }

        // The inventory: the folders with a marker, a kept generation by its folder's name, and
        // nothing hidden (a release being written or set aside).
        try marking("written@41", "41\n")
        try marking(".staging-written-43", "43\n")
        #expect(materializer.inventory() == Materializer.Inventory(themes: ["written": 42, "largest": .max],
                                                                    kept: [PinnedGeneration(theme: "written", generation: 41)]))
    }
}
