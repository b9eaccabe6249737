import HTTPTypes
#if canImport(Glibc)
import Glibc
#endif

/// Serialises response heads.
///
/// A head is the status line, the header lines and `Content-Length` (the same every time a given
/// answer is sent), then what differs per request: the fields added for that request alone, a
/// `Connection` line where the version needs one, `Date`, and the blank line. An answer kept to
/// be sent many times has its first part serialised once (`Response.prepared()`), so sending it
/// again copies bytes and formats nothing.
enum ResponseWriter {
    /// Status line, header lines (every field but Content-Length, which the writer adds) and
    /// `Content-Length` when the body length is known.
    static func fixedPart(status: HTTPResponse.Status, headers: HTTPFields, bodyLength: Int?) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(512)
        append(status: status, to: &bytes)
        for field in headers where field.name != .contentLength {
            appendField(field.name.rawName, field.value, to: &bytes)
        }
        if let bodyLength {
            bytes += "Content-Length: ".utf8
            appendDecimal(bodyLength, to: &bytes)
            bytes += crlf
        }
        return bytes
    }

    /// The status line, header lines and Content-Length of `response` for a body of `bodyLength`:
    /// the prepared ones when it has them for that length, else serialised now.
    static func fixedPart(of response: borrowing Response, bodyLength: Int?) -> [UInt8] {
        if let prepared = response.preparedHead, prepared.bodyLength == bodyLength { return prepared.bytes }
        return fixedPart(status: response.status, headers: response.headers, bodyLength: bodyLength)
    }

    /// A head for one request, appended to `buffer`: `fixedPart` (see `fixedPart(of:bodyLength:)`),
    /// the request's own fields (a response's, or those a head handler wrote for a prepared
    /// answer), `Connection: <connection>` when given, the `Date` line and the blank line.
    static func appendHead(fixedPart: borrowing [UInt8], requestFields: borrowing FieldLines, connection: String?, date: [UInt8],
                           to buffer: inout [UInt8]) {
        buffer += fixedPart
        buffer += requestFields.bytes
        if let connection { appendField("Connection", connection, to: &buffer) }
        buffer += date
        buffer += crlf
    }

    /// A complete head, for answers the server gives by itself (503 past the connection limit).
    static func head(status: HTTPResponse.Status, headers: HTTPFields, bodyLength: Int?) -> [UInt8] {
        var bytes = fixedPart(status: status, headers: headers, bodyLength: bodyLength)
        var date = HTTPDate()
        bytes += date.headerLine(at: time(nil))
        bytes += crlf
        return bytes
    }

    static let crlf: [UInt8] = [13, 10]

    /// `Name: value` and CRLF.
    static func appendField(_ name: String, _ value: String, to bytes: inout [UInt8]) {
        bytes += name.utf8
        bytes += [UInt8(ascii: ":"), UInt8(ascii: " ")]
        bytes += value.utf8
        bytes += crlf
    }

    private static func append(status: HTTPResponse.Status, to bytes: inout [UInt8]) {
        bytes += "HTTP/1.1 ".utf8
        appendDecimal(status.code, to: &bytes)
        bytes.append(UInt8(ascii: " "))
        bytes += status.reasonPhrase.utf8
        bytes += crlf
    }

    static func appendDecimal(_ value: Int, to bytes: inout [UInt8]) {
        guard value > 0 else { return bytes.append(UInt8(ascii: "0")) }
        // Written in place, last digit first: no array of digits for each response.
        var count = 0
        var rest = value
        while rest > 0 { (count, rest) = (count + 1, rest / 10) }
        let start = bytes.count
        bytes.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: count))
        rest = value
        for position in stride(from: start + count - 1, through: start, by: -1) {
            bytes[position] = UInt8(ascii: "0") + UInt8(rest % 10)
            rest /= 10
        }
    }
}

/// The status line and header lines of a response serialised once, with the body length its
/// `Content-Length` line was written for.
struct PreparedHead: Sendable {
    var bytes: [UInt8]
    var bodyLength: Int?
}

/// The `Date` header line (RFC 9110 6.6.1), formatted once a second. Each event loop keeps its
/// own, so loops share no lock to send an answer.
struct HTTPDate {
    private var second: time_t = -1
    private var line: [UInt8] = []

    mutating func headerLine(at now: time_t) -> [UInt8] {
        if now == second { return line }
        var seconds = now
        var parts = tm()
        gmtime_r(&seconds, &parts)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let text = "Date: \(days[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) \(parts.tm_year + 1900) \(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT\r\n"
        (second, line) = (now, Array(text.utf8))
        return line
    }
}
