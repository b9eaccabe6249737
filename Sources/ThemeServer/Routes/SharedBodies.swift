/// A schedule as every answer and listing shows it, whatever stored it (the OpenAPI document's
/// `Schedule`): a switch of the active theme, a release, or an alias's change.
public struct ScheduleBody: Encodable, Sendable, Equatable {
    public var id: Int64
    public var theme: String
    /// RFC 3339, UTC.
    public var at: String
    /// activate, release or alias.
    public var kind: String
    /// Who stored it (a token's name, or the operator).
    public var by: String
    /// A release's content.
    public var digest: String?
    public var files: Int?
    /// The alias that changes.
    public var alias: String?

    public init(id: Int64, theme: String, at: String, kind: String, by: String, digest: String? = nil, files: Int? = nil, alias: String? = nil) {
        (self.id, self.theme, self.at, self.kind, self.by) = (id, theme, at, kind, by)
        (self.digest, self.files, self.alias) = (digest, files, alias)
    }
}

/// Where an answer came from: the theme and the file, relative to the themes folder (the
/// OpenAPI document's `Source`).
public struct SourceBody: Encodable, Sendable, Equatable {
    public var theme: String
    public var path: String
}

/// A change stored to be made at a set time (202).
public struct ScheduledAnswer: Encodable {
    public var scheduled: ScheduleBody
    public init(_ scheduled: ScheduleBody) { self.scheduled = scheduled }
}

extension ScheduledSwitch {
    var body: ScheduleBody { ScheduleBody(id: id, theme: theme, at: at, kind: "activate", by: by) }
}

extension ScheduledAliasChange {
    var body: ScheduleBody { ScheduleBody(id: id, theme: theme, at: at, kind: "alias", by: by, alias: alias) }
}
