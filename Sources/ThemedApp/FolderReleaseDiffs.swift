import Foundation
import JSON
import Review
import Synchronization
import ThemeIndex
import ThemeVocabulary

/// In folder mode a release is an edit of a theme's folder, and the index keeps no earlier
/// version to compare it with: each reload's changed themes are read twice, through a reader
/// pinned to the index as it was before the reload and through the index now, and their review
/// is kept for the release-published webhook message of that reload (`details`). Images are not
/// compared (the pinned index names their bytes, which the content store may have let go).
final class FolderReleaseDiffs: Sendable {
    let themesDirectory: String
    /// The newest reviews, by theme and the generation the reload gave it.
    private let kept = Mutex<[(theme: String, generation: Generation, details: JSONValue)]>([])
    static let keptReviews = 64

    init(themesDirectory: String) { self.themesDirectory = themesDirectory }

    /// `ThemeServiceConfiguration.reloadObserver`: a review of each theme the reload changed
    /// (not one it added, which has nothing before it).
    func reloaded(_ report: SyncReport, before: IndexReader, after: IndexReader) {
        for name in report.changedThemes where !report.addedThemes.contains(name) && ThemeName.pin(in: name) == nil {
            // theme.json as it is now: its contrast pairs judge both sides.
            let settings = (try? ThemeSettings(inheritingAt: "\(themesDirectory)/\(name)")) ?? ThemeSettings()
            guard let old = try? ThemeSnapshot(reading: before, theme: name, settings: settings),
                  let new = try? ThemeSnapshot(reading: after, theme: name, settings: settings),
                  let details = try? JSONValueEncoder().encode(ThemeReview(from: old, to: new).webhookDetails(from: old.info.generation, to: new.info.generation))
            else { continue }
            kept.withLock { kept in
                kept.append((name, new.info.generation, details))
                if kept.count > Self.keptReviews { kept.removeFirst(kept.count - Self.keptReviews) }
            }
        }
    }

    /// `WebhookDispatcher`'s details: the review of the reload a release-published message tells.
    func details(type: String, data: JSONValue) -> (key: String, value: JSONValue)? {
        guard type == "release-published", case .string(let theme)? = data["theme"], case .int(let generation)? = data["generation"] else { return nil }
        return kept.withLock { kept in kept.last { $0.theme == theme && $0.generation == generation } }.map { ("diff", $0.details) }
    }
}
