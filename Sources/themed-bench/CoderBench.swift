import CVips
import Codecs
import Foundation
import ImageCoders
import ThemeVocabulary

/// `themed-bench coders THEMES`: WebP encoding by the image coders against Debian's `cwebp` on the
/// same PNG input (the sample logo at 3x, and a 1024 px icon drawn here), and the time of a
/// 1024 -> 256 px downscale. Prints one JSON object per measurement.
enum CoderBench {
    static func run(themes: String) throws {
        let logo = Array(try Data(contentsOf: URL(fileURLWithPath: "\(themes)/light/Theme.xcassets/logo.imageset/logo@3x.png")))
        let icon = PNG.encode(Self.icon(size: 1024))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("themed-coders-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }

        var lossy = VipsCoder()
        lossy.losslessFromPNG = false
        let modes: [(String, ImageCoderRegistry, [String])] = [
            ("lossless", ImageCoderRegistry(), ["-lossless", "-q", "75", "-m", "4"]),
            ("lossy q75", ImageCoderRegistry(coders: [lossy]), ["-q", "75", "-m", "4"]),
        ]
        for (name, input) in [("sample logo@3x", logo), ("1024 px icon", icon)] {
            let path = folder.appendingPathComponent("input.png")
            try Data(input).write(to: path)
            for (mode, registry, flags) in modes {
                var ours: [Double] = []
                var size = 0
                for _ in 0..<15 {
                    let start = DispatchTime.now().uptimeNanoseconds
                    size = try registry.transcode(input, ImageRequest(format: .webp)).bytes.count
                    ours.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
                }
                let reference = try cwebp(flags, input: path, output: folder.appendingPathComponent("out.webp"))
                print(#"{"bench": "webp \#(mode)", "input": "\#(name)", "input_bytes": \#(input.count), "themed_ms": \#(median(ours)), "themed_bytes": \#(size), "cwebp_encode_ms": \#(reference.encode), "cwebp_process_ms": \#(reference.process), "cwebp_bytes": \#(reference.bytes), "time_ratio_vs_cwebp_encode": \#(median(ours) / reference.encode), "size_ratio": \#(Double(size) / Double(reference.bytes))}"#)
            }
        }

        let registry = ImageCoderRegistry()
        for (label, format) in [("png", ImageFormat.png), ("webp", .webp)] {
            var times: [Double] = []
            for _ in 0..<41 {
                let start = DispatchTime.now().uptimeNanoseconds
                _ = try registry.transcode(icon, ImageRequest(format: format, width: 256))
                times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
            }
            print(#"{"bench": "downscale 1024 -> 256, whole request (decode PNG, resize, encode \#(label))", "p50_ms": \#(median(times)), "max_ms": \#(times.max() ?? 0)}"#)
        }
        // The resize step alone, on pixels decoded once (the issue's goal: p50 <= 5 ms).
        let resize = try icon.withUnsafeBytes { buffer -> [Double] in
            guard let base = buffer.baseAddress, let header = themed_vips_load(base, buffer.count), let decoded = themed_vips_decode(header) else {
                throw ImageCoderError.broken(format: "png", reason: "the icon did not load")
            }
            defer { themed_vips_release(header); themed_vips_release(decoded) }
            var times: [Double] = []
            for _ in 0..<41 {
                let start = DispatchTime.now().uptimeNanoseconds
                let resized = themed_vips_resize(decoded, 0.25, 0.25)
                let pixels = resized.flatMap { themed_vips_decode($0) }
                times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
                themed_vips_release(resized)
                themed_vips_release(pixels)
            }
            return times
        }
        print(#"{"bench": "downscale 1024 -> 256, Lanczos-3 resize step", "p50_ms": \#(median(resize)), "max_ms": \#(resize.max() ?? 0), "goal_p50_ms": 5}"#)
    }

    /// A 1024 px app-icon-like drawing: a diagonal gradient, a soft disc and a ring.
    static func icon(size: Int) -> Bitmap {
        var pixels = [UInt8](repeating: 255, count: size * size * 4)
        let center = Double(size) / 2
        for y in 0..<size {
            for x in 0..<size {
                let dx = Double(x) - center, dy = Double(y) - center
                let distance = (dx * dx + dy * dy).squareRoot() / center
                var red = Double(x) / Double(size), green = Double(y) / Double(size), blue = 0.6
                if distance < 0.55 { (red, green, blue) = (1 - distance, 0.8 - distance / 2, 0.2 + distance) }
                if abs(distance - 0.75) < 0.03 { (red, green, blue) = (1, 1, 1) }
                let index = (y * size + x) * 4
                pixels[index] = UInt8(blue * 255)
                pixels[index + 1] = UInt8(green * 255)
                pixels[index + 2] = UInt8(red * 255)
            }
        }
        return Bitmap(width: size, height: size, layout: .bgra8, pixels: pixels)
    }

    /// cwebp's own encode time (`-v`), its process time, and its output size; medians of 15 runs.
    static func cwebp(_ flags: [String], input: URL, output: URL) throws -> (encode: Double, process: Double, bytes: Int) {
        var encodes: [Double] = [], processes: [Double] = []
        for _ in 0..<15 {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/cwebp")
            process.arguments = flags + ["-v", input.path, "-o", output.path]
            let errors = Pipe()
            process.standardError = errors
            process.standardOutput = FileHandle.nullDevice
            let start = DispatchTime.now().uptimeNanoseconds
            try process.run()
            let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            processes.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
            // "Time to encode picture: 0.012s"
            if let line = text.split(separator: "\n").first(where: { $0.contains("Time to encode picture") }),
               let seconds = Double(line.split(separator: ":").last?.trimmingCharacters(in: CharacterSet(charactersIn: " s")) ?? "") {
                encodes.append(seconds * 1000)
            }
        }
        let bytes = (try? Data(contentsOf: output).count) ?? 0
        return (median(encodes), median(processes), bytes)
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
    }
}
