import Foundation
import HTTPServer
import HTTPTypes
import Logging
import Logs
import Synchronization

extension HTTPField.Name {
    /// Names a request in the client's logs, ours and the access log alike.
    static let requestID = HTTPField.Name("X-Request-Id")!
}

/// Gives every request an id (`RequestIDs`), hands it to the routes in the request's headers
/// (their error logs carry it), returns it in the answer and writes the access log line.
///
/// In the main log every request is a `debug` record, and one that ends in a server error (5xx)
/// an `error` record, with the request id, route, status and duration.
struct RequestLogMiddleware: Middleware {
    let accessLog: AccessLog?
    let logger: Logger
    let ids: RequestIDs
    /// The lowest level of the records it writes, looked up once: the logger's level is fixed
    /// when the service is made.
    private let logLevel: Logger.Level

    init(accessLog: AccessLog?, logger: Logger, ids: RequestIDs) {
        (self.accessLog, self.logger, self.ids, logLevel) = (accessLog, logger, ids, logger.logLevel)
    }

    func respond(to request: Request, next: (Request) -> RoutedResponse) -> RoutedResponse {
        let start = request.received ?? .now
        var request = request
        let id = ids.id(for: request)
        request.headers[.requestID] = id
        var routed = next(request)
        let route = routed.route
        routed.response = routed.response.map { [self, request] response in
            var response = response
            finish(&response, request: request, id: id, route: route, duration: Moment.now - start)
            return response
        }
        return routed
    }

    /// What every answer the chain makes gets on its way out: its request's id, the access log
    /// line and the main log's record.
    func finish(_ response: inout Response, request: Request, id: String, route: String, duration: Duration) {
        response.requestFields.append(.requestID, id)
        log(request: request, id: id, route: route, status: response.status, bodyBytes: response.bodyLength, duration: duration)
    }

    /// The access log line and the main log's record of an answered request. Every answer, kept
    /// or made by the chain, has a record in the main log at debug level (or for a server error).
    func log(request: Request, id: String, route: String, status: HTTPResponse.Status, bodyBytes: Int, duration: Duration) {
        log(remoteAddress: request.remoteAddress, method: request.method, target: request.target, id: id, route: route, status: status.code,
            bodyBytes: bodyBytes, duration: duration)
    }

    /// Whether an answer with `status` leaves any record: an access log line, or one of the main
    /// log at its level. Where none does (the usual server: no access log, `info`), the fast path
    /// makes no text of the request's id for it.
    func records(status: Int) -> Bool {
        accessLog != nil || logLevel <= Self.level(of: status)
    }

    private static func level(of status: Int) -> Logger.Level { status >= 500 ? .error : .debug }

    /// The same from the request's head alone (a kept answer): debug logging does not send a
    /// request that has a kept answer down the chain.
    func log(remoteAddress: String, method: HTTPRequest.Method, target: String, id: String, route: String, status: Int, bodyBytes: Int,
             duration: Duration) {
        accessLog?.record(remoteAddress: remoteAddress, method: method, target: target, id: id, route: route, status: status,
                          bodyBytes: bodyBytes, duration: duration)
        let level = Self.level(of: status)
        if logLevel <= level {
            logger.log(level: level, "request", metadata: [
                "request_id": "\(id)", "method": "\(method.rawValue)", "path": "\(target.prefix { $0 != "?" })", "route": "\(route)",
                "status": .stringConvertible(status), "duration_ms": .stringConvertible(AccessLog.milliseconds(duration)),
            ])
        }
    }
}

/// Request ids: the client's `X-Request-Id` when it sends a usable one (1 to 128 visible ASCII
/// characters), else this process's random prefix and a number in hex. Unique across processes
/// and restarts (48 random bits a process) without a system call per request. Each event loop
/// counts its own requests (`PerLoop`), so the loops share no counter: loop k of n numbers its
/// i-th request i * n + k, and no two loops ever make the same number.
final class RequestIDs: Sendable {
    /// 12 hex digits and a dash, drawn once.
    let prefix: String
    private let counts = PerLoop { _ in UInt64(0) }

    init() {
        let random = UInt64.random(in: 0 ..< 1 << 48)
        let hex = String(random, radix: 16)
        prefix = String(repeating: "0", count: 12 - hex.count) + hex + "-"
    }

    func id(for request: Request) -> String {
        id(sent: request.headers[.requestID], loop: request.loop)
    }

    /// The id of a request that sent `sent` as its X-Request-Id (nil: none) and was read by `loop`.
    func id(sent: String?, loop: Int?) -> String {
        if let usable = Self.usable(sent) { return usable }
        var id: [UInt8] = []
        appendNewID(loop: loop, to: &id)
        return String(decoding: id, as: UTF8.self)
    }

    /// Adds the `X-Request-Id` line of such a request to `fields`, written in place (no String is
    /// made of a new id); returns where the id is in them.
    func addID(sent: String?, loop: Int?, to fields: inout FieldLines) -> Range<Int> {
        if let usable = Self.usable(sent) { return fields.append(.requestID, usable) }
        return fields.append(.requestID) { appendNewID(loop: loop, to: &$0) }
    }

    /// The prefix and the loop's next number in hex.
    private func appendNewID(loop: Int?, to bytes: inout [UInt8]) {
        let lanes = UInt64(counts.count)
        let number = counts.withState(forLoop: loop) { lane, count in
            count += 1
            return count * lanes + UInt64(lane)
        }
        bytes += prefix.utf8
        let digits = max(1, (64 - number.leadingZeroBitCount + 3) / 4)
        for position in (0..<digits).reversed() {
            let nibble = UInt8(truncatingIfNeeded: number >> (4 * position)) & 0xF
            bytes.append(nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10)
        }
    }

    static func usable(_ value: String?) -> String? {
        guard let value, (1...128).contains(value.utf8.count), value.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else { return nil }
        return value
    }
}

/// One line per answered request, as text or JSON, to a file or standard output.
/// Lines are written in batches (`BufferedLineSink`): at most 64 KiB or 0.2 s behind, all of
/// them by `flush()`, which `themed serve` calls when it stops.
public final class AccessLog: Sendable {
    let sink: BufferedLineSink
    let format: LineLogHandler.Format

    public init(sink: LineSink, format: LineLogHandler.Format) {
        (self.sink, self.format) = (BufferedLineSink(sink: sink), format)
    }

    /// Writes every line recorded so far.
    public func flush() { sink.flush() }

    /// A duration in milliseconds, to the microsecond.
    static func milliseconds(_ duration: Duration) -> Double {
        let milliseconds = Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
        return (milliseconds * 1000).rounded() / 1000
    }

    func record(remoteAddress: String, method: HTTPRequest.Method, target: String, id: String, route: String, status: Int, bodyBytes bytes: Int,
                duration: Duration) {
        switch format {
        case .json:
            let fields: [(String, any CustomStringConvertible & Sendable)] = [
                ("request_id", id), ("remote", remoteAddress), ("method", method.rawValue), ("target", target),
                ("route", route), ("status", status), ("bytes", bytes), ("duration_ms", Self.milliseconds(duration)),
            ]
            sink.write(LogLine.json(time: Date(), level: .info, message: "request",
                                    metadata: Dictionary(uniqueKeysWithValues: fields.map { ($0.0, .stringConvertible($0.1)) })))
        case .text:
            // Close to the common log format, with the route, duration and id after it; made as
            // bytes in one buffer (a line per request: no String pieces to join).
            var line: [UInt8] = []
            line.reserveCapacity(128 + target.utf8.count + remoteAddress.utf8.count)
            line += remoteAddress.utf8
            line += " - - [".utf8
            LogLine.appendTimestamp(Date().timeIntervalSince1970, to: &line)
            line += "] \"".utf8
            line += method.rawValue.utf8
            line.append(UInt8(ascii: " "))
            line += target.utf8
            line += " HTTP/1.1\" ".utf8
            LogLine.appendDigits(status, to: &line)
            line.append(UInt8(ascii: " "))
            LogLine.appendDigits(bytes, to: &line)
            line += " route=".utf8
            line += route.utf8
            line += " duration_ms=".utf8
            Self.appendMilliseconds(duration, to: &line)
            line += " request_id=".utf8
            line += id.utf8
            sink.write(bytes: line)
        }
    }

    /// A duration in milliseconds to the microsecond, written as `milliseconds` shows it as a
    /// number (`0.012`, `1.5`, `2.0`).
    static func appendMilliseconds(_ duration: Duration, to line: inout [UInt8]) {
        let microseconds = max(0, Int(duration.components.seconds) * 1_000_000 + Int((duration.components.attoseconds + 500_000_000_000) / 1_000_000_000_000))
        LogLine.appendDigits(microseconds / 1000, to: &line)
        line.append(UInt8(ascii: "."))
        var fraction = microseconds % 1000
        var width = 3
        while width > 1 && fraction % 10 == 0 {
            fraction /= 10
            width -= 1
        }
        LogLine.appendDigits(fraction, width, to: &line)
    }
}
