import Audiences
import Cluster
import Foundation
import JSON
import Synchronization
import Review
import ThemeIndex
import ThemeVocabulary

/// Releases for teams over HTTP (docs/API.md, "Releases"): a token's check, a publish from an
/// uploaded file, the history, rollbacks and scheduled changes, all kept in the cluster store.
/// Each operation has a connection to the store of its own (used by one request at a time, it
/// needs no lock): one kept from an earlier operation when one is idle and still answers, else
/// a new one. Opening one costs a PostgreSQL backend and the schema check (`ClusterStore.init`),
/// which took seconds on a machine saturated by load (issue 53.4: PUT /active answered after 1-3 s).
public final class ReleaseDesk: Sendable {
    /// Why a request was refused, one case per answer it gets.
    public enum Refusal: Error, Equatable, CustomStringConvertible {
        case unauthorized(String)
        case forbidden(String)
        case tooManyAttempts(retryAfterSeconds: Int)
        case badRequest(String)
        case notFound(String)
        case tooLarge(String)
        case unsupportedMediaType(String)
        case unprocessable(String)
        /// A generation the store does not keep (as a server without a store says it).
        case generationNotKept(String)
        /// The store has moved on from what the request was made against (a draft).
        case conflict(String)
        case unavailable(String)

        public var description: String {
            switch self {
            case .unauthorized(let why), .forbidden(let why), .badRequest(let why), .notFound(let why), .tooLarge(let why),
                 .unsupportedMediaType(let why), .unprocessable(let why), .generationNotKept(let why), .conflict(let why), .unavailable(let why): why
            case .tooManyAttempts(let seconds): "too many failed token attempts from this address; try again in \(seconds) s"
            }
        }
    }

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

    let cluster: String
    /// Connections kept between operations, at most `idleLimit`.
    private let idleStores = Mutex<[ClusterStore]>([])
    static let idleLimit = 2
    /// Where uploads are unpacked and checked (each in a folder of its own, removed after).
    public let workDirectory: String
    public let retention: Int
    /// The largest body a release upload may have, and the most an archive may unpack to.
    public let maxUploadBytes: Int
    let pendingSchedules: @Sendable () -> [Schedule]
    let attempts = FailedAttempts()
    /// Publishes checked at once: each indexes its theme in a scratch index (CPU and disk).
    let checks = DispatchSemaphore(value: 2)
    /// What a diff on a replica reads of each release's images: past it, they are left out and
    /// the diff says so (`cut`).
    static let imageBytes = 64 << 20
    static let diffWaitSeconds = 10

    /// The themes this replica serves: a diffed release's parents are read from there.
    public let themesDirectory: String

    public init(cluster: String, workDirectory: String, themesDirectory: String, retention: Int = Release.defaultRetention, maxUploadBytes: Int,
                pendingSchedules: @escaping @Sendable () -> [Schedule]) {
        (self.cluster, self.workDirectory, self.themesDirectory, self.retention, self.maxUploadBytes, self.pendingSchedules) =
            (cluster, workDirectory, themesDirectory, retention, maxUploadBytes, pendingSchedules)
    }

    /// The schedules pending at the replica's last sync with the store, soonest first.
    public var scheduled: [Schedule] { pendingSchedules() }

    /// The token that `Authorization: Bearer <secret>` presents, when it may do `permission` to
    /// `theme`. A secret the store does not know counts against the client (`host`: its address,
    /// behind trusted proxies the one they forwarded); past the limit every attempt from it is
    /// refused until its window ends.
    public func authorize(_ authorization: String?, from host: String, to permission: Token.Permission, theme: String) throws(Refusal) -> Token {
        if let wait = attempts.refusal(for: host) { throw .tooManyAttempts(retryAfterSeconds: wait) }
        guard let authorization, authorization.hasPrefix("Bearer "), case let secret = String(authorization.dropFirst(7)), !secret.isEmpty else {
            throw .unauthorized("this route needs Authorization: Bearer <token> (themed token create)")
        }
        let token: Token?
        do {
            let store = try store()
            token = try store.token(forSecret: secret)
            giveBack(store)
        } catch {
            throw .unavailable("the cluster store cannot check the token: \(error)")
        }
        guard let token else {
            attempts.failed(host)
            throw .unauthorized("the token is not known (revoked, or never made)")
        }
        guard token.allows(permission, theme: theme) else {
            throw .forbidden("token \(token.name) may not \(permission.rawValue) theme \(theme)")
        }
        return token
    }

    /// Checks the uploaded body (a .car, or a theme folder as a tar) exactly as `themed publish`
    /// does and stores it as the theme's next release, or, with `at`, as a release that becomes
    /// current then, or with `rollout`, as a release sent to that percentage of clients first;
    /// with `draft`, or when the theme's policy requires approval, as a draft that waits for its
    /// reviewers. Nothing is stored when anything fails.
    public func publish(theme: String, body: String, kind: BodyKind, by token: Token, at: String? = nil, rollout: Double? = nil,
                        draft: Bool = false) throws(Refusal) -> Outcome {
        guard Release.isPublishable(theme: theme) else { throw .badRequest("\"\(theme)\" is not a theme name a release may take: \(Release.publishableRule)") }
        if let at, !Schedule.isTime(at) { throw .badRequest("at must be an RFC 3339 time with a zone, like 2026-12-01T00:00:00Z") }
        return try withCheckedUpload(body, kind: kind, theme: theme) { files, scratch, store in
            let read: (Int) throws -> [UInt8] = { try ThemeCheck.contents(of: files[$0]) }
            if try draft || store.requiredApprovals(of: theme) > 0 {
                let review = try self.review(files, of: theme, in: store, scratch: scratch)
                return .drafted(try store.createDraft(theme: theme, paths: files.map(\.path), by: token.name, at: at, rollout: rollout,
                                                      review: review, contents: read))
            }
            if let at {
                return .scheduled(try store.schedule(theme: theme, paths: files.map(\.path), at: at, by: token.name, contents: read))
            }
            let generation = try store.publish(theme: theme, paths: files.map(\.path), by: token.name, keep: retention, rollout: rollout, contents: read)
            return .published(try Self.entry(generation, of: theme, in: store))
        }
    }

    /// `body` with the upload's checked files, the scratch folder they are in, and a store
    /// connection; at most two checks at once (each indexes the theme in a scratch index).
    func withCheckedUpload<Result>(_ upload: String, kind: BodyKind, theme: String,
                                   _ body: ([ThemeCheck.File], String, ClusterStore) throws -> Result) throws(Refusal) -> Result {
        checks.wait()
        defer { checks.signal() }
        let scratch = "\(workDirectory)/release-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let files = try checkedFiles(of: upload, kind: kind, theme: theme, in: scratch)
        return try withStore { try body(files, scratch, $0) }
    }

    /// The files of an upload, checked as `themed publish` checks them (the parent chain against
    /// the themes the release joins); an archive is unpacked into `scratch` first.
    private func checkedFiles(of body: String, kind: BodyKind, theme: String, in scratch: String) throws(Refusal) -> [ThemeCheck.File] {
        let parents = try withStore { try $0.themeParents() }
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
        return review.webhookDetails(from: from, to: to, limit: limit)
    }

    /// A new release with the content of a kept earlier generation.
    public func rollback(theme: String, to generation: Generation, by token: Token) throws(Refusal) -> ReleaseEntry {
        try withStore { store in
            let made = try store.rollback(theme: theme, to: generation, by: token.name, keep: retention)
            return try Self.entry(made, of: theme, in: store)
        }
    }

    /// Switches the active theme for every replica now; returns the switch's generation.
    public func activate(_ theme: String, by actor: String) throws(Refusal) -> Generation {
        try withStore { try $0.setActive(theme, by: actor) }
    }

    /// Stores a switch of the active theme at `at`.
    public func schedule(activating theme: String, at: String, by actor: String) throws(Refusal) -> Schedule {
        try withStore { try $0.schedule(activating: theme, at: at, by: actor) }
    }

    /// Cancels a pending schedule.
    public func cancel(_ id: Int64, by actor: String) throws(Refusal) -> Schedule {
        try withStore { try $0.cancelSchedule(id, by: actor) }
    }

    /// Keeps an alias for every replica; returns the change's generation.
    public func putAlias(_ alias: Alias, by actor: String) throws(Refusal) -> Generation {
        try withStore { try $0.putAlias(alias, by: actor) }
    }

    /// Stores a change of an alias at `at`.
    public func schedule(alias: Alias, at: String, by actor: String) throws(Refusal) -> Schedule {
        try withStore { try $0.schedule(alias: alias, at: at, by: actor) }
    }

    /// Forgets an alias; nil when there was none.
    public func removeAlias(_ name: String, by actor: String) throws(Refusal) -> Generation? {
        try withStore { try $0.removeAlias(name, by: actor) }
    }

    /// Starts, moves, halts (0) or completes (100) the theme's rollout.
    public func setRollout(theme: String, generation: Generation, percent: Double, by actor: String) throws(Refusal) -> (rollout: Rollout?, generation: Generation) {
        try withStore { try $0.setRollout(theme: theme, generation: generation, percent: percent, by: actor) }
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

    /// A kept connection that still answers, or a new one.
    private func store() throws -> ClusterStore {
        while let kept = idleStores.withLock({ $0.popLast() }) {
            if kept.isAlive { return kept }
        }
        return try ClusterStore(url: cluster)
    }

    /// Keeps `store` for the next operation (one that failed talking to the store is not given back).
    private func giveBack(_ store: ClusterStore) {
        idleStores.withLock { if $0.count < Self.idleLimit { $0.append(store) } }
    }

    /// Runs `body` on a connection of its own, turning the store's errors into refusals.
    func withStore<Result>(_ body: (ClusterStore) throws -> Result) throws(Refusal) -> Result {
        do {
            let store = try store()
            do {
                let result = try body(store)
                giveBack(store)
                return result
            } catch let error as ClusterError {
                // The store answered: the connection is fine.
                giveBack(store)
                throw error
            }
        } catch let error as ClusterError {
            switch error {
            case .noSuchRelease, .noSuchSchedule, .noSuchTheme, .noSuchDraft: throw .notFound(error.description)
            case .draftClosed, .movedOn: throw .conflict(error.description)
            case .ownDraft: throw .forbidden(error.description)
            case .generationNotKept: throw .generationNotKept(error.description)
            case .badRollout: throw .unprocessable(error.description)
            case .tooLarge: throw .tooLarge(error.description)
            case .unpublishableName, .unsafeName, .badTime: throw .badRequest(error.description)
            case .badRelease, .missingBlob, .corruptBlob, .badToken, .inherited: throw .unprocessable(error.description)
            }
        } catch let error as PostgresError {
            throw .unavailable("the cluster store did not take it: \(error)")
        } catch {
            throw .unprocessable("\(error)")
        }
    }

    private static func entry(_ generation: Generation, of theme: String, in store: ClusterStore) throws -> ReleaseEntry {
        guard let entry = try store.history(of: theme).first(where: { $0.generation == generation }) else {
            throw ClusterError.noSuchRelease(theme, generation)
        }
        return entry
    }
}

/// Failed token attempts per client address: past `limit` in a window, the address is refused
/// until the window ends. The table is bounded: at its size, windows that have ended go first.
final class FailedAttempts: Sendable {
    static let limit = 10
    static let window: Duration = .seconds(60)
    static let capacity = 10_000

    private let table = Mutex<[String: (count: Int, started: ContinuousClock.Instant)]>([:])

    /// Seconds to wait when the address is past the limit; nil when it may try.
    func refusal(for host: String) -> Int? {
        table.withLock { table in
            guard let entry = table[host] else { return nil }
            let elapsed = ContinuousClock.now - entry.started
            if elapsed >= Self.window {
                table[host] = nil
                return nil
            }
            return entry.count >= Self.limit ? Int((Self.window - elapsed).components.seconds) + 1 : nil
        }
    }

    func failed(_ host: String) {
        table.withLock { table in
            let now = ContinuousClock.now
            if table.count >= Self.capacity {
                table = table.filter { now - $0.value.started < Self.window }
                if table.count >= Self.capacity, let oldest = table.min(by: { $0.value.started < $1.value.started }) { table[oldest.key] = nil }
            }
            if let entry = table[host], now - entry.started < Self.window {
                table[host] = (entry.count + 1, entry.started)
            } else {
                table[host] = (1, now)
            }
        }
    }
}
