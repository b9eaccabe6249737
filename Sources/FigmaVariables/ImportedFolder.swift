import Foundation
import JSON
import ThemeVocabulary

/// The folder an import writes into, which may hold more than the import (a theme.json, a
/// catalog): only the files the import makes are touched. Each is written whole (to a temporary
/// name, then renamed) and the resolver last, so a reader never meets a resolver naming a file
/// not yet there; files an earlier import wrote that this one does not are removed after.
public struct ImportedFolder: Sendable {
    public let path: String

    public init(path: String) {
        self.path = path
    }

    /// How the folder differs from what an import would write.
    public enum Difference: Sendable, Equatable, CustomStringConvertible {
        case differs(String)
        case missing(String)
        /// Written by an earlier import (its resolver names it) and not by this one.
        case extra(String)

        public var description: String {
            switch self {
            case .differs(let file): "differs: \(file)"
            case .missing(let file): "missing: \(file)"
            case .extra(let file): "not in the file any more: \(file)"
            }
        }
    }

    public func differences(from files: [FigmaImport.File]) -> [Difference] {
        var differences: [Difference] = []
        for file in files {
            guard let bytes = FileManager.default.contents(atPath: "\(path)/\(file.path)") else {
                differences.append(.missing(file.path))
                continue
            }
            if [UInt8](bytes) != file.bytes { differences.append(.differs(file.path)) }
        }
        let made = Set(files.map(\.path))
        differences += previousFiles().subtracting(made).sorted().map(Difference.extra)
        return differences
    }

    /// Writes `files`, then removes what an earlier import wrote that they no longer hold.
    public func write(_ files: [FigmaImport.File]) throws {
        let previous = previousFiles()
        let manager = FileManager.default
        try manager.createDirectory(atPath: path, withIntermediateDirectories: true)
        let resolverLast = files.filter { $0.path != FigmaImport.resolverFile } + files.filter { $0.path == FigmaImport.resolverFile }
        for file in resolverLast {
            let target = "\(path)/\(file.path)"
            try manager.createDirectory(atPath: FilePaths.folder(of: target), withIntermediateDirectories: true)
            let temporary = "\(FilePaths.folder(of: target))/.\((target as NSString).lastPathComponent).\(getpid()).tmp"
            do {
                try Data(file.bytes).write(to: URL(fileURLWithPath: temporary))
                // rename(2) replaces the old file in one step: a reader sees the old bytes or the new.
                guard rename(temporary, target) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
            } catch {
                try? manager.removeItem(atPath: temporary)
                throw error
            }
        }
        for stale in previous.subtracting(files.map(\.path)) {
            try? manager.removeItem(atPath: "\(path)/\(stale)")
            // A mode folder left empty goes too.
            let folder = FilePaths.folder(of: stale)
            if !folder.isEmpty, (try? manager.contentsOfDirectory(atPath: "\(path)/\(folder)"))?.isEmpty == true {
                try? manager.removeItem(atPath: "\(path)/\(folder)")
            }
        }
    }

    /// The files an earlier import wrote: its resolver and the files the resolver names (only
    /// plain relative paths inside the folder are taken).
    public func previousFiles() -> Set<String> {
        guard let bytes = FileManager.default.contents(atPath: "\(path)/\(FigmaImport.resolverFile)"),
              let resolver = try? JSONParser.parse([UInt8](bytes)) else { return [] }
        var files: Set<String> = [FigmaImport.resolverFile]
        func collect(_ value: JSONValue) {
            switch value {
            case .object(let members):
                for (key, member) in members {
                    if key == "$ref", case .string(let reference) = member, Self.isInside(reference) { files.insert(reference) }
                    collect(member)
                }
            case .array(let items): items.forEach(collect)
            default: break
            }
        }
        collect(resolver)
        return files
    }

    static func isInside(_ reference: String) -> Bool {
        !reference.isEmpty && !reference.hasPrefix("#") && !reference.hasPrefix("/") && reference.hasSuffix(".json")
            && !reference.split(separator: "/").contains { $0 == ".." || $0 == "." || $0.hasPrefix(".") }
    }
}
