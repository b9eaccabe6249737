import Foundation

/// The fair scheduler's slice of each thread of a process, as /proc shows it (`se.slice`, in
/// nanoseconds): what a thread that asked for short slices (`themed_request_short_slices`) runs with.
public enum SchedulingSlices {
    /// The slice a thread that asked for the shortest one runs with: the kernel's minimum, 0.1 ms.
    public static let shortest = 100_000

    /// Why threads' own slices cannot be read or asked for here: a kernel before 6.12 (EEVDF without
    /// custom slices), or one that does not show `se.slice` in /proc; nil when they can.
    public static var unavailableReason: String? {
        var system = utsname()
        uname(&system)
        let release = withUnsafeBytes(of: &system.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        let version = release.split(separator: ".").prefix(2).compactMap { Int($0.prefix { $0.isNumber }) }
        guard version.count == 2, (version[0], version[1]) >= (6, 12) else {
            return "the kernel (\(release)) has no custom scheduling slices: Linux 6.12 or later"
        }
        return slice(ofThread: "self") == nil ? "the kernel shows no se.slice in /proc/PID/sched: no custom scheduling slices to read" : nil
    }

    /// The slice of each thread of `pid` named `name` (each thread's name, when nil), by thread id.
    public static func slices(of pid: Int32, named name: String? = nil) -> [Int: Int] {
        let threads = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        var slices: [Int: Int] = [:]
        for thread in threads.compactMap(Int.init) {
            let comm = (try? String(contentsOfFile: "/proc/\(pid)/task/\(thread)/comm", encoding: .utf8))?.trimmingCharacters(in: .newlines)
            guard name == nil || comm == name, let slice = slice(ofThread: "\(pid)/task/\(thread)") else { continue }
            slices[thread] = slice
        }
        return slices
    }

    /// The slice of the thread that asks.
    public static var ofCallingThread: Int? { slice(ofThread: "thread-self") }

    /// `se.slice` from /proc/`path`/sched.
    private static func slice(ofThread path: String) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/\(path)/sched", encoding: .utf8) else { return nil }
        let line = text.split(separator: "\n").first { $0.hasPrefix("se.slice ") }
        return line.flatMap { $0.split(separator: ":").last }.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
    }
}
