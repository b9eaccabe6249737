import ArgumentParser
import FigmaVariables
import Foundation

/// `themed import`: design tokens brought in from the tools teams keep them in, as files a theme
/// folder serves (and a design team commits: the same input writes the same bytes).
struct Import: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Bring design tokens in from the tools teams keep them in.",
        subcommands: [Figma.self])

    struct Figma: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "figma",
            abstract: "Write a Figma file's variables as DTCG token files and a resolver.",
            discussion: """
                FILE is the answer of Figma's REST API GET /v1/files/:key/variables/local (or its meta object), \
                e.g. curl -H "X-Figma-Token: $TOKEN" https://api.figma.com/v1/files/KEY/variables/local > variables.json. \
                Each local collection becomes a set (one mode) or a modifier (several) of figma.resolver.json. \
                What does not map one to one is printed as a note. A file that cannot be read exits 2 and \
                leaves the folder as it was. Example: themed import figma variables.json -o themes/brand
                """)

        /// A larger file is refused before it is parsed (the API's answer for thousands of variables is a few MB).
        static let maximumBytes = 64 << 20

        @Argument(help: "The API's answer, saved as JSON.") var file: String
        @Option(name: [.customShort("o"), .long], help: "The theme folder to write (created if needed; its other files are left alone).") var output: String?
        @Option(help: "Write nothing; exit 1 listing what differs when this folder is not what FILE gives.") var check: String?

        func validate() throws {
            guard (output == nil) != (check == nil) else { throw ValidationError("give -o FOLDER to write, or --check FOLDER to compare") }
        }

        func run() throws {
            let imported = FigmaImport(try read())
            for note in imported.notes { FileHandle.standardError.write(Data("note: \(note)\n".utf8)) }
            if let check {
                let differences = ImportedFolder(path: check).differences(from: imported.files)
                for difference in differences { print(difference) }
                guard differences.isEmpty else { throw ExitCode(1) }
                print("\(check): in sync with \(file) (\(imported.files.count) files)")
            } else if let output {
                do {
                    try ImportedFolder(path: output).write(imported.files)
                } catch {
                    throw Publish.refuse("\(output): \(error)", command: "import figma")
                }
                print("wrote \(imported.files.count) files to \(output)")
            }
        }

        private func read() throws -> FigmaFile {
            guard let handle = FileHandle(forReadingAtPath: file) else { throw Publish.refuse("\(file): cannot be read", command: "import figma") }
            defer { try? handle.close() }
            let data = (try? handle.read(upToCount: Self.maximumBytes + 1)) ?? Data()
            guard data.count <= Self.maximumBytes else { throw Publish.refuse("\(file): larger than \(Self.maximumBytes >> 20) MB", command: "import figma") }
            do {
                return try FigmaFile(bytes: [UInt8](data))
            } catch {
                throw Publish.refuse("\(file): \(error)", command: "import figma")
            }
        }
    }
}
