import Foundation

/// A throwaway PostgreSQL from Debian's package: its own data folder under /tmp, on a free port
/// of the loopback interface, trust authentication, stopped and deleted at the end. As root, the
/// server runs as the `postgres` user (initdb refuses root).
public final class PostgresServer: @unchecked Sendable {
    public let folder: String
    public let port: Int
    public var url: String { "postgresql://postgres@127.0.0.1:\(port)/postgres?connect_timeout=2" }

    /// Why no server can be started here, or nil.
    public static let unavailableReason: String? = binaries == nil ? "PostgreSQL is not installed (apt-get install postgresql)" : nil

    static let binaries: String? = {
        let root = "/usr/lib/postgresql"
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []).sorted { (Int($0) ?? 0) > (Int($1) ?? 0) }
        return versions.map { "\(root)/\($0)/bin" }.first { FileManager.default.isExecutableFile(atPath: "\($0)/initdb") }
    }()

    public init() throws {
        guard let binaries = Self.binaries else { throw Failure(description: Self.unavailableReason ?? "") }
        folder = NSTemporaryDirectory() + "themed-pg-\(UUID().uuidString.prefix(8))"
        port = Loopback.freePort()
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        if getuid() == 0 { try Self.run("/bin/chown", ["postgres:postgres", folder]) }
        try Self.asOwner("\(binaries)/initdb", ["-D", "\(folder)/data", "-A", "trust", "-U", "postgres", "--no-sync"])
        try start()
    }

    deinit {
        try? stop()
        try? FileManager.default.removeItem(atPath: folder)
    }

    public func start() throws {
        guard let binaries = Self.binaries else { return }
        try Self.asOwner("\(binaries)/pg_ctl", ["-D", "\(folder)/data", "-l", "\(folder)/log", "-w", "-t", "30", "-o",
                                               "-p \(port) -k \(folder) -c listen_addresses=127.0.0.1 -c fsync=off", "start"])
    }

    public func stop() throws {
        guard let binaries = Self.binaries else { return }
        try Self.asOwner("\(binaries)/pg_ctl", ["-D", "\(folder)/data", "-m", "fast", "-w", "stop"])
    }

    public struct Failure: Error, CustomStringConvertible { public var description: String }

    static func asOwner(_ executable: String, _ arguments: [String]) throws {
        if getuid() == 0 {
            try run("/usr/sbin/runuser", ["-u", "postgres", "--", executable] + arguments)
        } else {
            try run(executable, arguments)
        }
    }

    /// Started with posix_spawn and reaped with waitpid, not Foundation's Process: Process learns
    /// that a child ended when a socket the child inherited closes, and the server pg_ctl starts
    /// inherits that socket too, so `waitUntilExit` would wait for ever. Output goes to a file
    /// (a pipe would stay open in the server the same way), and the child gets no other
    /// descriptor of this process.
    static func run(_ executable: String, _ arguments: [String]) throws {
        let outputPath = NSTemporaryDirectory() + "themed-pg-output-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: outputPath) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        // glibc skips closing a descriptor that is already closed when the child starts.
        for name in (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? [] {
            if let descriptor = Int32(name), descriptor > 2 { posix_spawn_file_actions_addclose(&actions, descriptor) }
        }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, environ)
        guard spawned == 0 else { throw Failure(description: "cannot start \(executable): \(String(cString: strerror(spawned)))") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        let text = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        // Exited normally with status 0 (the low 7 bits hold a terminating signal, the next 8 the status).
        guard status & 0x7f == 0, (status >> 8) & 0xff == 0 else {
            throw Failure(description: "\((executable as NSString).lastPathComponent) failed: \(text.suffix(500))")
        }
    }
}
