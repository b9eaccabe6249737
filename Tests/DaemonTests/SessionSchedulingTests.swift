import Foundation
import Testing
import TestSupport
import ThemedApp

/// What a replica reads of the kernel to say, when it starts, that the CPUs are shared by session:
/// kernel trees made up in a scratch folder, one per shape a host can have.
@Suite("the kernel's autogroup, read as a replica reads it")
struct SessionSchedulingTests {
    /// A `/proc` and a cgroup mount in a scratch folder with the files given (paths below it).
    struct Host {
        let root: String

        init(_ files: [String: String]) throws {
            root = try DaemonTests.scratch()
            for (path, text) in files {
                let url = URL(fileURLWithPath: root + path)
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(text.utf8).write(to: url)
            }
        }

        var applies: Bool? { SessionScheduling(proc: root + "/proc", cgroups: root + "/cgroup").applies }

        func remove() { try? FileManager.default.removeItem(atPath: root) }
    }

    static let enabled = "/proc/sys/kernel/sched_autogroup_enabled"

    @Test("cgroup v1: the hierarchy with the cpu controller decides; autogroup off or absent says so")
    func versionOne() throws {
        let v1Root = "9:name=systemd:/\n4:memory:/process_api/f9a2\n2:cpuacct:/\n1:cpu:/\n0::/\n"
        let inRoot = try Host([Self.enabled: "1\n", "/proc/self/cgroup": v1Root])
        defer { inRoot.remove() }
        #expect(inRoot.applies == true)

        let inService = try Host([Self.enabled: "1\n", "/proc/self/cgroup": "4:memory:/\n3:cpu,cpuacct:/system.slice/themed.service\n0::/\n"])
        defer { inService.remove() }
        #expect(inService.applies == false, "a CPU cgroup of its own: the kernel leaves the process out of autogroup")

        let off = try Host([Self.enabled: "0\n", "/proc/self/cgroup": v1Root])
        defer { off.remove() }
        #expect(off.applies == false)

        let noAutogroup = try Host(["/proc/self/cgroup": v1Root])
        defer { noAutogroup.remove() }
        #expect(noAutogroup.applies == nil, "a kernel without autogroup has no such setting")
    }

    @Test("cgroup v2: the root group, a group the cpu controller is enabled for, one it is not, and one that cannot be read")
    func versionTwo() throws {
        let root = try Host([Self.enabled: "1", "/proc/self/cgroup": "0::/\n"])
        defer { root.remove() }
        #expect(root.applies == true)

        let service = "0::/system.slice/themed.service\n"
        let withCPU = try Host([Self.enabled: "1", "/proc/self/cgroup": service,
                                "/cgroup/system.slice/themed.service/cgroup.controllers": "cpuset cpu io memory pids\n"])
        defer { withCPU.remove() }
        #expect(withCPU.applies == false)

        let withoutCPU = try Host([Self.enabled: "1", "/proc/self/cgroup": service,
                                   "/cgroup/system.slice/themed.service/cgroup.controllers": "memory pids\n"])
        defer { withoutCPU.remove() }
        #expect(withoutCPU.applies == true, "a cgroup without the cpu controller is scheduled in the root group, by session")

        let unreadable = try Host([Self.enabled: "1", "/proc/self/cgroup": service])
        defer { unreadable.remove() }
        #expect(unreadable.applies == nil)

        let malformed = try Host([Self.enabled: "1", "/proc/self/cgroup": "nonsense\n::\n"])
        defer { malformed.remove() }
        #expect(malformed.applies == nil)
    }

    @Test("a replica says at its start whether the kernel shares the CPUs by session, and that a store which never answered did not")
    func replicaSaysSo() throws {
        let folder = try DaemonTests.scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data(#"{"watch": false, "activeToken": "t", "logFormat": "json", "clusterUnreachableSeconds": 1}"#.utf8)
            .write(to: URL(fileURLWithPath: folder + "/themed.json"))
        let logPath = folder + "/serve.log"
        FileManager.default.createFile(atPath: logPath, contents: nil)
        let log = try #require(FileHandle(forWritingAtPath: logPath))
        // Nothing listens on the store's port: the replica serves its themes folder as it is.
        let server = try ServeProcess(executable: DaemonTests.executable, arguments: [
            "--config", "themed.json", "--cluster", "postgresql://127.0.0.1:\(Loopback.freePort())/themed", "--themes", DaemonTests.themes,
            "--db", "index.sqlite", "--blobs", "blobs",
        ], in: folder, standardError: log)
        defer { server.stop() }
        func records() -> [[String: Any]] {
            ((try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "").split(separator: "\n").compactMap {
                try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            }
        }
        let unreachable = "cluster store unreachable; still serving and ready, with what this replica has (releases may be stale)"
        #expect(waitUntil(10) { records().contains { $0["message"] as? String == unreachable } })
        let warning = try #require(records().first { $0["message"] as? String == unreachable })
        #expect(warning["answered"] as? String == "never since the start" && warning["silent_seconds"] == nil, "\(warning)")

        // What this host is: the notice comes exactly when the kernel's files say autogroup applies.
        let notices = records().filter { ($0["message"] as? String)?.hasPrefix("the kernel shares the CPUs by session") == true }
        let applies = SessionScheduling().applies == true
        #expect(notices.count == (applies ? 1 : 0), "autogroup applies here: \(applies); notices: \(notices)")
        if let notice = notices.first { #expect(notice["level"] as? String == "notice", "\(notice)") }
    }
}
