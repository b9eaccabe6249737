/// Webhook messages claimed in the store, so that a change every replica hears of is posted by
/// one of them: the first to insert a message's claim (its id and the subscriber's URL) posts it.
extension ClusterStore {
    static let webhookSchema = """
        CREATE TABLE IF NOT EXISTS themed_webhook_claim (message TEXT NOT NULL, url TEXT NOT NULL, at TIMESTAMPTZ NOT NULL DEFAULT now(),
            PRIMARY KEY (message, url));
        """

    /// Claims `message` for `url`: true when this replica is the first (it posts it), false when
    /// another replica did. Claims older than a week are dropped as new ones come.
    public func claimWebhook(message: String, url: String) throws -> Bool {
        try connection.execute("DELETE FROM themed_webhook_claim WHERE at < now() - interval '7 days'")
        return try connection.execute("""
            INSERT INTO themed_webhook_claim (message, url) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING message
            """, [.text(message), .text(url)]).count == 1
    }
}
