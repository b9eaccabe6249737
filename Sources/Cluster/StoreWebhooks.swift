/// The webhooks' outbox in the store, shared by every replica: each replica keeps the messages of
/// the changes it hears of (a change's message is kept once, by whichever replica is first), and
/// for each subscriber one replica at a time (the one holding its turn, a lock of its connection)
/// posts them in the order they were kept, marking each as given.
///
/// Kept in store order: every replica hears the store's changes in the order of their
/// generations and keeps each message before the next, so the first copy of a change is kept
/// after the first copy of every change before it. Messages are numbered and committed under one
/// lock, so no message becomes visible after one numbered later was read past.
extension ClusterStore {
    static let webhookSchema = """
        DROP TABLE IF EXISTS themed_webhook_claim;
        CREATE TABLE IF NOT EXISTS themed_webhook_message (sequence BIGSERIAL PRIMARY KEY, id TEXT NOT NULL UNIQUE, type TEXT NOT NULL,
            kept_at BIGINT NOT NULL, data TEXT NOT NULL, body TEXT, kept TIMESTAMPTZ NOT NULL DEFAULT now());
        CREATE TABLE IF NOT EXISTS themed_webhook_subscriber (url TEXT PRIMARY KEY, given BIGINT NOT NULL);
        CREATE TABLE IF NOT EXISTS themed_webhook_failure (sequence BIGINT NOT NULL, url TEXT NOT NULL, id TEXT NOT NULL, type TEXT NOT NULL,
            attempts INTEGER NOT NULL, error TEXT NOT NULL, at TIMESTAMPTZ NOT NULL DEFAULT now(), PRIMARY KEY (sequence, url));
        """

    /// A message as the outbox keeps it.
    public struct WebhookMessage: Sendable, Equatable {
        public var sequence: Int64
        public var id: String
        public var type: String
        /// Seconds since 1970.
        public var keptAt: Int
        /// JSON text.
        public var data: String
        public var body: String?
    }

    /// Messages are kept a week, failures a month.
    static let webhookRetention = "interval '7 days'"
    static let webhookFailureRetention = "interval '30 days'"
    /// Numbers and commits messages one at a time (ASCII "themhook").
    static let webhookLock: Int64 = 0x7468_656d_686f_6f6b

    /// Keeps a message (its data as JSON text) after every one kept before it, unless one with its
    /// id is kept already.
    public func keepWebhook(id: String, type: String, data: String, keptAt: Int) throws {
        try transaction {
            try connection.execute("SELECT pg_advisory_xact_lock(\(Self.webhookLock))")
            try connection.execute("DELETE FROM themed_webhook_message WHERE kept < now() - \(Self.webhookRetention)")
            try connection.execute("""
                INSERT INTO themed_webhook_message (id, type, kept_at, data) VALUES ($1, $2, $3, $4) ON CONFLICT (id) DO NOTHING
                """, [.text(id), .text(type), .int(Int64(keptAt)), .text(data)])
        }
    }

    /// Takes the turn to post to the subscriber at `url`, held by this connection until it closes:
    /// true when it is this connection's now. A subscriber new to the store starts after the
    /// messages kept so far.
    public func takeWebhookTurn(url: String) throws -> Bool {
        let taken = try connection.execute("SELECT pg_try_advisory_lock(('x' || substr(md5($1), 1, 16))::bit(64)::bigint)", [.text("themed-webhook " + url)])
        guard taken.values.first?.first == "t" else { return false }
        try connection.execute("""
            INSERT INTO themed_webhook_subscriber (url, given) SELECT $1, coalesce(max(sequence), 0) FROM themed_webhook_message
                ON CONFLICT (url) DO NOTHING
            """, [.text(url)])
        return true
    }

    /// The messages of `types` the subscriber at `url` was not given yet, oldest first.
    public func webhookMessages(for url: String, types: [String], limit: Int) throws -> [WebhookMessage] {
        try connection.execute("""
            SELECT m.sequence, m.id, m.type, m.kept_at, m.data, m.body FROM themed_webhook_message m, themed_webhook_subscriber s
                WHERE s.url = $1 AND m.sequence > s.given AND m.type = ANY($2::text[]) ORDER BY m.sequence LIMIT $3
            """, [.text(url), .textArray(types), .int(Int64(limit))]).values.compactMap { row in
            guard row.count == 6, let sequence = row[0].flatMap({ Int64($0) }), let id = row[1], let type = row[2],
                  let keptAt = row[3].flatMap({ Int($0) }), let data = row[4] else { return nil }
            return WebhookMessage(sequence: sequence, id: id, type: type, keptAt: keptAt, data: data, body: row[5])
        }
    }

    /// The body kept for the message: `body` when none was kept yet.
    public func sealWebhook(sequence: Int64, body: String) throws -> String {
        try connection.execute("UPDATE themed_webhook_message SET body = $2 WHERE sequence = $1 AND body IS NULL", [.int(sequence), .text(body)])
        let kept = try connection.execute("SELECT body FROM themed_webhook_message WHERE sequence = $1", [.int(sequence)]).values.first?.first ?? nil
        return kept ?? body
    }

    /// Why a subscriber was not given a message after every try.
    public typealias WebhookFailure = (id: String, type: String, url: String, attempts: Int, error: String, at: Double)

    /// The subscriber at `url` is done with message `sequence`: taken, or given up on (`failure`;
    /// its `at` is the store's clock).
    public func webhookDone(sequence: Int64, url: String, failure: WebhookFailure?) throws {
        try transaction {
            try connection.execute("UPDATE themed_webhook_subscriber SET given = greatest(given, $2) WHERE url = $1", [.text(url), .int(sequence)])
            guard let failure else { return }
            try connection.execute("DELETE FROM themed_webhook_failure WHERE at < now() - \(Self.webhookFailureRetention)")
            try connection.execute("""
                INSERT INTO themed_webhook_failure (sequence, url, id, type, attempts, error) VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING
                """, [.int(sequence), .text(url), .text(failure.id), .text(failure.type), .int(Int64(failure.attempts)), .text(failure.error)])
        }
    }

    /// The newest `limit` failures, oldest first.
    public func webhookFailures(limit: Int) throws -> [WebhookFailure] {
        try connection.execute("""
            SELECT id, type, url, attempts, error, extract(epoch FROM at) FROM
                (SELECT * FROM themed_webhook_failure ORDER BY at DESC, sequence DESC LIMIT $1) newest ORDER BY at, sequence
            """, [.int(Int64(limit))]).values.compactMap { row in
            guard row.count == 6, let id = row[0], let type = row[1], let url = row[2], let attempts = row[3].flatMap({ Int($0) }),
                  let error = row[4], let at = row[5].flatMap({ Double($0) }) else { return nil }
            return (id, type, url, attempts, error, at)
        }
    }

    /// How many messages of `types` the subscriber at `url` was not given yet.
    public func webhooksWaiting(for url: String, types: [String]) throws -> Int {
        let count = try connection.execute("""
            SELECT count(*) FROM themed_webhook_message m, themed_webhook_subscriber s
                WHERE s.url = $1 AND m.sequence > s.given AND m.type = ANY($2::text[])
            """, [.text(url), .textArray(types)]).values.first?.first ?? nil
        return count.flatMap { Int($0) } ?? 0
    }
}
