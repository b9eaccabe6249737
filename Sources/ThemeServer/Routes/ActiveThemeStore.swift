import HTTPServer
import JSON

/// Where the active theme is kept for every replica, with its schedules and teams' tokens: a
/// cluster store, through Releases' `ReleaseRoutes`, which `themed serve` hands to `ThemeService`.
/// Without one, `PUT /active` switches this server's library alone and a schedule (`"at"`) is 409.
public protocol ActiveThemeStore: Sendable {
    /// Switches waiting for their time, as `GET /active` lists them.
    var scheduledSwitches: [JSONValue] { get }

    /// `PUT /active` through the store, answered off the event loop (a round trip to the store
    /// must not hold up the loop's other connections): the client's token checked unless
    /// `byOperator` (the admin routes checked the operator's token or loopback), then the switch
    /// scheduled `at` (202) or made now, `switched` called with its generation.
    func setActive(_ theme: String, at: String?, request: Request, byOperator: Bool,
                   switched: @escaping @Sendable (_ generation: Int) -> Void) -> Response
}
