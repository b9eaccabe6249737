import HTTPTypes
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Serialises response heads.
enum ResponseWriter {
    /// Status line and headers; `Content-Length` when the body length is known.
    static func head(status: HTTPResponse.Status, headers: HTTPFields, encoded: [UInt8]? = nil, bodyLength: Int?) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(320)
        bytes += Array("HTTP/1.1 \(status.code) \(status.reasonPhrase)\r\n".utf8)
        bytes += encoded ?? headerLines(headers)
        if let bodyLength { bytes += Array("Content-Length: \(bodyLength)\r\n".utf8) }
        bytes += HTTPDate.headerLine
        bytes += [13, 10]
        return bytes
    }

    /// `Name: value\r\n` for every field but Content-Length (which the writer adds).
    static func headerLines(_ headers: HTTPFields) -> [UInt8] {
        var text = ""
        for field in headers where field.name != .contentLength {
            text += field.name.rawName
            text += ": "
            text += field.value
            text += "\r\n"
        }
        return Array(text.utf8)
    }
}

/// The `Date` header line, formatted once a second.
enum HTTPDate {
    private static let cached = Mutex<(second: Int, line: [UInt8])>((0, []))

    static var headerLine: [UInt8] {
        var seconds = time(nil)
        return cached.withLock { cached in
            if cached.second == seconds { return cached.line }
            var parts = tm()
            gmtime_r(&seconds, &parts)
            let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
            let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
            func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
            let text = "Date: \(days[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) \(parts.tm_year + 1900) \(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT\r\n"
            cached = (seconds, Array(text.utf8))
            return cached.line
        }
    }
}
