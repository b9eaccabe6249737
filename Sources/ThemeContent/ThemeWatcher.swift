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
    public let directory: String
    public let settleTime: Duration
    private let changed: @Sendable (String) -> Void
    private let fd: Int32
    private var watches: [Int32: String] = [:]        // watcher thread only
    private var due: [String: ContinuousClock.Instant] = [:] // theme -> when to reload
    private let running = Mutex(true)
    private let finished = DispatchSemaphore(value: 0)

    public init(directory: String, settleTime: Duration = .milliseconds(300), changed: @escaping @Sendable (String) -> Void) throws {
        self.directory = directory
        self.settleTime = settleTime
        self.changed = changed
        fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else { throw ThemeWatcherError(description: "inotify_init1: \(String(cString: strerror(errno)))") }
        addWatches(under: directory)
        let thread = Thread { [self] in
            themed_name_this_thread("themed-watcher")
            run()
        }
        thread.start()
    }

    deinit { close(fd) }

    public func stop() {
        running.withLock { $0 = false }
        finished.wait()
    }

    static let mask: UInt32 = UInt32(IN_CREATE | IN_DELETE | IN_MOVED_TO | IN_MOVED_FROM | IN_CLOSE_WRITE | IN_MODIFY | IN_ATTRIB | IN_DELETE_SELF)

    private func addWatches(under path: String) {
        let wd = inotify_add_watch(fd, path, Self.mask)
        guard wd >= 0 else { return }
        watches[wd] = path
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
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        while running.withLock({ $0 }) {
            if poll(&poller, 1, 20) > 0 {
                let count = read(fd, buffer.baseAddress, buffer.count)
                if count > 0 { handle(UnsafeRawBufferPointer(rebasing: buffer[0..<count])) }
            }
            let now = ContinuousClock.now
            for (theme, when) in due where when <= now {
                due.removeValue(forKey: theme)
                changed(theme)
            }
        }
        finished.signal()
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
            if mask & UInt32(IN_IGNORED) != 0 { watches.removeValue(forKey: wd); continue }
            guard let folder = watches[wd] else { continue }
            let path = name.isEmpty ? folder : "\(folder)/\(name)"
            guard let theme = theme(for: path), !name.hasPrefix(".") else { continue }
            if mask & UInt32(IN_ISDIR) != 0 && mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0 { addWatches(under: path) }
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
            if let current = due[theme], mask & UInt32(IN_MODIFY) != 0 {
                due[theme] = max(current, when)
            } else {
                due[theme] = min(due[theme] ?? when, when)
            }
        }
    }
}

public struct ThemeWatcherError: Error, CustomStringConvertible {
    public var description: String
}
