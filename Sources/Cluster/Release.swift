import Hashing
import ThemeVocabulary

/// One published generation of a theme: its files by content hash, or its retirement.
public struct Release: Sendable, Equatable {
    public struct File: Sendable, Equatable {
        /// Relative to the theme's folder (`Theme.xcassets/primary.colorset/Contents.json`).
        public var path: String
        /// SHA-256 of the bytes, lower-case hex: the blob's name in the store.
        public var hash: String
        public var size: Int

        public init(path: String, hash: String, size: Int) {
            (self.path, self.hash, self.size) = (path, hash, size)
        }
    }

    public var theme: String
    /// Increases with every publish and retire, across all themes.
    public var generation: Generation
    public var files: [File]
    public var retired: Bool

    public init(theme: String, generation: Generation, files: [File], retired: Bool) {
        (self.theme, self.generation, self.files, self.retired) = (theme, generation, files, retired)
    }

    /// Limits on what a release may hold, checked when it is published and when a replica reads
    /// it: a store is shared, and what it holds is not trusted more than a dropped file.
    public static let maximumFiles = 100_000
    public static let maximumFileBytes = 1 << 30
    /// Releases kept per theme unless a setting says otherwise (`releaseRetention`).
    public static let defaultRetention = 20
    /// Who a change is recorded as made by when it comes from an operator's command or the
    /// server's own `activeToken`, not a team's token.
    public static let operatorName = "operator"

    /// What `publish` refuses before anything is stored: a theme name a release may not take,
    /// an unsafe path, too many files.
    static func check(theme: String, paths: [String]) throws(ClusterError) {
        guard isPublishable(theme: theme) else { throw .unpublishableName(theme) }
        for path in paths where !isSafe(path: path) { throw .unsafeName(path) }
        guard paths.count <= maximumFiles else { throw .tooLarge("\(paths.count) files, more than \(maximumFiles)") }
    }

    /// SHA-256 of the manifest: names a release's content (two releases with the same files have
    /// the same digest).
    public var digest: String { ContentHash.of(Array(manifest.utf8)).hex }

    /// The hash of the release's theme.json, if it has one: kept beside the manifest (the
    /// `settings` column), so the store finds each theme's parent without reading manifests.
    var settingsHash: String? { files.first { $0.path == ThemeSettings.fileName }?.hash }

    /// The manifest as stored: one `hash size path` line per file, in path order.
    var manifest: String {
        files.sorted { $0.path < $1.path }.map { "\($0.hash) \($0.size) \($0.path)\n" }.joined()
    }

    /// A regular expression (PostgreSQL's) whose first capturing group, matched against a
    /// manifest, is the hash of the file at `path`: what the store's own queries use to find one
    /// file's blob without the release read out first.
    static func hashPattern(ofFile path: String) -> String {
        let escaped = path.unicodeScalars.map { "\\^$.|?*+()[]{}".unicodeScalars.contains($0) ? "\\\($0)" : "\($0)" }.joined()
        return "(?:^|\\n)([0-9a-f]{64}) [0-9]+ \(escaped)(?:\\n|$)"
    }

    static func files(fromManifest text: String) throws(ClusterError) -> [File] {
        let lines = text.split(separator: "\n")
        guard lines.count <= maximumFiles else { throw .badRelease("\(lines.count) files, more than \(maximumFiles)") }
        return try lines.map { line throws(ClusterError) -> File in
            let parts = line.split(separator: " ", maxSplits: 2).map(String.init)
            guard parts.count == 3, Digest(hex: parts[0]) != nil, let size = Int(parts[1]), (0...maximumFileBytes).contains(size), Self.isSafe(path: parts[2]) else {
                throw .badRelease("manifest line \"\(line.prefix(200))\"")
            }
            return File(path: parts[2], hash: parts[0], size: size)
        }
    }

    /// A path a release may write: relative, inside the theme's folder, no control characters.
    public static func isSafe(path: String) -> Bool {
        let components = path.split(separator: "/", omittingEmptySubsequences: false)
        return !path.isEmpty && !path.hasPrefix("/") && path.utf8.count <= 1024
            && components.allSatisfy { !$0.isEmpty && $0 != "." && $0 != ".." }
            && !path.unicodeScalars.contains { $0.properties.generalCategory == .control }
    }

    /// A theme name a replica may write: a single folder name that is not hidden.
    public static func isSafe(theme: String) -> Bool {
        isSafe(path: theme) && !theme.contains("/") && !theme.hasPrefix(".") && theme.utf8.count <= 255
    }

    /// A theme name a new release may take: one a URL path segment carries as it is (RFC 3986's
    /// unreserved characters: letters, digits, `-`, `.`, `_`, `~`), so that every client, cache key
    /// and `Surrogate-Key` (space-separated) names it the same way; not hidden, and not `current`,
    /// which the API keeps for the active theme. Releases stored before this rule stay readable.
    public static func isPublishable(theme: String) -> Bool {
        isSafe(theme: theme) && theme != "current" && consistsOfNameBytes(theme, besides: "-._~")
    }

    /// Whether `text` is ASCII letters and digits and the characters of `others` only (the rule of
    /// theme names and token names, which differ in the punctuation they allow).
    static func consistsOfNameBytes(_ text: String, besides others: String) -> Bool {
        let extra = Array(others.utf8)
        return text.utf8.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || extra.contains(byte)
        }
    }

    /// Why `isPublishable` refuses a name, in words for the publisher.
    public static let publishableRule = "letters, digits, '-', '.', '_' and '~' only (what a URL segment carries as it is), not starting with '.', at most 255 bytes, and not 'current'"
}

public enum ClusterError: Error, Equatable, CustomStringConvertible {
    case badRelease(String)
    case missingBlob(String)
    case corruptBlob(String)
    case unsafeName(String)
    case unpublishableName(String)
    case tooLarge(String)
    /// A file whose bytes differed when they were read again to be sent (something wrote it meanwhile).
    case changedWhilePublished(String)
    case noSuchRelease(String, Generation)
    case noSuchSchedule(Int64)
    case badToken(String)
    case badTime(String)
    /// Retiring a theme other themes inherit from (they are named).
    case inherited(String, by: [String])
    /// An alias or a rollout names a theme the store has no current release of.
    case noSuchTheme(String)
    /// An alias or a rollout names a generation the store does not keep (past retention, retired, never made).
    case generationNotKept(String, Generation)
    case badRollout(String)
    case noSuchDraft(Int64)
    /// A draft that is no longer open (published, or scheduled), by id.
    case draftClosed(Int64)
    /// An approval by the draft's own publisher.
    case ownDraft(Int64, String)
    /// A draft approved after its theme moved on: the release that moved it.
    case movedOn(draft: Int64, theme: String, base: Generation, newest: Generation)

    public var description: String {
        switch self {
        case .badRelease(let what): "a release the store holds is malformed: \(what)"
        case .missingBlob(let hash): "the store has no blob \(hash)"
        case .corruptBlob(let hash): "blob \(hash) does not match its hash"
        case .unsafeName(let name): "\"\(name)\" is not a theme or file name a release may use"
        case .unpublishableName(let name): "\"\(name)\" is not a theme name a release may take: \(Release.publishableRule)"
        case .tooLarge(let what): "a release may not hold this much: \(what)"
        case .changedWhilePublished(let path): "\(path) changed while it was being published; nothing was stored, publish it again"
        case .noSuchRelease(let theme, let generation): "\(theme) has no kept release of generation \(generation)"
        case .noSuchSchedule(let id): "no pending schedule \(id)"
        case .badToken(let why): why
        case .badTime(let text): "\"\(text.prefix(64))\" is not an RFC 3339 time with a zone, like 2026-12-01T00:00:00Z"
        case .noSuchTheme(let theme): "the cluster store has no current release of \(theme)"
        case .generationNotKept(let theme, let generation): "generation \(generation) of \(theme) is not kept (past retention, retired, or never made)"
        case .badRollout(let why): why
        case .noSuchDraft(let id): "no draft \(id)"
        case .draftClosed(let id): "draft \(id) was already published"
        case .ownDraft(let id, let publisher): "draft \(id) was made by \(publisher), who may not approve it: another reviewer must"
        case .movedOn(let id, let theme, let base, let newest):
            "draft \(id) was made against \(theme)'s release \(base == 0 ? "(none)" : "\(base)"), but release \(newest) has moved it on since: "
                + "post the draft's content again to review it against what is live"
        case .inherited(let theme, let children):
            "\(theme) cannot be retired: \(children.joined(separator: ", ")) \(children.count == 1 ? "inherits" : "inherit") from it "
                + "(publish \(children.count == 1 ? "it" : "them") with another parent, or retire \(children.count == 1 ? "it" : "them"), first)"
        }
    }
}
