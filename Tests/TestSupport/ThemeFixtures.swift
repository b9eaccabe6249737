import Foundation

/// Builds theme folders on disk for tests: `.xcassets` colour and image sets written the way
/// Xcode writes them, in a temporary directory removed by `remove()`.
public final class ThemeFixtures {
    public let root: String

    public init() {
        root = NSTemporaryDirectory() + "themed-tests-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    }

    public func remove() { try? FileManager.default.removeItem(atPath: root) }

    public func path(_ relative: String) -> String { "\(root)/\(relative)" }

    /// Writes `contents` (a JSON value) to `relative`/Contents.json.
    public func writeJSON(_ value: Any, to relative: String) {
        let folder = path(relative)
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let data = (try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .prettyPrinted])) ?? Data()
        FileManager.default.createFile(atPath: "\(folder)/Contents.json", contents: data)
    }

    public func write(_ bytes: [UInt8], to relative: String) {
        let file = path(relative)
        try? FileManager.default.createDirectory(atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        FileManager.default.createFile(atPath: file, contents: Data(bytes))
    }

    public func write(_ text: String, to relative: String) { write(Array(text.utf8), to: relative) }

    public func makeDirectory(_ relative: String) {
        try? FileManager.default.createDirectory(atPath: path(relative), withIntermediateDirectories: true)
    }

    /// Writes a property list (an Info.plist) in XML or binary form.
    public func writePlist(_ dictionary: [String: Any], to relative: String, binary: Bool = false) {
        let data = try? PropertyListSerialization.data(fromPropertyList: dictionary, format: binary ? .binary : .xml, options: 0)
        write(Array(data ?? Data()), to: relative)
    }

    /// Dates every file under `relative` a minute later than now: an edit that keeps a file's
    /// size is seen by its time, whatever the file system's clock resolution.
    public func dateLater(_ relative: String) {
        let later = Date().addingTimeInterval(60)
        let files = FileManager.default.enumerator(atPath: path(relative))?.allObjects as? [String] ?? []
        for file in files { try? FileManager.default.setAttributes([.modificationDate: later], ofItemAtPath: path("\(relative)/\(file)")) }
    }

    /// A stand-in image file: a PNG signature followed by its own path, so that every file's
    /// bytes are different and a response shows which file answered.
    public func looseImage(_ relative: String) {
        write([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(relative.utf8), to: relative)
    }

    /// A colour set: each variant is (appearances, components, extra keys).
    public func colorSet(_ theme: String, _ name: String, _ variants: [(appearance: String?, components: [String: String], extra: [String: Any])]) {
        let colors: [[String: Any]] = variants.map { variant in
            var entry: [String: Any] = ["idiom": "universal", "color": ["color-space": "srgb", "components": variant.components]]
            if let appearance = variant.appearance { entry["appearances"] = Self.appearances(appearance) }
            for (key, value) in variant.extra { entry[key] = value }
            return entry
        }
        writeJSON(["colors": colors, "info": ["author": "xcode", "version": 1]], to: "\(theme)/Theme.xcassets/\(name).colorset")
    }

    /// An image set whose files are tiny PNG-signed stand-ins named after their traits (the
    /// index reads them as bytes; lookups only need the traits).
    public func imageSet(_ theme: String, _ name: String, _ entries: [[String: Any]]) {
        var images: [[String: Any]] = []
        for (index, var entry) in entries.enumerated() {
            let filename = "\(name)-\(index).png"
            entry["filename"] = filename
            if entry["idiom"] == nil { entry["idiom"] = "universal" }
            if let appearance = entry.removeValue(forKey: "appearance") as? String { entry["appearances"] = Self.appearances(appearance) }
            images.append(entry)
            write([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array("variant \(index)".utf8), to: "\(theme)/Theme.xcassets/\(name).imageset/\(filename)")
        }
        writeJSON(["images": images, "info": ["author": "xcode", "version": 1]], to: "\(theme)/Theme.xcassets/\(name).imageset")
    }

    /// "dark", "light", "high", "dark+high": the Contents.json `appearances` array.
    public static func appearances(_ text: String) -> [[String: String]] {
        text.split(separator: "+").map { part in
            part == "high" ? ["appearance": "contrast", "value": "high"] : ["appearance": "luminosity", "value": String(part)]
        }
    }
}
