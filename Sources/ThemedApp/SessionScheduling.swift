import Foundation

/// Whether the kernel shares this process's CPU time by session (its autogroup): with
/// `kernel.sched_autogroup_enabled = 1`, for a process in the root CPU cgroup (the kernel leaves
/// tasks in a CPU cgroup of their own alone). On a host the replicas, the cache and the store
/// saturate, a session that was idle (the store's, an operator's shell) then waits for the CPU for
/// seconds, and so do changes that wait for every replica (docs/DEPLOY.md, measured in
/// docs/PERFORMANCE.md). A replica says so when it starts, as Redis does of overcommit.
public struct SessionScheduling {
    /// Where the kernel's files are: `/proc` and the cgroup mount (tests give folders of their own).
    public var proc: String
    public var cgroups: String

    public init(proc: String = "/proc", cgroups: String = "/sys/fs/cgroup") {
        (self.proc, self.cgroups) = (proc, cgroups)
    }

    /// true or false when the files say; nil when they do not (no autogroup in the kernel, a
    /// cgroup file that cannot be read).
    public var applies: Bool? {
        guard let enabled = read("\(proc)/sys/kernel/sched_autogroup_enabled") else { return nil }
        guard enabled == "1" else { return false }
        return inRootCPUGroup
    }

    /// `/proc/self/cgroup` has a line `ID:CONTROLLERS:PATH` per cgroup v1 hierarchy and `0::PATH`
    /// for cgroup v2. A v1 hierarchy with `cpu` among its controllers decides; else the v2 path,
    /// which is a CPU group of its own when its `cgroup.controllers` lists `cpu` (its parent
    /// enabled the controller for it).
    private var inRootCPUGroup: Bool? {
        guard let lines = read("\(proc)/self/cgroup")?.split(separator: "\n") else { return nil }
        var unifiedPath: Substring?
        for line in lines {
            let fields = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            guard fields.count == 3 else { continue }
            if fields[1].split(separator: ",").contains("cpu") { return fields[2] == "/" }
            if fields[0] == "0", fields[1].isEmpty { unifiedPath = fields[2] }
        }
        guard let path = unifiedPath else { return nil }
        if path == "/" { return true }
        guard let controllers = read("\(cgroups)\(path)/cgroup.controllers") else { return nil }
        return !controllers.split(separator: " ").contains("cpu")
    }

    private func read(_ path: String) -> String? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
