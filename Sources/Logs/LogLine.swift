import Dispatch
import Foundation
import JSON
import Logging
import Synchronization

/// How themed writes a log record: `text` for people at a terminal, `json` (one object per line:
/// time, level, message, then the metadata) for log collectors.
public enum LogLine {
    public static func text(time: Date, level: Logger.Level, message: String, metadata: Logger.Metadata) -> String {
        let fields = metadata.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        return "\(timestamp(time)) \(level) \(message)" + (fields.isEmpty ? "" : " " + fields)
    }

    public static func json(time: Date, level: Logger.Level, message: String, metadata: Logger.Metadata) -> String {
        var fields: [(String, JSONValue)] = [("time", .string(timestamp(time))), ("level", .string(level.rawValue)), ("message", .string(message))]
        for (key, value) in metadata.sorted(by: { $0.key < $1.key }) where !["time", "level", "message"].contains(key) {
            fields.append((key, json(value)))
        }
        return JSONValue.object(fields).serialized()
    }

    private static func json(_ value: Logger.MetadataValue) -> JSONValue {
        switch value {
        case .string(let text): return .string(text)
        // Numbers logged as values (status, duration) stay numbers for the collector.
        case .stringConvertible(let number as Int): return .int(number)
        case .stringConvertible(let number as Double) where number.isFinite: return .double(number)
        case .stringConvertible(let flag as Bool): return .bool(flag)
        case .stringConvertible(let convertible): return .string(convertible.description)
        case .array(let values): return .array(values.map(json))
        case .dictionary(let values): return .object(values.sorted { $0.key < $1.key }.map { ($0.key, json($0.value)) })
        }
    }

    /// RFC 3339 in UTC with milliseconds.
    public static func timestamp(_ time: Date) -> String {
        var text: [UInt8] = []
        text.reserveCapacity(24)
        appendTimestamp(time.timeIntervalSince1970, to: &text)
        return String(decoding: text, as: UTF8.self)
    }

    /// RFC 3339 in UTC with milliseconds, of seconds since 1970, appended to a line being made.
    public static func appendTimestamp(_ interval: Double, to text: inout [UInt8]) {
        var seconds = time_t(interval.rounded(.down))
        let milliseconds = min(999, Int((interval - Double(seconds)) * 1000))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        // Digits written by hand: this runs for every access log line, and String(format:) is slow.
        appendDigits(Int(parts.tm_year) + 1900, 4, to: &text); text.append(UInt8(ascii: "-"))
        appendDigits(Int(parts.tm_mon) + 1, 2, to: &text); text.append(UInt8(ascii: "-"))
        appendDigits(Int(parts.tm_mday), 2, to: &text); text.append(UInt8(ascii: "T"))
        appendDigits(Int(parts.tm_hour), 2, to: &text); text.append(UInt8(ascii: ":"))
        appendDigits(Int(parts.tm_min), 2, to: &text); text.append(UInt8(ascii: ":"))
        appendDigits(Int(parts.tm_sec), 2, to: &text); text.append(UInt8(ascii: "."))
        appendDigits(milliseconds, 3, to: &text); text.append(UInt8(ascii: "Z"))
    }

    /// A non-negative number's decimal digits, at least `count` of them (zero-padded).
    public static func appendDigits(_ value: Int, _ count: Int = 1, to text: inout [UInt8]) {
        var divisor = 1
        var width = 1
        while width < count || divisor <= value / 10 {
            divisor *= 10
            width += 1
        }
        while divisor > 0 {
            text.append(UInt8(ascii: "0") + UInt8(value / divisor % 10))
            divisor /= 10
        }
    }
}

/// A swift-log handler that writes each record as one line (text or JSON) to a `LineSink`.
public struct LineLogHandler: LogHandler {
    public var logLevel: Logger.Level
    public var metadata: Logger.Metadata = [:]
    let label: String
    let format: Format
    let sink: LineSink

    public enum Format: Sendable {
        case text, json
    }

    public init(label: String, format: Format, level: Logger.Level, sink: LineSink = .standardError) {
        (self.label, self.format, logLevel, self.sink) = (label, format, level, sink)
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(level: Logger.Level, message: Logger.Message, metadata explicit: Logger.Metadata?, source: String,
                    file: String, function: String, line: UInt) {
        let merged = self.metadata.merging(explicit ?? [:]) { _, new in new }
        let text = switch format {
        case .text: LogLine.text(time: Date(), level: level, message: message.description, metadata: merged)
        case .json: LogLine.json(time: Date(), level: level, message: message.description, metadata: merged)
        }
        sink.write(text)
    }
}

/// Where lines go: standard error, standard output or a file opened for appending. Each line
/// is one `write` call, so lines of concurrent threads never interleave.
public final class LineSink: Sendable {
    let descriptor: Int32
    let ownsDescriptor: Bool

    public static let standardError = LineSink(descriptor: 2)
    public static let standardOutput = LineSink(descriptor: 1)

    init(descriptor: Int32, ownsDescriptor: Bool = false) {
        (self.descriptor, self.ownsDescriptor) = (descriptor, ownsDescriptor)
    }

    /// `-` is standard output; anything else a file, created if missing and appended to.
    public static func opening(_ path: String) throws -> LineSink {
        if path == "-" { return .standardOutput }
        let descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw SinkError(path: path, reason: String(cString: strerror(errno))) }
        return LineSink(descriptor: descriptor, ownsDescriptor: true)
    }

    public func write(_ line: String) {
        var bytes = Array(line.utf8)
        bytes.append(0x0A)
        write(bytes: bytes)
    }

    /// Writes `bytes` (whole lines) with as few `write` calls as the descriptor takes.
    public func write(bytes: [UInt8]) {
        bytes.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            var offset = 0
            while offset < buffer.count {
                let written = Foundation.write(descriptor, base + offset, buffer.count - offset)
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else { return }
                offset += written
            }
        }
    }

    deinit {
        if ownsDescriptor { close(descriptor) }
    }

    public struct SinkError: Error, CustomStringConvertible {
        public var path: String
        public var reason: String
        public var description: String { "\(path): \(reason)" }
    }
}

/// Lines gathered in memory and written to a `LineSink` in batches: once `batchBytes` have
/// gathered, every `interval`, and on `flush()`. A busy server's access log then costs one
/// `write` per batch instead of one per request (nginx's `access_log ... buffer= flush=`); a
/// line is at most `interval` late, and `flush()` at shutdown loses none.
public final class BufferedLineSink: Sendable {
    let sink: LineSink
    public static let batchBytes = 64 << 10
    private let pending = Mutex<[UInt8]>([])
    /// Held while a batch is written, so that batches reach the file in the order they were cut.
    private let writing = Mutex(())
    /// Set once; a Dispatch source may be cancelled from any thread.
    nonisolated(unsafe) private let timer: DispatchSourceTimer

    public init(sink: LineSink, interval: Duration = .milliseconds(200)) {
        self.sink = sink
        timer = DispatchSource.makeTimerSource(queue: .global(qos: .utility))
        let milliseconds = Int(interval.components.seconds * 1000 + interval.components.attoseconds / 1_000_000_000_000_000)
        timer.schedule(deadline: .now() + .milliseconds(milliseconds), repeating: .milliseconds(milliseconds))
        timer.setEventHandler { [weak self] in self?.flush() }
        timer.resume()
    }

    deinit {
        timer.cancel()
        flush()
    }

    public func write(_ line: String) {
        write(bytes: line.utf8)
    }

    /// A line's bytes, without its newline.
    public func write(bytes line: some Sequence<UInt8>) {
        let full = pending.withLock { pending in
            pending += line
            pending.append(0x0A)
            return pending.count >= Self.batchBytes
        }
        if full { flush() }
    }

    /// Writes every line gathered so far.
    public func flush() {
        writing.withLock { _ in
            // Swapped out whole: emptying it in place would copy it, as `batch` still holds it.
            let batch = pending.withLock { pending in
                defer { pending = [] }
                return pending
            }
            if !batch.isEmpty { sink.write(bytes: batch) }
        }
    }
}
