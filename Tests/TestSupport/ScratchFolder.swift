import Foundation

/// A folder of one test's own under the system's temporary directory, removed with everything in
/// it when the test lets go of it: kept in a suite's stored property, it goes with the suite's
/// instance, which Swift Testing makes for each test. SQLite's `-wal` and `-shm` files, a blob
/// store's packs and a client's cache go with it, whatever the test wrote. (Not a local: Swift may
/// free an object after its last use, before the end of the scope.)
public final class ScratchFolder: Sendable {
    public let path: String

    /// `purpose` names the folder (`themed-PURPOSE-UUID`), for whoever finds one a killed run left.
    /// A folder that cannot be made fails the test at its first write there, naming the path.
    public init(_ purpose: String) {
        path = NSTemporaryDirectory() + "themed-\(purpose)-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    /// A path inside the folder, unique when `name` is left out.
    public func path(_ name: String = UUID().uuidString) -> String { "\(path)/\(name)" }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}
