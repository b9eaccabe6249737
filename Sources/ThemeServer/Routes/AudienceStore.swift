import Audiences
import HTTPServer
import JSON

/// Where aliases and rollouts are kept for every replica: a cluster store, through Releases'
/// `ClusterAudiences`, which `themed serve` hands to `ThemeService` (as it hands the
/// `ActiveThemeStore`). Without one, aliases are kept in this server's index (`AliasBook`) and
/// rollouts answer 409.
public protocol AudienceStore: Sendable {
    /// Assignments as this replica answers them now: the store's aliases (and `current`, the
    /// active theme), its rollouts, and the generation each theme serves here. Made once per
    /// change, read by every `/assign`.
    var assigner: Assigner { get }

    /// The folder (a theme of the library) that answers `theme`'s `generation` here: the
    /// theme's own when it serves it, the one kept beside it for a rollout or a pin, else nil.
    func folder(of theme: String, generation: Int) -> String?

    /// Alias changes waiting for their time, as `GET /aliases` lists them.
    var scheduledAliasChanges: [JSONValue] { get }

    /// The changes, answered off the event loop once this replica follows them: the client's
    /// token checked (permission `rollout` on every theme concerned) unless `byOperator`.
    func putAlias(_ alias: Alias, at: String?, request: Request, byOperator: Bool) -> Response
    func removeAlias(_ name: String, request: Request, byOperator: Bool) -> Response
    func setRollout(theme: String, generation: Int, percent: Double, request: Request, byOperator: Bool) -> Response
}
