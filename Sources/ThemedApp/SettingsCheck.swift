import Cluster
import Foundation
import Logs
import Settings
import ThemeServer
import ThemeVocabulary

/// Why the daemon cannot start with its settings: one line naming the setting and what is wrong
/// (`themed serve` prints it and exits with status 2).
public struct StartupError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

extension ServerSettings {
    /// The paths the settings name: the themes folder must exist; the index's folder and the
    /// blob store must be writable, or creatable (`creating` makes them); the access log must
    /// open. Returns the access log.
    public func check(creating: Bool) throws(StartupError) -> AccessLog? {
        for url in purgeURLs where CachePurger.Target(url: url) == nil {
            throw StartupError("purgeURLs: \(url): not an http://host:port address")
        }
        var isFolder: ObjCBool = false
        // A replica of a cluster fills its themes folder from the store, so it may start empty.
        if cluster != nil, creating, !FileManager.default.fileExists(atPath: themes) {
            try? FileManager.default.createDirectory(atPath: themes, withIntermediateDirectories: true)
        }
        guard FileManager.default.fileExists(atPath: themes, isDirectory: &isFolder), isFolder.boolValue else {
            throw StartupError("themes: \(themes): no such folder")
        }
        let databaseFolder = FilePaths.directory(of: db)
        for (key, folder) in [("db", databaseFolder), ("blobs", blobs)] {
            // The folder, or the nearest ancestor that exists when it does not yet.
            var existing = folder
            while !FileManager.default.fileExists(atPath: existing, isDirectory: &isFolder), existing != "/", existing != "." {
                existing = FilePaths.directory(of: existing)
            }
            guard FileManager.default.fileExists(atPath: existing, isDirectory: &isFolder), isFolder.boolValue else {
                throw StartupError("\(key): \(existing): not a folder")
            }
            guard access(existing, W_OK) == 0 else { throw StartupError("\(key): \(existing): not writable") }
        }
        if let path = accessLog, path != "-" {
            let folder = FilePaths.directory(of: path)
            let exists = FileManager.default.fileExists(atPath: path)
            let folderUsable = FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder) && isFolder.boolValue
            guard exists || folderUsable, access(exists ? path : folder, W_OK) == 0 else {
                throw StartupError("accessLog: \(path): cannot be written")
            }
        }
        guard creating else { return nil }
        let log: AccessLog?
        do {
            log = try accessLog.map { AccessLog(sink: try LineSink.opening($0), format: logFormat == .json ? .json : .text) }
        } catch {
            throw StartupError("accessLog: \(error)")
        }
        for (key, folder) in [("db", databaseFolder), ("blobs", blobs)] {
            do {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            } catch {
                throw StartupError("\(key): \(folder): cannot be created")
            }
        }
        return log
    }

    /// Where release uploads are written and unpacked: beside the index.
    var uploadsFolder: String {
        URL(fileURLWithPath: FilePaths.directory(of: db) + "/uploads").standardizedFileURL.path
    }

    /// The themes folder as the service names it.
    var themesPath: String { URL(fileURLWithPath: themes).standardizedFileURL.path }
}
