import CLinux
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Synchronization
import ThemeBundle
import ThemeVocabulary

/// Watches the themes folder with inotify and says which theme's files changed, for the server to
/// reload it (`changed`, called on the watcher's thread).
///
/// A file renamed into place (how careful writers publish: copy, then rename) is picked up at
/// once; in-place writes are debounced until the file has been quiet for `settleTime`, so a
/// catalog being copied is not parsed half-written. Whatever happens, a reload that fails keeps
/// the previous generation serving (see `IndexWriter`).
public final class ThemeWatcher: @unchecked Sendable {
    /// A theme whose files changed.
    public struct Change: Sendable, Equatable {
        public var theme: String
        /// The theme's folder was renamed into place whole, and nothing changed in it since: how
        /// a replica swaps a release in (whoever swapped it knows what it holds).
        public var isSwappedIn: Bool

        public init(theme: String, isSwappedIn: Bool) { (self.theme, self.isSwappedIn) = (theme, isSwappedIn) }
    }

    public let directory: String
    public let settleTime: Duration
    private let changed: @Sendable (Change) -> Void
    private let fd: Int32
    private var watches: [Int32: String] = [:]        // watcher thread only
    /// The watches in each theme's folder, by theme: a platform has 10,000.
    private var watchesOfTheme: [String: Set<Int32>] = [:]
    private var due: [String: Due] = [:]

    /// A theme's reload to come, and what was seen of it.
    private struct Due {
        var when: ContinuousClock.Instant
        var sawSwapIn = false
        var sawOther = false
    }
    private let running = Mutex(true)
    private let finished = DispatchSemaphore(value: 0)
    /// Written by `stop`: the thread sleeps until an event, a reload falling due, or this.
    private let wakeup: Int32
    /// How many times the thread woke: an idle watcher sleeps.
    let wakeups = Atomic<Int>(0)

    public init(directory: String, settleTime: Duration = .milliseconds(300), changed: @escaping @Sendable (Change) -> Void) throws {
        self.directory = directory
        self.settleTime = settleTime
        self.changed = changed
        fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else { throw ThemeWatcherError(description: "inotify_init1: \(String(cString: strerror(errno)))") }
        wakeup = eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC))
        guard wakeup >= 0 else {
            close(fd)
            throw ThemeWatcherError(description: "eventfd: \(String(cString: strerror(errno)))")
        }
        addWatches(under: directory)
        let thread = Thread { [self] in
            themed_name_this_thread("themed-watcher")
            run()
        }
        thread.start()
    }

    deinit {
        close(fd)
        close(wakeup)
    }

    public func stop() {
        running.withLock { $0 = false }
        var one: UInt64 = 1
        _ = write(wakeup, &one, MemoryLayout<UInt64>.size)
        finished.wait()
    }

    static let mask: UInt32 = UInt32(IN_CREATE | IN_DELETE | IN_MOVED_TO | IN_MOVED_FROM | IN_CLOSE_WRITE | IN_MODIFY | IN_ATTRIB | IN_DELETE_SELF)

    private func removeWatches(of theme: String) {
        for wd in watchesOfTheme.removeValue(forKey: theme) ?? [] {
            inotify_rm_watch(fd, wd)
            watches.removeValue(forKey: wd)
        }
    }

    private func addWatches(under path: String) {
        let wd = inotify_add_watch(fd, path, Self.mask)
        guard wd >= 0 else { return }
        watches[wd] = path
        if let theme = theme(for: path) { watchesOfTheme[theme, default: []].insert(wd) }
        // Folders, not links to them: a link out of the themes folder is not watched through.
        for child in FileSystem.listing(of: path) where child.isFolder && !child.name.hasPrefix(".") {
            addWatches(under: "\(path)/\(child.name)")
        }
    }

    /// The theme a changed path belongs to: the first component under the themes folder, without
    /// `.car`, when the index reads a theme there (`ThemeFolder.discover`). A hidden folder, such
    /// as a release a replica is writing or has set aside, is no theme: reloading for it would
    /// read the whole folder for nothing, at every file written in it.
    private func theme(for path: String) -> String? {
        guard path.hasPrefix(directory + "/") else { return nil }
        let first = path.dropFirst(directory.count + 1).split(separator: "/").first.map(String.init) ?? ""
        let name = first.hasSuffix(".car") ? String(first.dropLast(4)) : first
        return ThemeName.isThemeFolder(name) ? name : nil
    }

    private func run() {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 8)
        defer { buffer.deallocate() }
        var pollers = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0), pollfd(fd: wakeup, events: Int16(POLLIN), revents: 0)]
        // Asleep while nothing is due: an idle replica's watcher does not wake 50 times a second.
        while running.withLock({ $0 }) {
            let ready = poll(&pollers, 2, millisecondsUntilDue())
            wakeups.add(1, ordering: .relaxed)
            if ready > 0, pollers[0].revents & Int16(POLLIN) != 0 {
                let count = read(fd, buffer.baseAddress, buffer.count)
                if count > 0 { handle(UnsafeRawBufferPointer(rebasing: buffer[0..<count])) }
            }
            let now = ContinuousClock.now
            for (theme, next) in due where next.when <= now {
                due.removeValue(forKey: theme)
                changed(Change(theme: theme, isSwappedIn: next.sawSwapIn && !next.sawOther))
            }
        }
        finished.signal()
    }

    /// How long `poll` may sleep: until the next reload falls due (rounded up), or for as long as
    /// no event comes (-1) when none is.
    private func millisecondsUntilDue() -> Int32 {
        guard let next = due.values.lazy.map(\.when).min() else { return -1 }
        let left = next - ContinuousClock.now
        return left <= .zero ? 0 : Int32(clamping: Int((left / .milliseconds(1)).rounded(.up)))
    }

    private func handle(_ events: UnsafeRawBufferPointer) {
        var offset = 0
        let headerSize = 16 // int wd, uint32 mask, cookie, len
        while offset + headerSize <= events.count {
            let wd = events.loadUnaligned(fromByteOffset: offset, as: Int32.self)
            let mask = events.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
            let length = Int(events.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
            guard offset + headerSize + length <= events.count else { return }
            let nameBytes = events[(offset + headerSize) ..< (offset + headerSize + length)]
            let name = String(decoding: nameBytes.prefix { $0 != 0 }, as: UTF8.self)
            offset += headerSize + length
            if mask & UInt32(IN_IGNORED) != 0 {
                if let path = watches.removeValue(forKey: wd), let theme = theme(for: path) { watchesOfTheme[theme]?.remove(wd) }
                continue
            }
            guard let folder = watches[wd] else { continue }
            let path = name.isEmpty ? folder : "\(folder)/\(name)"
            guard let theme = theme(for: path), !name.hasPrefix(".") else { continue }
            let isFolderMovedHere = folder == directory && mask & UInt32(IN_ISDIR) != 0 && mask & UInt32(IN_MOVED_TO | IN_MOVED_FROM) != 0
            if mask & UInt32(IN_ISDIR) != 0 && mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0 {
                // A folder renamed over a theme's (a release swapped in): the watches of the one it
                // replaced follow that one out, and would name this theme at each of its deletions.
                if isFolderMovedHere { removeWatches(of: theme) }
                addWatches(under: path)
            }
            // A rename into place is complete now; in-place writes wait until the file settles.
            let delay: Duration
            if mask & UInt32(IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE | IN_DELETE_SELF) != 0 {
                delay = .milliseconds(5)
            } else if mask & UInt32(IN_CLOSE_WRITE) != 0 || (mask & UInt32(IN_CREATE) != 0 && mask & UInt32(IN_ISDIR) != 0) {
                delay = .milliseconds(50)
            } else {
                delay = settleTime // a file being created or written in place
            }
            let when = ContinuousClock.now + delay
            var next = due[theme] ?? Due(when: when)
            next.when = mask & UInt32(IN_MODIFY) != 0 ? max(next.when, when) : min(next.when, when)
            if isFolderMovedHere && mask & UInt32(IN_MOVED_TO) != 0 { next.sawSwapIn = true }
            if !isFolderMovedHere { next.sawOther = true }
            due[theme] = next
        }
    }
}

public struct ThemeWatcherError: Error, CustomStringConvertible {
    public var description: String
}
