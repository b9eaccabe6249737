import Codecs
import Foundation

/// What the reference renderer (`../shared/tools/carref.py`) hashes: R, G, B, A premultiplied,
/// gray expanded.
public enum ReferencePixels {
    public static func premultipliedRGBA(_ bitmap: Bitmap) -> [UInt8] {
        var rgba = [UInt8]()
        rgba.reserveCapacity(bitmap.width * bitmap.height * 4)
        switch bitmap.layout {
        case .bgra8:
            for index in stride(from: 0, to: bitmap.pixels.count, by: 4) {
                rgba += [bitmap.pixels[index + 2], bitmap.pixels[index + 1], bitmap.pixels[index], bitmap.pixels[index + 3]]
            }
        case .grayAlpha8:
            for index in stride(from: 0, to: bitmap.pixels.count, by: 2) {
                let gray = bitmap.pixels[index]
                rgba += [gray, gray, gray, bitmap.pixels[index + 1]]
            }
        default:
            rgba = bitmap.pixels
        }
        return rgba
    }
}

/// The shared oracle scripts (`../shared/tools`), run with python3 when they and their
/// packages (lzfse, numpy, pillow; `make py-deps`) are present.
public enum ReferenceTools {
    public static let directory: URL? = Corpus.carDirectory.map {
        $0.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("tools")
    }

    /// Why the tools cannot run here, or nil when they can.
    public static let unavailableReason: String? = {
        guard let directory, FileManager.default.fileExists(atPath: directory.appendingPathComponent("carref.py").path) else {
            return "../shared/tools not found"
        }
        return pythonUnavailableReason(modules: ["lzfse", "numpy", "PIL"])
    }()

    /// Why python3 with `modules` cannot run here, or nil when it can.
    public static func pythonUnavailableReason(modules: [String]) -> String? {
        (try? run(["-c", "import " + modules.joined(separator: ", ")]))?.status == 0
            ? nil : "python3 with \(modules.joined(separator: ", ")) not found (make py-deps)"
    }

    /// Runs `python3 arguments...` and returns its exit status and its output (standard output
    /// and error together, so that a failure explains itself).
    public static func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3"] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }

    /// Renders every rendition of `catalog` with carref.py into `folder` and returns its index
    /// records (one JSON object per rendition).
    public static func referenceRecords(of catalog: String, in folder: String) throws -> [[String: Any]] {
        guard let directory else { return [] }
        _ = try run([directory.appendingPathComponent("carref.py").path, "--out", folder, catalog])
        let index = "\(folder)/\((catalog as NSString).lastPathComponent)/index.jsonl"
        let text = String(decoding: FileManager.default.contents(atPath: index) ?? Data(), as: UTF8.self)
        return text.split(separator: "\n").compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] }
    }
}
