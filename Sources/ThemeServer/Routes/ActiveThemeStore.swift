import HTTPServer
import JSON
import ThemeVocabulary

/// Where the active theme is kept for every replica, with its scheduled switches: a cluster
/// store, through Releases' `ClusterActiveTheme`, which `themed serve` hands to `ThemeService`
/// (as it hands the `AudienceStore`). Without one, `PUT /active` switches this server's library
/// alone and a schedule (`"at"`) is 409.
///
/// It answers with values; `AdminRoutes` settles who asks and writes the answers as JSON. The
/// changes block (a round trip to the store): the routes call them off the event loop. A refusal
/// is the error to answer with (401, 403, 404, 422, 429, 503).
public protocol ActiveThemeStore: Sendable {
    /// Switches waiting for their time, soonest first, as `GET /active` lists them.
    var scheduledSwitches: [ScheduledSwitch] { get }

    /// The holder of the token `credentials` present, which must have the `activate`
    /// permission on `theme` (a round trip to the store).
    func authorize(_ credentials: Credentials, theme: String) throws(APIError) -> Caller

    /// Makes `theme` the active theme of every replica; returns the change's generation.
    func activate(_ theme: String, by caller: Caller) throws(APIError) -> Generation

    /// Stores a switch to `theme` to be made at `at` (RFC 3339).
    func schedule(activating theme: String, at: String, by caller: Caller) throws(APIError) -> ScheduledSwitch

    /// Waits until every ready replica serves the change of `generation` (`wait`; nil answers at
    /// once) and returns what the wait found.
    func awaitServed(_ generation: Generation, _ wait: ServedWait?) throws(APIError) -> ReplicaReport?
}

/// A switch of the active theme stored to be made at a set time.
public struct ScheduledSwitch: Sendable, Equatable {
    /// The schedule's id, for `DELETE /active/schedule/{id}`.
    public var id: Int64
    public var theme: String
    /// RFC 3339, UTC.
    public var at: String
    /// Who stored it (a token's name, or the operator).
    public var by: String

    public init(id: Int64, theme: String, at: String, by: String) {
        (self.id, self.theme, self.at, self.by) = (id, theme, at, by)
    }

}
