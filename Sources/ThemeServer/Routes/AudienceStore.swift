import Audiences
import HTTPServer
import ThemeVocabulary

/// Where aliases and rollouts are kept for every replica: a cluster store, through Releases'
/// `ClusterAudiences`, which `themed serve` hands to `ThemeService` (as it hands the
/// `ActiveThemeStore`). Without one, aliases are kept in this server's index (`AliasBook`) and
/// rollouts answer 409.
///
/// It answers with values; `AudienceRoutes` writes them as JSON.
public protocol AudienceStore: Sendable {
    /// Assignments as this replica answers them now: the store's aliases (and `current`, the
    /// active theme), its rollouts, and the generation each theme serves here. Made once per
    /// change, read by every `/assign`.
    var assigner: Assigner { get }

    /// The folder (a theme of the library) that answers `theme`'s `generation` here: the
    /// theme's own when it serves it, the one kept beside it for a rollout or a pin, else nil.
    func folder(of theme: String, generation: Generation) -> String?

    /// Alias changes waiting for their time, soonest first, as `GET /aliases` lists them.
    var scheduledAliasChanges: [ScheduledAliasChange] { get }

    // The changes. Each asks the store and then waits until every ready replica serves the
    // change (`wait`; with none, until this replica follows it, so that the client's next
    // `/assign` here sees it), returning what the wait found: they block, and `AudienceRoutes`
    // calls them off the event loop, once `authorize` settled who asks. A refusal is the error to
    // answer with (401, 403, 404, 422, 429, 503).

    /// The holder of the token `credentials` present, which must have the `rollout` permission
    /// on every theme of `themes` (a round trip to the store).
    func authorize(_ credentials: Credentials, themes: [String]) throws(APIError) -> Caller

    /// Keeps `alias` (replacing one of its name); returns it as kept.
    func putAlias(_ alias: Alias, by caller: Caller, wait: ServedWait?) throws(APIError) -> Changed<Alias>
    /// Stores `alias` to be kept at `at` (RFC 3339).
    func scheduleAlias(_ alias: Alias, at: String, by caller: Caller) throws(APIError) -> ScheduledAliasChange
    /// Forgets an alias; 404 when there is none.
    func removeAlias(_ name: String, by caller: Caller, wait: ServedWait?) throws(APIError) -> ReplicaReport?
    /// Starts, moves, halts (0) or completes (100) `theme`'s rollout of `generation`; nil when
    /// that completes it (the generation is then the theme's current one).
    func setRollout(theme: String, generation: Generation, percent: Double, by caller: Caller, wait: ServedWait?) throws(APIError) -> Changed<Rollout?>
}

/// An alias change stored to be made at a set time.
public struct ScheduledAliasChange: Sendable, Equatable {
    /// The schedule's id, for `DELETE /active/schedule/{id}`.
    public var id: Int64
    public var alias: String
    /// The theme the alias will point at.
    public var theme: String
    /// RFC 3339, UTC.
    public var at: String
    /// Who stored it (a token's name, or the operator).
    public var by: String

    public init(id: Int64, alias: String, theme: String, at: String, by: String) {
        (self.id, self.alias, self.theme, self.at, self.by) = (id, alias, theme, at, by)
    }
}
