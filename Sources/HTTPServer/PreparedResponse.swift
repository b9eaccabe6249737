import HTTPTypes

/// A response made ready to be sent many times (a kept answer): its status line, header lines
/// and Content-Length serialised once (`Response.prepared()`).
///
/// A `HeadResponder` answers with one, and the fields that request
/// adds (its id, the CORS lines for its Origin) as `FieldLines`: the server copies the prepared
/// head, those lines, its own (Connection, Date) and the body into the connection's buffer. A
/// class, so that answering with it takes one reference, not a copy of the response's parts.
public final class PreparedResponse: Sendable {
    /// The answer as handlers and tests see it, its head prepared.
    public let response: Response
    /// That head: the status line, the header lines and Content-Length. Kept apart as well, so
    /// that the server reads it where it is rather than copy the response to reach it.
    let head: [UInt8]

    /// `response` made ready; nil when its body's length is not known before it is sent (a
    /// stream, a deferred answer), so that there is no head to prepare.
    public convenience init?(_ response: Response) {
        self.init(prepared: response.prepared())
    }

    private init?(prepared: Response) {
        guard let head = prepared.preparedHead?.bytes else { return nil }
        (response, self.head) = (prepared, head)
    }

    /// The same answer in storage of its own (see `Response.ownCopy`).
    public func ownCopy() -> PreparedResponse { PreparedResponse(prepared: response.ownCopy()) ?? self }

    /// The answer as the request that added `fields` receives it (for in-process callers: the
    /// server writes the fields without making this).
    public func response(adding fields: FieldLines) -> Response {
        var response = response
        response.requestFields.append(contentsOf: fields)
        return response
    }

    public var status: HTTPResponse.Status { response.status }

    /// The length of the body (sent for a GET, announced for a HEAD).
    public var bodyLength: Int { response.bodyLength }
}

/// Header field lines as they are sent, `Name: value` and CRLF each: the fields an answer
/// carries for one request alone (its id, the CORS lines for its Origin), written after the
/// answer's own fields. Kept as bytes, so that adding them to a kept answer makes no String and
/// no field list, and a buffer of them can be emptied and reused.
public struct FieldLines: Sendable, Equatable {
    public private(set) var bytes: [UInt8] = []

    public init() {}

    public var isEmpty: Bool { bytes.isEmpty }

    /// Adds a field; returns where its value is in `bytes`. The value is the server's own, or was
    /// checked as a field value when it arrived: it is sent as it is.
    @discardableResult
    public mutating func append(_ name: HTTPField.Name, _ value: String) -> Range<Int> {
        append(name) { $0 += value.utf8 }
    }

    /// Adds a field whose value `writeValue` appends to the bytes; returns where the value is.
    @discardableResult
    public mutating func append(_ name: HTTPField.Name, value writeValue: (inout [UInt8]) -> Void) -> Range<Int> {
        bytes += name.rawName.utf8
        bytes += [UInt8(ascii: ":"), UInt8(ascii: " ")]
        let start = bytes.count
        writeValue(&bytes)
        let value = start ..< bytes.count
        bytes += [13, 10]
        return value
    }

    public mutating func append(contentsOf other: FieldLines) {
        bytes += other.bytes
    }

    /// Empties the lines and keeps their storage for the next request's.
    public mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
    }

    /// The text at `range` of `bytes` (a value `append` placed there).
    public func text(at range: Range<Int>) -> String {
        String(decoding: bytes[range.clamped(to: bytes.indices)], as: UTF8.self)
    }

    /// The fields, read back (for tools and tests; names the server wrote are valid).
    public var fields: [HTTPField] {
        bytes.split(separator: 10).compactMap { line in
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")), let name = HTTPField.Name(String(decoding: line[..<colon], as: UTF8.self)) else { return nil }
            var value = line[(colon + 1)...].drop { $0 == UInt8(ascii: " ") }
            if value.last == 13 { value.removeLast() }
            return HTTPField(name: name, value: String(decoding: value, as: UTF8.self))
        }
    }
}
