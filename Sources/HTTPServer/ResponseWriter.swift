import HTTPTypes
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Serialises response heads.
enum ResponseWriter {
    /// Status line and headers; `Content-Length` when the body length is known.
    static func head(status: HTTPResponse.Status, headers: HTTPFields, bodyLength: Int?) -> [UInt8] {
        var text = "HTTP/1.1 \(status.code) \(status.reasonPhrase)\r\n"
        text.reserveCapacity(256)
        for field in headers where field.name != .contentLength {
            text += field.name.rawName
            text += ": "
            text += field.value
            text += "\r\n"
        }
        if let bodyLength { text += "Content-Length: \(bodyLength)\r\n" }
        text += "Date: \(HTTPDate.now)\r\n\r\n"
        return Array(text.utf8)
    }
}

/// The `Date` header value, formatted once a second.
enum HTTPDate {
    private static let cached = Mutex<(second: Int, text: String)>((0, ""))

    static var now: String {
        var seconds = time(nil)
        return cached.withLock { cached in
            if cached.second == seconds { return cached.text }
            var parts = tm()
            gmtime_r(&seconds, &parts)
            let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
            let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
            func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
            let text = "\(days[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) \(parts.tm_year + 1900) \(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
            cached = (seconds, text)
            return text
        }
    }
}
