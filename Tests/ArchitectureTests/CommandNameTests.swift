import Foundation
import Testing

/// Every command of the `themed` binary names itself. ArgumentParser names a command that does
/// not by `String(describing:)` of its type, and it names every command at every start (to build
/// the tree it parses against): each such name is a reflection that scans every protocol
/// conformance in the binary, about a fifth of the CPU a command spent before it began its work.
/// On a machine short of CPU that is time `themed publish` waits in the scheduler's queue.
@Suite("command names")
struct CommandNameTests {
    static var command: Regex<(Substring, Substring, Substring?)> { /struct (\w+): (?:(?:Async)?ParsableCommand|ClusterChangeCommand) \{[^}]*?static let configuration = CommandConfiguration\(\s*(commandName:)?/ }

    @Test("every ParsableCommand in Sources/themed (a ClusterChangeCommand among them) gives its commandName")
    func commandsNameThemselves() throws {
        let folder = LayeringTests.root.appendingPathComponent("Sources/themed")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }
        var commands = 0
        for file in files {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            for match in text.matches(of: Self.command) {
                commands += 1
                #expect(match.output.2 != nil, "\(match.output.1) in Sources/themed/\(file): give CommandConfiguration a commandName")
            }
        }
        #expect(commands >= 27, "the walk found the commands (\(commands))")
    }

    @Test("the check sees a command named by reflection")
    func unnamedCommandIsSeen() throws {
        let unnamed = "struct Retire: ParsableCommand {\n    static let configuration = CommandConfiguration(abstract: \"Retire a theme.\")"
        let named = "struct Retire: ParsableCommand {\n    static let configuration = CommandConfiguration(\n        commandName: \"retire\","
        #expect(try #require(unnamed.firstMatch(of: Self.command)).output.2 == nil)
        #expect(try #require(named.firstMatch(of: Self.command)).output.2 != nil)
    }
}
