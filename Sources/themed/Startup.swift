import ArgumentParser
import Foundation
import Settings
import ThemedApp

/// How a command that cannot go on ends.
enum Startup {
    /// A one-line error on standard error, then exit status 2.
    static func failure(_ message: String) -> ExitCode {
        FileHandle.standardError.write(Data("themed: \(message)\n".utf8))
        return ExitCode(2)
    }

    /// The settings' paths checked (see `ServerSettings.check`), as a command's failure.
    static func check(_ settings: ServerSettings, creating: Bool) throws -> Void {
        do { _ = try settings.check(creating: creating) } catch { throw failure(error.description) }
    }
}
