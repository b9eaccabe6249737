import Foundation
import HTTPServer
import HTTPTypes
import Logging
import Logs

extension HTTPField.Name {
    /// Names a request in the client's logs, ours and the access log alike.
    static let requestID = HTTPField.Name("X-Request-Id")!
}

/// Gives every request an id, the client's `X-Request-Id` when it sends a usable one (1 to 128
/// visible ASCII characters) or a new random one, hands it to the routes in the request's
/// headers (their error logs carry it), returns it in the answer and writes the access log line.
///
/// In the main log every request is a `debug` record, and one that ends in a server error (5xx)
/// an `error` record, with the request id, route, status and duration.
struct RequestLogMiddleware: Middleware {
    let accessLog: AccessLog?
    let logger: Logger

    func respond(to request: Request, next: (Request) -> RoutedResponse) -> RoutedResponse {
        let start = ContinuousClock.now
        var request = request
        let id = Self.usableID(request.headers[.requestID]) ?? Self.newID()
        request.headers[.requestID] = id
        var routed = next(request)
        let (route, accessLog, logger) = (routed.route, accessLog, logger)
        routed.response = routed.response.map { [request] response in
            var response = response
            response.headers[.requestID] = id
            let duration = ContinuousClock.now - start
            accessLog?.record(request, id: id, route: route, response: response, duration: duration)
            let level: Logger.Level = response.status.code >= 500 ? .error : .debug
            if logger.logLevel <= level {
                logger.log(level: level, "request", metadata: [
                    "request_id": "\(id)", "method": "\(request.method.rawValue)", "path": "\(request.path)", "route": "\(route)",
                    "status": .stringConvertible(response.status.code), "duration_ms": .stringConvertible(AccessLog.milliseconds(duration)),
                ])
            }
            return response
        }
        return routed
    }

    static func usableID(_ value: String?) -> String? {
        guard let value, (1...128).contains(value.utf8.count), value.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else { return nil }
        return value
    }

    /// 128 random bits in hex.
    static func newID() -> String {
        var generator = SystemRandomNumberGenerator()
        return [generator.next(), generator.next()].map { (word: UInt64) in
            let hex = String(word, radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex
        }.joined()
    }
}

/// One line per answered request, as text or JSON, to a file or standard output.
public final class AccessLog: Sendable {
    let sink: LineSink
    let format: LineLogHandler.Format

    public init(sink: LineSink, format: LineLogHandler.Format) {
        (self.sink, self.format) = (sink, format)
    }

    /// A duration in milliseconds, to the microsecond.
    static func milliseconds(_ duration: Duration) -> Double {
        let milliseconds = Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
        return (milliseconds * 1000).rounded() / 1000
    }

    func record(_ request: Request, id: String, route: String, response: Response, duration: Duration) {
        let bytes: Int = switch response.body {
        case .bytes(let bytes): bytes.count
        case .file(let region): region.count
        case .stream, .deferred: 0
        }
        let rounded = Self.milliseconds(duration)
        let fields: [(String, any CustomStringConvertible & Sendable)] = [
            ("request_id", id), ("remote", request.remoteAddress), ("method", request.method.rawValue), ("target", request.target),
            ("route", route), ("status", response.status.code), ("bytes", bytes), ("duration_ms", rounded),
        ]
        switch format {
        case .json:
            sink.write(LogLine.json(time: Date(), level: .info, message: "request",
                                    metadata: Dictionary(uniqueKeysWithValues: fields.map { ($0.0, .stringConvertible($0.1)) })))
        case .text:
            // Close to the common log format, with the route, duration and id after it.
            sink.write("\(request.remoteAddress) - - [\(LogLine.timestamp(Date()))] \"\(request.method.rawValue) \(request.target) HTTP/1.1\" "
                       + "\(response.status.code) \(bytes) route=\(route) duration_ms=\(rounded) request_id=\(id)")
        }
    }
}
