import ArgumentParser
import CatalogWriter
import Foundation

/// `themed compile SRC.xcassets -o OUT.car`: build a catalog on Linux, without Xcode.
struct Compile: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Compile an .xcassets folder into a .car catalog.",
        discussion: "The output is written to a temporary file and renamed into place, so a watching themed never sees half a catalog.")

    @Argument(help: "The .xcassets folder.") var source: String
    @Option(name: .shortAndLong, help: "The .car file to write.") var output: String
    @Option(help: "ios, macos, tvos or watchos.") var platform = "ios"
    @Option(help: "Recorded in the catalog's metadata.") var minimumDeploymentTarget = "15.0"

    func run() throws {
        guard let platform = CatalogCompiler.Platform(rawValue: platform) else {
            throw ValidationError("--platform must be one of \(CatalogCompiler.Platform.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        do {
            try CatalogCompiler(platform: platform, minimumDeploymentTarget: minimumDeploymentTarget).compile(source, to: output)
        } catch {
            FileHandle.standardError.write(Data("themed: \(error)\n".utf8))
            throw ExitCode(1)
        }
        print("compiled \(source) -> \(output)")
    }
}
