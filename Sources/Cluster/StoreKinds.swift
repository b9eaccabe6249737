import Audiences
import ThemeVocabulary

// What the cluster store keeps, by kind of data. One `ClusterStore` (a PostgreSQL connection,
// with the store's one sequence of generations and its lock) answers every kind; a consumer
// names the kinds it uses, so that what it can touch is in its type, as GRDB splits a record's
// abilities into focused protocols. Each kind's tables and SQL are in the file named after it.

/// Drafts of releases and the approvals they need (Drafts.swift).
public protocol DraftStore {
    func requiredApprovals(of theme: String) throws -> Int
    func setRequiredApprovals(_ count: Int, of theme: String, by actor: String) throws
    func createDraft(theme: String, paths: [String], by publisher: String, at: String?, rollout: Double?, review: String,
                     contents: (Int) throws -> [UInt8]) throws -> Draft
    func replaceDraft(_ id: Int64, paths: [String], by actor: String, review: String, contents: (Int) throws -> [UInt8]) throws -> Draft
    func approveDraft(_ id: Int64, by approver: String, required: Int, keep: Int) throws -> ApprovalOutcome
    func draft(_ id: Int64) throws -> Draft
    func openDrafts(of theme: String) throws -> [Draft]
}

/// A theme's releases, newest first, and rollbacks to one of them (ReleaseHistory.swift).
public protocol ReleaseHistoryStore {
    func history(of theme: String) throws -> [ReleaseEntry]
    func rollback(theme: String, to generation: Generation, by actor: String, keep: Int) throws -> Generation
}

/// Changes stored to be made at a set time (Schedules.swift).
public protocol ScheduleStore {
    func schedule(activating theme: String, at: String, by actor: String) throws -> Schedule
    func schedule(theme: String, paths: [String], at: String, by actor: String, contents: (Int) throws -> [UInt8]) throws -> Schedule
    func schedule(alias: Alias, at: String, by actor: String) throws -> Schedule
    func cancelSchedule(_ id: Int64, by actor: String) throws -> Schedule
    func pendingSchedules() throws -> [Schedule]
    func applyDueSchedules(keep: Int) throws -> Int
}

/// Aliases and rollouts: who gets which theme (StoreAudiences.swift).
public protocol AssignmentStore {
    func audiences() throws -> StoreAudiences
    func putAlias(_ alias: Alias, by actor: String) throws -> Generation
    func removeAlias(_ name: String, by actor: String) throws -> Generation?
    func setRollout(theme: String, generation: Generation, percent: Double, by actor: String) throws -> (rollout: Rollout?, generation: Generation)
}

/// The tokens teams publish with (Tokens.swift).
public protocol TokenStore {
    func createToken(name: String, themes: [String], permissions: Set<Token.Permission>, by actor: String) throws -> String
    func tokens() throws -> [Token]
    func revokeToken(name: String, by actor: String) throws -> Bool
    func token(forSecret secret: String) throws -> Token?
}

/// Webhook messages kept until each subscriber has them, posted by one replica at a time
/// (StoreWebhooks.swift).
public protocol WebhookOutboxStore {
    func keepWebhook(id: String, type: String, data: String, keptAt: Int) throws
    func takeWebhookTurn(url: String) throws -> Bool
    func webhookMessages(for url: String, types: [String], limit: Int) throws -> [ClusterStore.WebhookMessage]
    func sealWebhook(sequence: Int64, body: String) throws -> String
    func webhookDone(sequence: Int64, url: String, failure: ClusterStore.WebhookFailure?) throws
    func webhookFailures(limit: Int) throws -> [ClusterStore.WebhookFailure]
    func webhooksWaiting(for url: String, types: [String]) throws -> Int
}

/// Which generation each replica serves, and the wait for all of them (ReplicaRegistry.swift).
public protocol ReplicaRegistry {
    func reportServing(replica name: String, generation: Generation) throws
    func replicasServing() throws -> [ReplicaServing]
    func awaitServed(_ generation: Generation, timeout: Duration, unlistening: Bool) throws -> ReplicaReport
}

extension ClusterStore: DraftStore, ReleaseHistoryStore, ScheduleStore, AssignmentStore, TokenStore, WebhookOutboxStore, ReplicaRegistry {}
