import Cluster
import Foundation
import JSON
import Review
import ThemeServer
import ThemeIndex
import ThemeVocabulary

/// Releases for teams over HTTP (docs/API.md, "Releases"): a publish from an uploaded file,
/// drafts and their approvals, the history and diffs, rollbacks and scheduled releases, all kept
/// in the cluster store (through `connections`; the routes check tokens with `tokens`).
public final class ReleaseDesk: Sendable {
    /// What a publish became: a release now, or a schedule that makes it current later.
    public enum Outcome: Sendable {
        case published(ReleaseEntry)
        case scheduled(Schedule)
        /// Stored for review (asked for, or the theme's policy requires approval): nothing served.
        case drafted(Draft)
    }

    /// The body's kind, by its Content-Type.
    public enum BodyKind: Sendable {
        case catalog
        case archive

        public init?(contentType: String?) {
            let media = contentType?.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            switch media {
            case "application/octet-stream", "application/vnd.apple.car": self = .catalog
            case "application/x-tar", "application/tar", "application/gzip", "application/x-gzip", "application/x-compressed-tar",
                 "application/tar+gzip": self = .archive
            default: return nil
            }
        }
    }

    public let connections: StoreConnections
    public let tokens: TokenCheck
    /// Where uploads are unpacked and checked (each in a folder of its own, removed after).
    public let workDirectory: String
    public let retention: Int
    /// The largest body a release upload may have, and the most an archive may unpack to.
    public let maxUploadBytes: Int
    let pendingSchedules: @Sendable () -> [Schedule]
    /// Publishes checked at once: each indexes its theme in a scratch index (CPU and disk).
    let checks = DispatchSemaphore(value: 2)
    /// What a diff on a replica reads of each release's images: past it, they are left out and
    /// the diff says so (`cut`).
    static let imageBytes = 64 << 20
    static let diffWaitSeconds = 10

    /// The themes this replica serves: a diffed release's parents are read from there.
    public let themesDirectory: String

    public init(connections: StoreConnections, tokens: TokenCheck, workDirectory: String, themesDirectory: String,
                retention: Int = Release.defaultRetention, maxUploadBytes: Int, pendingSchedules: @escaping @Sendable () -> [Schedule]) {
        (self.connections, self.tokens, self.workDirectory, self.themesDirectory) = (connections, tokens, workDirectory, themesDirectory)
        (self.retention, self.maxUploadBytes, self.pendingSchedules) = (retention, maxUploadBytes, pendingSchedules)
    }

    /// Runs `body` on a store connection of its own (`StoreConnections.withStore`).
    func withStore<Result>(_ body: (ClusterStore) throws -> Result) throws(Refusal) -> Result {
        try connections.withStore(body)
    }

    /// Waits until every ready replica serves `generation` (`StoreConnections.awaitServed`).
    public func awaitServed(_ generation: Generation, _ wait: ServedWait?) throws(Refusal) -> ReplicaReport? {
        try connections.awaitServed(generation, wait)
    }

    /// The schedules pending at the replica's last sync with the store, soonest first.
    public var scheduled: [Schedule] { pendingSchedules() }

    /// Checks the uploaded body (a .car, or a theme folder as a tar) exactly as `themed publish`
    /// does and stores it as the theme's next release, or, with `at`, as a release that becomes
    /// current then, or with `rollout`, as a release sent to that percentage of clients first;
    /// with `draft`, or when the theme's policy requires approval, as a draft that waits for its
    /// reviewers. Nothing is stored when anything fails.
    public func publish(theme: String, body: String, kind: BodyKind, by token: Token, at: String? = nil, rollout: Double? = nil,
                        draft: Bool = false) throws(Refusal) -> Outcome {
        guard Release.isPublishable(theme: theme) else { throw .badRequest("\"\(theme)\" is not a theme name a release may take: \(Release.publishableRule)") }
        if let at, !Schedule.isTime(at) { throw .badRequest("at must be an RFC 3339 time with a zone, like 2026-12-01T00:00:00Z") }
        return try withCheckedUpload(body, kind: kind, theme: theme) { upload, store in
            let files = upload.files
            let read: (Int) throws -> [UInt8] = { try ThemeCheck.contents(of: files[$0]) }
            if try draft || store.requiredApprovals(of: theme) > 0 {
                let review = try self.review(files, of: theme, in: store, scratch: upload.scratch)
                return .drafted(try store.createDraft(theme: theme, paths: files.map(\.path), by: token.name, at: at, rollout: rollout,
                                                      review: review, contents: read))
            }
            if let at {
                return .scheduled(try store.schedule(theme: theme, paths: files.map(\.path), at: at, by: token.name, contents: read))
            }
            let generation = try store.publish(theme: theme, paths: files.map(\.path), by: token.name, keep: retention, rollout: rollout,
                                               held: upload.held, contents: read)
            return .published(try Self.entry(generation, of: theme, in: store))
        }
    }

    /// An upload checked as `themed publish` checks it.
    struct CheckedUpload {
        var files: [ThemeCheck.File]
        /// The folder the files are in (an archive's, unpacked), removed after.
        var scratch: String
        /// The contents the store's current releases use, read with their parents for the check:
        /// a publish need not send them (nor ask about them) again.
        var held: Set<String>
    }

    /// `body` with the checked upload and a store connection; at most two checks at once (each
    /// indexes the theme in a scratch index).
    func withCheckedUpload<Result>(_ upload: String, kind: BodyKind, theme: String,
                                   _ body: (CheckedUpload, ClusterStore) throws -> Result) throws(Refusal) -> Result {
        checks.wait()
        defer { checks.signal() }
        let scratch = "\(workDirectory)/release-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let current = try withStore { try $0.currentReleases(publishing: theme) }
        let files = try checkedFiles(of: upload, kind: kind, theme: theme, in: scratch, parents: current.parents)
        return try withStore { try body(CheckedUpload(files: files, scratch: scratch, held: current.contents), $0) }
    }

    /// The files of an upload, checked as `themed publish` checks them (the parent chain against
    /// `parents`, the themes the release joins); an archive is unpacked into `scratch` first.
    private func checkedFiles(of body: String, kind: BodyKind, theme: String, in scratch: String,
                              parents: [String: String?]) throws(Refusal) -> [ThemeCheck.File] {
        do {
            switch kind {
            case .catalog:
                return try ThemeCheck.files(of: body, theme: theme, name: "Assets.car", parents: .alsoAmong(parents))
            case .archive:
                let folder = "\(scratch)/\(theme)"
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
                try ReleaseArchive.unpack(body, into: folder, limits: .init(totalBytes: maxUploadBytes))
                return try ThemeCheck.files(of: folder, theme: theme, parents: .alsoAmong(parents))
            }
        } catch let error as ReleaseArchive.Refused {
            throw error.tooLarge ? .tooLarge(error.description) : .unprocessable(error.description)
        } catch let error as ThemeCheck.Refused {
            throw .unprocessable(error.description)
        } catch {
            throw .unprocessable("\(error)")
        }
    }

    /// The theme's kept releases, newest first.
    public func history(of theme: String) throws(Refusal) -> [ReleaseEntry] {
        try withStore { try $0.history(of: theme) }
    }

    /// What release `to` of `theme` changes against release `from`: by default the newest release
    /// that is not a retirement, against the one before it. Each is written to a scratch folder
    /// and read as a sync reads it, with the parents this replica serves.
    public func diff(theme: String, from: Generation?, to: Generation?) throws(Refusal) -> (from: Generation, to: Generation, review: ThemeReview) {
        let scratch = "\(workDirectory)/diff-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        // Reading a release indexes it, as a publish's check does: two at once at most, and a
        // diff that cannot start within seconds is refused rather than kept waiting.
        guard checks.wait(timeout: .now() + .seconds(Self.diffWaitSeconds)) == .success else {
            throw .unavailable("the replica is busy checking releases; ask again")
        }
        defer { checks.signal() }
        let (older, newer) = try withStore { store -> (Generation, Generation) in
            let kept = try store.history(of: theme).filter { !$0.retired }
            guard let newer = to ?? kept.first?.generation else { throw ClusterError.noSuchTheme(theme) }
            guard let older = from ?? kept.first(where: { $0.generation < newer })?.generation else {
                throw ClusterError.noSuchRelease(theme, newer - 1)
            }
            for (generation, side) in [(older, "before"), (newer, "after")] {
                guard let release = try store.release(of: theme, generation: generation), !release.retired else {
                    throw ClusterError.noSuchRelease(theme, generation)
                }
                try Materializer(themesDirectory: "\(scratch)/\(side)").materialize(release) { try store.blob($0) }
            }
            return (older, newer)
        }
        do {
            let before = try ThemeSnapshot(reading: "\(scratch)/before/\(theme)", parentsIn: themesDirectory, imageBytes: Self.imageBytes)
            let after = try ThemeSnapshot(reading: "\(scratch)/after/\(theme)", parentsIn: themesDirectory, imageBytes: Self.imageBytes)
            return (older, newer, ThemeReview(from: before, to: after))
        } catch {
            throw .unprocessable("release \(older) or \(newer) of \(theme) cannot be read: \(error)")
        }
    }

    /// What a webhook message of a release carries (`"diff"`): the release against the one before
    /// it, as counts and its first `limit` changes (the lines `themed diff` prints); nil for a
    /// theme's first release, or when it cannot be read.
    public func diffDetails(theme: String, generation: Generation, limit: Int = 10) -> JSONValue? {
        guard let (from, to, review) = try? diff(theme: theme, from: nil, to: generation) else { return nil }
        return try? JSONValueEncoder().encode(review.webhookDetails(from: from, to: to, limit: limit))
    }

    /// A new release with the content of a kept earlier generation.
    public func rollback(theme: String, to generation: Generation, by token: Token) throws(Refusal) -> ReleaseEntry {
        try withStore { store in
            let made = try store.rollback(theme: theme, to: generation, by: token.name, keep: retention)
            return try Self.entry(made, of: theme, in: store)
        }
    }

    /// Cancels a pending schedule.
    public func cancel(_ id: Int64, by actor: String) throws(Refusal) -> Schedule {
        try withStore { try $0.cancelSchedule(id, by: actor) }
    }

    /// The audit trail's newest lines (of `theme`, since `since`), newest first.
    public func audit(theme: String?, since: String?, limit: Int) throws(Refusal) -> [AuditEntry] {
        try withStore { try $0.auditTrail(theme: theme, since: since, limit: limit) }
    }

    /// A pending schedule by id, from the replica's last sync (for checking a token's scope
    /// before cancelling).
    public func pending(_ id: Int64) -> Schedule? {
        scheduled.first { $0.id == id }
    }

    private static func entry(_ generation: Generation, of theme: String, in store: ClusterStore) throws -> ReleaseEntry {
        guard let entry = try store.history(of: theme).first(where: { $0.generation == generation }) else {
            throw ClusterError.noSuchRelease(theme, generation)
        }
        return entry
    }
}
