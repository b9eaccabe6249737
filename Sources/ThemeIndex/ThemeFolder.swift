import Foundation

/// A theme on disk: `themes/NAME/` with `.car` files and `.xcassets` folders (and an optional
/// `theme.json` naming a parent), or `themes/NAME.car` alone.
public struct ThemeFolder: Sendable, Equatable {
    public enum SourceKind: String, Sendable { case car, xcassets }

    public struct Source: Sendable, Equatable {
        public var path: String
        public var kind: SourceKind
    }

    public var name: String
    public var path: String
    public var parent: String?
    /// Sources in lookup order: `Assets.car` first, then the other catalogs and folders in byte
    /// order of their paths (lookup-rules.md 5).
    public var sources: [Source]
    /// Why the theme's own settings could not be read, if they could not.
    public var error: String?

    /// Theme names are used in URLs and paths: letters, digits, `-`, `_`, `.`; not starting with `.`.
    public static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && name.count <= 100 && !name.hasPrefix(".")
            && name.unicodeScalars.allSatisfy { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "-_.".unicodeScalars.contains($0)) }
    }

    /// Every theme under `directory`, sorted by name. Entries that are not themes are ignored.
    public static func discover(in directory: String) -> [ThemeFolder] {
        let entries = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted()
        var themes: [ThemeFolder] = []
        for entry in entries {
            let path = "\(directory)/\(entry)"
            if entry.hasSuffix(".car") {
                let name = String(entry.dropLast(4))
                guard isValidName(name), isRegularFile(path) else { continue }
                themes.append(ThemeFolder(name: name, path: path, parent: nil, sources: [Source(path: path, kind: .car)]))
            } else if isDirectory(path), isValidName(entry) {
                themes.append(folderTheme(name: entry, path: path))
            }
        }
        return themes
    }

    static func folderTheme(name: String, path: String) -> ThemeFolder {
        var theme = ThemeFolder(name: name, path: path, parent: nil, sources: [])
        let entries = ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        for entry in entries where !entry.hasPrefix(".") {
            let child = "\(path)/\(entry)"
            // Symbolic links that leave the theme folder are not followed.
            guard staysInside(child, root: path) else { continue }
            if entry.hasSuffix(".car"), isRegularFile(child) {
                theme.sources.append(Source(path: child, kind: .car))
            } else if entry.hasSuffix(".xcassets"), isDirectory(child) {
                theme.sources.append(Source(path: child, kind: .xcassets))
            }
        }
        if let index = theme.sources.firstIndex(where: { $0.path.hasSuffix("/Assets.car") }) {
            theme.sources.insert(theme.sources.remove(at: index), at: 0)
        }
        let settings = "\(path)/theme.json"
        if FileManager.default.fileExists(atPath: settings) {
            do {
                guard let data = FileManager.default.contents(atPath: settings),
                      let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
                    throw ThemeError("theme.json is not a JSON object")
                }
                if let parent = object["parent"] {
                    guard let parent = parent as? String, isValidName(parent) else { throw ThemeError("theme.json: \"parent\" is not a theme name") }
                    theme.parent = parent
                }
            } catch {
                theme.error = "\(settings): \(error)"
            }
        }
        return theme
    }

    static func isDirectory(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    static func isRegularFile(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && !isDirectory.boolValue
    }

    static func staysInside(_ path: String, root: String) -> Bool {
        let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        let resolvedRoot = URL(fileURLWithPath: root).resolvingSymlinksInPath().path
        return resolved == resolvedRoot || resolved.hasPrefix(resolvedRoot + "/")
    }
}

/// A theme-level problem: a bad theme.json, a parent cycle, a missing parent.
public struct ThemeError: Error, CustomStringConvertible, Sendable {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// A fast 64-bit fingerprint of file contents for ETags and change detection (not a security
/// boundary): FNV-1a's multiply-xor step applied to 8-byte words, then to the tail bytes.
public struct ContentHash {
    private var state: UInt64 = 0xcbf2_9ce4_8422_2325
    private static let prime: UInt64 = 0x0000_0100_0000_01b3

    public init() {}

    public mutating func add(_ bytes: UnsafeRawBufferPointer) {
        var hash = state ^ UInt64(bytes.count)
        let words = bytes.count / 8
        for index in 0..<words {
            hash = (hash ^ bytes.loadUnaligned(fromByteOffset: index * 8, as: UInt64.self)) &* Self.prime
            hash ^= hash >> 29
        }
        for byte in bytes[(words * 8)...] {
            hash = (hash ^ UInt64(byte)) &* Self.prime
        }
        state = hash
    }

    public mutating func add(_ text: String) {
        var copy = text
        copy.withUTF8 { add(UnsafeRawBufferPointer($0)) }
    }

    public var hex: String {
        let digits = String(state, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
