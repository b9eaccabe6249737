/// One Server-Sent Event as the stream delivered it.
public struct ServerSentEvent: Sendable, Equatable {
    public var id: String?
    public var type: String
    public var data: String

    public init(id: String? = nil, type: String = "message", data: String) {
        (self.id, self.type, self.data) = (id, type, data)
    }
}

/// The event-stream format (WHATWG HTML, "Server-sent events", 9.2.6) read incrementally: bytes
/// go in as they arrive, complete events come out. A line cut between two reads waits for its
/// end; comments (`: heartbeat`) and unknown fields are skipped; an event is dispatched at a
/// blank line, and only when it has data.
public struct ServerSentEventParser: Sendable {
    private var line: [UInt8] = []
    private var lastWasCarriageReturn = false
    private var data: [String] = []
    private var type = ""
    private var pendingID: String?
    /// The id of the last event, which a reconnection sends as `Last-Event-ID`.
    public private(set) var lastEventID: String?
    /// The reconnection delay the server asked for (`retry:`), in milliseconds.
    public private(set) var retryMilliseconds: Int?
    /// A line longer than this is dropped (a server gone wrong must not fill the memory).
    public let maximumLineBytes: Int

    public init(maximumLineBytes: Int = 1 << 20) {
        self.maximumLineBytes = maximumLineBytes
    }

    public mutating func feed(_ bytes: some Sequence<UInt8>) -> [ServerSentEvent] {
        var events: [ServerSentEvent] = []
        for byte in bytes {
            // CR, LF and CRLF all end a line.
            if byte == 0x0A && lastWasCarriageReturn {
                lastWasCarriageReturn = false
                continue
            }
            lastWasCarriageReturn = byte == 0x0D
            if byte == 0x0A || byte == 0x0D {
                if let event = endLine() { events.append(event) }
            } else if line.count < maximumLineBytes {
                line.append(byte)
            }
        }
        return events
    }

    private mutating func endLine() -> ServerSentEvent? {
        defer { line.removeAll(keepingCapacity: true) }
        guard !line.isEmpty else { return dispatch() }
        if line.first == UInt8(ascii: ":") { return nil }
        let text = String(decoding: line, as: UTF8.self)
        let field: Substring, value: Substring
        if let colon = text.firstIndex(of: ":") {
            field = text[..<colon]
            let rest = text[text.index(after: colon)...]
            value = rest.first == " " ? rest.dropFirst() : rest
        } else {
            (field, value) = (text[...], "")
        }
        switch field {
        case "data": data.append(String(value))
        case "event": type = String(value)
        case "id" where !value.contains("\u{0}"): pendingID = String(value)
        case "retry": if let milliseconds = Int(value), milliseconds >= 0 { retryMilliseconds = milliseconds }
        default: break
        }
        return nil
    }

    private mutating func dispatch() -> ServerSentEvent? {
        defer { (data, type) = ([], "") }
        if let pendingID { lastEventID = pendingID }
        let id = pendingID
        pendingID = nil
        guard !data.isEmpty else { return nil }
        return ServerSentEvent(id: id ?? lastEventID, type: type.isEmpty ? "message" : type, data: data.joined(separator: "\n"))
    }
}
