import CArchive
import Cluster
import Foundation
import ThemeVocabulary

/// Theme folders as tar archives (gzip-compressed or not), through libarchive: unpacked from an
/// upload into a folder with every entry checked, and packed by `themed publish --server`.
///
/// An archive is untrusted: only regular files and folders are taken (a link, device or fifo is
/// refused), every path must be one a release may hold (relative, no `..`), hidden files are
/// skipped as `themed publish` skips them, and the number of files, each file's size and the
/// total unpacked are capped while reading, whatever the headers claim.
public enum ReleaseArchive {
    public struct Refused: Error, CustomStringConvertible {
        public var description: String
        /// Past a limit (413) rather than unreadable (422).
        public var tooLarge = false
    }

    public struct Limits: Sendable {
        public var files = Release.maximumFiles
        public var fileBytes = Release.maximumFileBytes
        public var totalBytes: Int

        public init(totalBytes: Int) { self.totalBytes = totalBytes }
    }

    /// Unpacks the archive at `path` into `folder` (which must exist and be empty).
    public static func unpack(_ path: String, into folder: String, limits: Limits) throws(Refused) {
        guard let archive = archive_read_new() else { throw Refused(description: "libarchive could not start") }
        defer { archive_read_free(archive) }
        archive_read_support_filter_gzip(archive)
        archive_read_support_format_tar(archive)
        guard archive_read_open_filename(archive, path, 64 << 10) == ARCHIVE_OK else { throw failure(archive) }
        var entry: OpaquePointer?
        var (files, total) = (0, 0)
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let status = archive_read_next_header(archive, &entry)
            if status == ARCHIVE_EOF { break }
            guard status == ARCHIVE_OK || status == ARCHIVE_WARN, let entry, let cName = archive_entry_pathname(entry) else { throw failure(archive) }
            var name = String(decoding: Array(String(cString: cName).utf8), as: UTF8.self)
            while name.hasPrefix("./") { name.removeFirst(2) }
            if name.hasSuffix("/") { name.removeLast() }
            let type = archive_entry_filetype(entry) & 0o170000
            if name.isEmpty || name == "." { continue }
            guard Release.isSafe(path: name) else { throw Refused(description: "\(name.prefix(200)) is not a path a release may hold") }
            // Hidden entries (macOS tar's ._ files, .DS_Store) are not part of a theme.
            if name.split(separator: "/").contains(where: { $0.hasPrefix(".") }) { continue }
            if type == 0o040000 { continue } // folders are made for the files inside them
            guard type == 0o100000 else { throw Refused(description: "\(name.prefix(200)) is not a regular file (links and devices are refused)") }
            files += 1
            guard files <= limits.files else { throw Refused(description: "more than \(limits.files) files", tooLarge: true) }
            let target = "\(folder)/\(name)"
            guard !FileManager.default.fileExists(atPath: target) else { throw Refused(description: "\(name.prefix(200)) appears twice") }
            do {
                try FileManager.default.createDirectory(atPath: FilePaths.folder(of: target), withIntermediateDirectories: true)
            } catch {
                throw Refused(description: "\(name.prefix(200)): \(error)")
            }
            guard let output = FileHandle(forWritingAtPath: target) ?? {
                FileManager.default.createFile(atPath: target, contents: nil) ? FileHandle(forWritingAtPath: target) : nil
            }() else { throw Refused(description: "\(name.prefix(200)) cannot be written") }
            defer { try? output.close() }
            var size = 0
            while true {
                let count = buffer.withUnsafeMutableBytes { archive_read_data(archive, $0.baseAddress, $0.count) }
                if count == 0 { break }
                guard count > 0 else { throw failure(archive) }
                size += count
                total += count
                guard size <= limits.fileBytes else { throw Refused(description: "\(name.prefix(200)) is larger than \(limits.fileBytes) bytes", tooLarge: true) }
                guard total <= limits.totalBytes else { throw Refused(description: "more than \(limits.totalBytes) bytes unpacked", tooLarge: true) }
                do { try output.write(contentsOf: buffer[0..<count]) } catch { throw Refused(description: "\(name.prefix(200)) cannot be written: \(error)") }
            }
        }
        guard files > 0 else { throw Refused(description: "the archive holds no files") }
    }

    /// Packs the files (paths in the archive, and where their bytes are) into a gzip-compressed tar at `path`.
    public static func pack(_ files: [ThemeCheck.File], to path: String) throws(Refused) {
        guard let archive = archive_write_new() else { throw Refused(description: "libarchive could not start") }
        defer { archive_write_free(archive) }
        archive_write_add_filter_gzip(archive)
        archive_write_set_format_pax_restricted(archive)
        guard archive_write_open_filename(archive, path) == ARCHIVE_OK else { throw failure(archive) }
        for file in files {
            guard let bytes = FileManager.default.contents(atPath: file.location), let entry = archive_entry_new() else {
                throw Refused(description: "\(file.location) cannot be read")
            }
            defer { archive_entry_free(entry) }
            archive_entry_set_pathname(entry, file.path)
            archive_entry_set_size(entry, Int64(bytes.count))
            archive_entry_set_filetype(entry, 0o100000)
            archive_entry_set_perm(entry, 0o644)
            guard archive_write_header(archive, entry) == ARCHIVE_OK else { throw failure(archive) }
            let written = bytes.withUnsafeBytes { archive_write_data(archive, $0.baseAddress, $0.count) }
            guard written == bytes.count else { throw failure(archive) }
        }
        guard archive_write_close(archive) == ARCHIVE_OK else { throw failure(archive) }
    }

    private static func failure(_ archive: OpaquePointer) -> Refused {
        Refused(description: archive_error_string(archive).map { String(cString: $0) } ?? "not a tar archive")
    }
}
