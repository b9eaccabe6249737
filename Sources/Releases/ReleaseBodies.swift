import Cluster
import JSON
import ThemeServer
import ThemeVocabulary

/// A release as every answer shows it (the OpenAPI document's `Release`).
struct ReleaseBody: Encodable {
    var theme: String
    var generation: Generation
    var digest: String
    var files: Int
    var publisher: String
    var publishedAt: String
    var current: Bool
    /// Only when it retired the theme.
    var retired: Bool?
    var rollbackOf: Generation?
    /// An approved draft's approvers; left out for a release that was not one.
    var approvers: [String]?
    /// Published into a rollout: the percentage of clients it goes to.
    var rollout: Double?

    init(_ entry: ReleaseEntry, current: Bool, rollout: Double? = nil) {
        (theme, generation, digest, files) = (entry.theme, entry.generation, entry.digest, entry.files)
        (publisher, publishedAt, self.current) = (entry.publisher, entry.publishedAt, current)
        (retired, rollbackOf) = (entry.retired ? true : nil, entry.rollbackOf)
        approvers = entry.approvers.isEmpty ? nil : entry.approvers
        self.rollout = rollout
    }
}

/// A draft as every answer shows it (the OpenAPI document's `Draft`).
struct DraftBody: Encodable {
    enum State: String, Encodable { case open, published, scheduled }

    var id: Int64
    var theme: String
    var state: State
    var publisher: String
    var created: String
    var base: Generation
    var files: Int
    var digest: String
    var approvers: [String]
    /// The approvals it needs (the theme's policy, at least 1).
    var required: Int
    var at: String?
    var rollout: Double?
    var generation: Generation?
    var schedule: Int64?
    /// What it changes against its base, as `GET /themes/{theme}/diff` tells; null for a theme's first release.
    var review: JSONValue

    init(_ draft: Draft, required: Int) {
        (id, theme, publisher, created, base, digest) = (draft.id, draft.theme, draft.publisher, draft.created, draft.base, draft.digest)
        state = draft.generation != nil ? .published : draft.schedule != nil ? .scheduled : .open
        (files, approvers, self.required) = (draft.files.count, draft.approvers, max(1, required))
        (at, rollout, generation, schedule) = (draft.at, draft.rollout, draft.generation, draft.schedule)
        review = (try? JSONParser.parse(Array(draft.review.utf8))) ?? .null
    }
}

extension Schedule {
    var body: ScheduleBody {
        ScheduleBody(id: id, theme: theme, at: at, kind: kind, by: actor, digest: release?.digest, files: release?.files, alias: alias)
    }
}
