import CVips
import Foundation
import Testing

/// libvips is loaded when the first image is coded, not linked (Sources/CVips): `themed` starts
/// without its libraries, and what Sources/CVips/vips_abi.h declares of it is checked here
/// against the installed headers.
@Suite("libvips, loaded at first use")
struct VipsLoaderTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe()
        (process.standardOutput, process.standardError) = (output, output)
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }

    @Test("the functions and constants declared for libvips are those of the installed <vips/vips.h>")
    func declarationsMatchTheHeaders() throws {
        let flags = try Self.run("/usr/bin/pkg-config", ["--cflags", "vips"])
        #expect(flags.status == 0, "pkg-config --cflags vips: \(flags.output)")
        let check = Self.repository.appendingPathComponent("Tests/ImageCodersTests/vips-abi-check.c").path
        let compiled = try Self.run("/usr/bin/cc", flags.output.split(whereSeparator: \.isWhitespace).map(String.init) + ["-std=gnu11", "-fsyntax-only", check])
        #expect(compiled.status == 0, "\(compiled.output)")
    }

    @Test("the themed binary does not link libvips: a command that codes no image never loads it")
    func notLinked() throws {
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("themed").path
        let linked = try Self.run("/usr/bin/ldd", [binary])
        #expect(linked.status == 0 && linked.output.contains("libc.so"), "\(linked.output)")
        #expect(!linked.output.contains("libvips"), "\(linked.output)")
    }

    @Test("started, it loads libvips once, and codes")
    func startsOnce() {
        #expect(themed_vips_start() == 0, "\(themed_vips_error().map { String(cString: $0) } ?? "")")
        #expect(themed_vips_start() == 0)
    }
}
