import Foundation
import Testing
import TestSupport
import ThemeBundle

@Suite("the file system as the theme readers list it")
struct FileSystemTests {
    @Test("a listing names every entry but . and .., and tells folders from files and from links to folders")
    func listing() throws {
        let fixtures = ThemeFixtures()
        defer { fixtures.remove() }
        fixtures.write("{}", to: "theme/colors.tokens.json")
        fixtures.write("{}", to: "theme/nested/more.tokens.json")
        fixtures.write("", to: "theme/.hidden/file")
        try FileManager.default.createSymbolicLink(atPath: fixtures.path("theme/linked"), withDestinationPath: fixtures.path("theme/nested"))

        let entries = FileSystem.listing(of: fixtures.path("theme")).sorted { $0.name < $1.name }
        #expect(entries == [.init(name: ".hidden", isFolder: true), .init(name: "colors.tokens.json", isFolder: false),
                            .init(name: "linked", isFolder: false, isLink: true), .init(name: "nested", isFolder: true)])
        #expect(FileSystem.entries(of: fixtures.path("theme")) == ["colors.tokens.json", "linked", "nested"], "by name, without dot-files")
        #expect(FileSystem.listing(of: fixtures.path("theme/colors.tokens.json")).isEmpty, "a file lists nothing")
        #expect(FileSystem.listing(of: fixtures.path("absent")).isEmpty)
    }
}
