import Foundation
import JSON
import Logging

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
        var seconds = time_t(time.timeIntervalSince1970)
        let milliseconds = Int((time.timeIntervalSince1970 - Double(seconds)) * 1000)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        return String(format: "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday),
                      Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec), milliseconds)
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
