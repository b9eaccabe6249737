import Cluster
import Foundation
import JSON
import Review
import ThemeVocabulary

/// Drafts: a release stored for review with what it changes, approved by reviewers other than
/// its publisher, then published as it asked (`ClusterStore`'s drafts).
extension ReleaseDesk {
    /// What a draft's files change against the theme's newest release (`ThemeReview`'s JSON with
    /// `from`), read as a sync reads them; '' for a theme's first release.
    func review(_ files: [ThemeCheck.File], of theme: String, in store: ClusterStore, scratch: String) throws -> String {
        guard let live = try store.history(of: theme).first(where: { !$0.retired }),
              let release = try store.release(of: theme, generation: live.generation) else { return "" }
        try Materializer(themesDirectory: "\(scratch)/review-before").materialize(release) { try store.blob($0) }
        let after = "\(scratch)/review-after/\(theme)"
        for file in files {
            let target = "\(after)/\(file.path)"
            try FileManager.default.createDirectory(atPath: FilePaths.folder(of: target), withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: file.location, toPath: target)
        }
        let review = ThemeReview(from: try ThemeSnapshot(reading: "\(scratch)/review-before/\(theme)", parentsIn: themesDirectory, imageBytes: Self.imageBytes),
                                 to: try ThemeSnapshot(reading: after, parentsIn: themesDirectory, imageBytes: Self.imageBytes))
        return try JSONValueEncoder().encode(Joined(ReviewBase(from: live.generation), review)).serialized()
    }

    /// A draft of `theme` posted again: checked, reviewed against what is live now, and its
    /// approvals voided.
    public func replaceDraft(_ id: Int64, of theme: String, body: String, kind: BodyKind, by token: Token) throws(Refusal) -> Draft {
        try withCheckedUpload(body, kind: kind, theme: theme) { upload, store in
            let files = upload.files
            return try store.replaceDraft(id, paths: files.map(\.path), by: token.name, review: try self.review(files, of: theme, in: store, scratch: upload.scratch)) {
                try ThemeCheck.contents(of: files[$0])
            }
        }
    }

    /// An approval of a draft by `token` (its theme's `review` permission checked by the caller);
    /// the last of the `required` ones (the theme's policy, as the caller read it) publishes it.
    public func approve(_ id: Int64, by token: Token, required: Int) throws(Refusal) -> ApprovalOutcome {
        try withStore { try $0.approveDraft(id, by: token.name, required: required, keep: retention) }
    }

    /// A draft by id, with the approvals its theme requires.
    public func draft(_ id: Int64) throws(Refusal) -> Draft {
        try withStore { try $0.draft(id) }
    }

    /// The approvals a theme's releases need.
    public func requiredApprovals(of theme: String) throws(Refusal) -> Int {
        try withStore { try $0.requiredApprovals(of: theme) }
    }

    /// The theme's open drafts, oldest first.
    public func drafts(of theme: String) throws(Refusal) -> [Draft] {
        try withStore { try $0.openDrafts(of: theme) }
    }
}

/// The release a draft's review compares against, beside the review's members.
private struct ReviewBase: Encodable {
    var from: Generation
}
