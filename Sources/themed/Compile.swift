import ArgumentParser
import CatalogWriter
import Foundation
import ThemeIndex

/// `themed compile SRC.xcassets -o OUT.car`: build a catalog on Linux, without Xcode.
struct Compile: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compile",
        abstract: "Compile an .xcassets folder into a .car catalog.",
        discussion: "The output is written to a temporary file and renamed into place, so a watching themed never sees half a catalog. "
            + "A theme of design tokens with tokens that cannot be resolved is exit status 1 and writes nothing, unless --allow-errors.")

    @Argument(help: "The .xcassets folder, or a theme folder of design tokens (*.tokens.json, *.resolver.json).") var source: String
    @Option(name: .shortAndLong, help: "The .car file to write.") var output: String
    @Option(help: "ios, macos, tvos or watchos.") var platform = "ios"
    @Option(help: "Recorded in the catalog's metadata.") var minimumDeploymentTarget = "15.0"
    @Flag(help: "Write the catalog of what resolves though some tokens do not (they are named on standard error).") var allowErrors = false

    func run() throws {
        guard let platform = CatalogCompiler.Platform(rawValue: platform) else {
            throw ValidationError("--platform must be one of \(CatalogCompiler.Platform.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        let compiler = CatalogCompiler(platform: platform, minimumDeploymentTarget: minimumDeploymentTarget)
        do {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: source, isDirectory: &isFolder), isFolder.boolValue else {
                throw ThemeError("\(source): no such folder (an .xcassets folder, or a theme of design tokens or a Material seed)")
            }
            if source.hasSuffix(".xcassets") || source.hasSuffix(".xcassets/") {
                try compiler.compile(source, to: output)
            } else {
                // A theme of design tokens or a Material seed: its colours as named colours, with
                // the appearances, contrast and gamut its theme.json maps; tokens that cannot be
                // resolved are named.
                let (entries, problems) = try ThemeFolder.colorEntries(in: URL(fileURLWithPath: source).standardizedFileURL.path)
                for problem in problems { FileHandle.standardError.write(Data("themed compile: \(problem)\n".utf8)) }
                guard problems.isEmpty || allowErrors else {
                    throw ThemeError("\(source): \(problems.count) tokens cannot be resolved; nothing written (--allow-errors writes what resolves)")
                }
                guard !entries.isEmpty else { throw ThemeError("\(source): no colour to compile") }
                try compiler.write(try compiler.compile(entries: entries), to: output)
            }
        } catch {
            FileHandle.standardError.write(Data("themed: \(error)\n".utf8))
            throw ExitCode(1)
        }
        print("compiled \(source) -> \(output)")
    }
}
