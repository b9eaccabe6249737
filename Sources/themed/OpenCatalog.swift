import ArgumentParser
import AssetCatalog
import Foundation

/// Opens a catalog for a command, or prints why it cannot and exits with status 1.
func openCatalog(_ path: String) throws -> AssetCatalog {
    do {
        return try AssetCatalog(path: path)
    } catch {
        FileHandle.standardError.write(Data("themed: \(error)\n".utf8))
        throw ExitCode(1)
    }
}
