import CPostgres
import Foundation
import Hashing

/// What PostgreSQL or libpq said went wrong.
public struct PostgresError: Error, CustomStringConvertible, Sendable {
    public var description: String
    /// The server's SQLSTATE code, when the server refused a statement.
    public var code: String? = nil

    /// A row naming a row of another table that is not there (23503).
    public var isForeignKeyViolation: Bool { code == "23503" }
}

/// One libpq connection, used by one thread at a time. Statements take their parameters bound
/// (never spliced into the text); `bytea` goes in as binary and comes back decoded from hex.
public final class PostgresConnection: @unchecked Sendable {
    public enum Value: Sendable {
        case text(String)
        case bytes([UInt8])
        case int(Int64)
        case null

        /// A `text[]` parameter (`$1::text[]`): each value quoted, so that a comma, a quote or a
        /// backslash in one stays inside it.
        public static func textArray(_ values: some Sequence<String>) -> Value {
            .text("{" + values.map { "\"" + $0.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\"" }
                .joined(separator: ",") + "}")
        }
    }

    /// A result's rows as text (nil for NULL).
    public struct Rows: Sendable {
        public var values: [[String?]]
        public var count: Int { values.count }
        public subscript(row: Int, column: Int) -> String? { values[row][column] }
    }

    /// Statements sent and the time spent waiting for their answers, since the connection opened:
    /// on a machine short of CPU each answer waits for PostgreSQL's backend to be scheduled, so a
    /// follower's logs count both.
    public struct RoundTrips: Sendable, Equatable {
        public var count = 0
        public var waited: Duration = .zero

        /// What was sent since `earlier`.
        public func since(_ earlier: RoundTrips) -> RoundTrips {
            RoundTrips(count: count - earlier.count, waited: waited - earlier.waited)
        }
    }

    private let connection: OpaquePointer
    public private(set) var roundTrips = RoundTrips()

    public init(url: String) throws(PostgresError) {
        guard let connection = PQconnectdb(url) else { throw PostgresError(description: "libpq could not allocate a connection") }
        guard PQstatus(connection) == CONNECTION_OK else {
            let message = oneLine(PQerrorMessage(connection))
            PQfinish(connection)
            throw PostgresError(description: "cannot connect to the cluster store: \(message)")
        }
        self.connection = connection
    }

    deinit { PQfinish(connection) }

    public var isConnected: Bool { PQstatus(connection) == CONNECTION_OK }

    /// Whether the connection is idle and the server has not closed it, told without a round
    /// trip: between statements (and not listening) the server sends nothing unasked but its last
    /// message when it ends a connection (a restart, `pg_terminate_backend`,
    /// `idle_session_timeout`). So a socket with anything to read is taken as closed.
    public var isOpen: Bool {
        guard isConnected else { return false }
        var descriptor = pollfd(fd: PQsocket(connection), events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, 0) == 0
    }

    /// The server process serving this connection (tests end it to cut the connection).
    public var backendPID: Int { Int(PQbackendPID(connection)) }

    /// Runs one statement and answers its rows. Statements `send` sent before it go with it, and
    /// their answers are checked first: the first that failed is what this throws.
    @discardableResult
    public func execute(_ sql: String, _ parameters: [Value] = []) throws(PostgresError) -> Rows {
        let waited = countingRoundTrip()
        defer { waited() }
        if !unanswered.isEmpty {
            try send(sql, parameters)
            return try answersSent().last ?? Rows(values: [])
        }
        // Without parameters, PQexec: it also runs several statements (the schema) at once.
        let result: OpaquePointer? = parameters.isEmpty ? PQexec(connection, sql) : Self.withEncoded(parameters) { values, lengths, formats in
            PQexecParams(connection, sql, Int32(parameters.count), nil, values, lengths, formats, 0)
        }
        guard let result else { throw PostgresError(description: oneLine(PQerrorMessage(connection))) }
        defer { PQclear(result) }
        return try Self.rows(of: result)
    }

    /// Sends a statement whose rows no one reads, without waiting for its answer (libpq's
    /// pipeline mode); the next `execute` waits for it along with its own. Inside a transaction
    /// a change's statements (its blobs, audit line, notification) so cost one round trip, not
    /// one each: on a machine short of CPU each answer waits for the backend to be scheduled.
    /// The bytes go out as they are sent (libpq flushes past 64 KB), not held to the end.
    public func send(_ sql: String, _ parameters: [Value] = []) throws(PostgresError) {
        if unanswered.isEmpty {
            guard PQenterPipelineMode(connection) == 1 else { throw PostgresError(description: oneLine(PQerrorMessage(connection))) }
        }
        let sent = Self.withEncoded(parameters) { values, lengths, formats in
            PQsendQueryParams(connection, sql, Int32(parameters.count), nil, values, lengths, formats, 0)
        }
        guard sent == 1 else { throw PostgresError(description: oneLine(PQerrorMessage(connection))) }
        unanswered.append(false)
    }

    /// Sends a statement (outside a transaction) that commits before the statements sent after it
    /// run, without waiting: a `LISTEN` so takes effect before the question after it, whose
    /// snapshot then sees every change committed before, while every change after is notified.
    /// In one transaction with the question a change committed between the two would be neither.
    public func sendCommitted(_ sql: String) throws(PostgresError) {
        try send(sql)
        guard PQpipelineSync(connection) == 1 else { throw PostgresError(description: oneLine(PQerrorMessage(connection))) }
        unanswered[unanswered.count - 1] = true
    }

    /// Statements sent and not answered yet, in order, each with whether it ended a transaction
    /// of its own (`sendCommitted`: a sync follows it).
    private var unanswered: [Bool] = []

    /// Ends the pipeline: waits for the answers of every statement sent, in order, and leaves
    /// pipeline mode. After a failure PostgreSQL skips the rest up to the end (their answers say
    /// "aborted"); the first failure is thrown, once every answer is in.
    private func answersSent() throws(PostgresError) -> [Rows] {
        let sent = unanswered
        unanswered = []
        guard PQpipelineSync(connection) == 1 else { throw PostgresError(description: oneLine(PQerrorMessage(connection))) }
        var answers: [Result<Rows, PostgresError>] = []
        for committed in sent {
            // Each statement's answer is a result, then a null that ends it.
            var answer: Result<Rows, PostgresError> = .failure(PostgresError(description: "no answer: \(oneLine(PQerrorMessage(connection)))"))
            var first = true
            while let result = PQgetResult(connection) {
                defer { PQclear(result) }
                if first { answer = Result { () throws(PostgresError) in try Self.rows(of: result) } }
                first = false
            }
            answers.append(answer)
            if committed { try readSync() }
        }
        try readSync()
        guard PQexitPipelineMode(connection) == 1 else {
            throw PostgresError(description: "the pipeline did not end: \(oneLine(PQerrorMessage(connection)))")
        }
        let failures = answers.compactMap { answer -> PostgresError? in
            if case .failure(let error) = answer { error } else { nil }
        }
        // A statement skipped after a failure says only that it was: the failure itself is news.
        if let failure = failures.first(where: { !$0.description.isEmpty }) ?? failures.first { throw failure }
        return answers.compactMap { try? $0.get() }
    }

    /// The answer to a sync: the end of the statements sent before it.
    private func readSync() throws(PostgresError) {
        let synced = PQgetResult(connection)
        defer { PQclear(synced) }
        guard synced.map({ PQresultStatus($0) == PGRES_PIPELINE_SYNC }) == true else {
            throw PostgresError(description: "the pipeline did not end: \(oneLine(PQerrorMessage(connection)))")
        }
    }

    /// Ends a transaction that failed, whatever was sent: the answers still due are read, then
    /// ROLLBACK, when the server still has the transaction open.
    public func rollBack() {
        if !unanswered.isEmpty { _ = try? answersSent() }
        if PQtransactionStatus(connection) != PQTRANS_IDLE { _ = try? execute("ROLLBACK") }
    }

    /// Runs statements given as one text (separated by semicolons, without parameters) in one
    /// round trip, and answers each one's rows in order (PQexec answers only the last's). They
    /// run as one transaction, each statement with its own snapshot (READ COMMITTED), in order.
    public func executeAll(_ sql: String) throws(PostgresError) -> [Rows] {
        let waited = countingRoundTrip()
        defer { waited() }
        if !unanswered.isEmpty { _ = try answersSent() }
        guard PQsendQuery(connection, sql) == 1 else { throw PostgresError(description: oneLine(PQerrorMessage(connection))) }
        // Every result is taken before the connection can be used again, also after a failure.
        var answers: Result<[Rows], PostgresError> = .success([])
        while let result = PQgetResult(connection) {
            defer { PQclear(result) }
            if case .success(let rows) = answers {
                answers = Result { () throws(PostgresError) in rows + [try Self.rows(of: result)] }
            }
        }
        return try answers.get()
    }

    /// Starts timing one round trip; the closure returned, called once its answer is in, counts it.
    private func countingRoundTrip() -> () -> Void {
        let sent = ContinuousClock.now
        return { [self] in roundTrips.count += 1; roundTrips.waited += .now - sent }
    }

    /// `parameters` as libpq takes them: each one's bytes (valid inside `body`), lengths and
    /// formats (1: binary).
    private static func withEncoded<Result>(_ parameters: [Value],
                                            _ body: ([UnsafePointer<CChar>?], [Int32], [Int32]) -> Result) -> Result {
        let encoded: [(bytes: [UInt8]?, binary: Bool)] = parameters.map { value in
            switch value {
            case .null: (nil, false)
            case .text(let text): (Array(text.utf8) + [0], false)
            case .int(let number): (Array(String(number).utf8) + [0], false)
            // libpq reads an empty binary value as NULL: an empty bytea goes as its text form.
            case .bytes(let bytes) where bytes.isEmpty: (Array("\\x".utf8) + [0], false)
            case .bytes(let bytes): (bytes, true)
            }
        }
        return withPointers(encoded.map(\.bytes)) { pointers in
            body(pointers, encoded.map { Int32($0.bytes?.count ?? 0) }, encoded.map { $0.binary ? 1 : 0 })
        }
    }

    private static func rows(of result: OpaquePointer) throws(PostgresError) -> Rows {
        let status = PQresultStatus(result)
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else {
            let code = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) }
            throw PostgresError(description: oneLine(PQresultErrorMessage(result)), code: code)
        }
        var rows: [[String?]] = []
        for row in 0..<PQntuples(result) {
            rows.append((0..<PQnfields(result)).map { column in
                PQgetisnull(result, row, column) == 1 ? nil : String(cString: PQgetvalue(result, row, column))
            })
        }
        return Rows(values: rows)
    }

    /// `bytea` as text (`\x0a0b...`) back to bytes.
    public static func bytes(fromHex text: String) -> [UInt8]? {
        guard text.hasPrefix("\\x") else { return nil }
        return Hex.decode(text.utf8.dropFirst(2))
    }

    /// Waits up to `timeout` for notifications on the channels this connection listens to, and
    /// returns their payloads; throws when the connection is gone. A readable `wakeup` descriptor
    /// (another thread's nudge) ends the wait early; the caller empties it.
    public func notifications(waitingUpTo timeout: Duration, wakingOn wakeup: Int32? = nil) throws(PostgresError) -> [String] {
        var payloads = drainNotifications()
        if !payloads.isEmpty { return payloads }
        let socket = PQsocket(connection)
        guard socket >= 0 else { throw PostgresError(description: "the cluster store connection has no socket") }
        var descriptors = [pollfd(fd: socket, events: Int16(POLLIN), revents: 0)]
        if let wakeup { descriptors.append(pollfd(fd: wakeup, events: Int16(POLLIN), revents: 0)) }
        let milliseconds = Int32(clamping: timeout.milliseconds)
        let ready = poll(&descriptors, nfds_t(descriptors.count), milliseconds)
        if ready > 0, descriptors[0].revents != 0 {
            guard PQconsumeInput(connection) == 1, isConnected else {
                throw PostgresError(description: "lost the cluster store: \(oneLine(PQerrorMessage(connection)))")
            }
        }
        payloads = drainNotifications()
        return payloads
    }

    private func drainNotifications() -> [String] {
        var payloads: [String] = []
        while let notification = PQnotifies(connection) {
            payloads.append(String(cString: notification.pointee.extra))
            PQfreemem(notification)
        }
        return payloads
    }
}

/// libpq's message (several lines, some indented) as one line, for logs and command errors.
private func oneLine(_ message: UnsafePointer<CChar>?) -> String {
    guard let message else { return "" }
    return String(cString: message).split(whereSeparator: \.isNewline)
        .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }.joined(separator: " ")
}

/// C pointers to each array's bytes (nil for NULL), valid inside `body`.
private func withPointers<Result>(_ arrays: [[UInt8]?], _ body: ([UnsafePointer<CChar>?]) -> Result) -> Result {
    var pointers: [UnsafePointer<CChar>?] = []
    func recurse(_ index: Int) -> Result {
        guard index < arrays.count else { return body(pointers) }
        guard let array = arrays[index] else {
            pointers.append(nil)
            return recurse(index + 1)
        }
        return array.withUnsafeBufferPointer { buffer in
            pointers.append(buffer.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) })
            return recurse(index + 1)
        }
    }
    return recurse(0)
}

extension Duration {
    /// Whole milliseconds, rounded down: what timeouts and logs here count in.
    var milliseconds: Int { Int(components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000) }
}
