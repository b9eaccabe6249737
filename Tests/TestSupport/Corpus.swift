import Foundation

/// The shared corpus of real catalogs (`../shared/corpus` beside the repository), when present.
public enum Corpus {
    /// The folder of `.car` files, or nil (tests then skip with a printed message).
    public static let carDirectory: URL? = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() } // Tests/TestSupport/Corpus.swift -> repo root
        let candidates = [ProcessInfo.processInfo.environment["THEMED_CORPUS"].map { URL(fileURLWithPath: $0) },
                          url.deletingLastPathComponent().appendingPathComponent("shared/corpus")]
        for case let candidate? in candidates {
            let cars = candidate.appendingPathComponent("car")
            if FileManager.default.fileExists(atPath: cars.path) { return cars }
        }
        return nil
    }()

    /// The catalogs' file names, sorted; empty when the corpus is absent.
    public static var catalogNames: [String] {
        guard let directory = carDirectory,
              let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return [] }
        return names.filter { $0.hasSuffix(".car") }.sorted()
    }

    public static func path(_ name: String) -> String {
        carDirectory?.appendingPathComponent(name).path ?? name
    }

    /// The oracle scanner's summary of a catalog.
    public static func scan(_ name: String) -> [String: Any]? {
        guard let directory = carDirectory?.deletingLastPathComponent().appendingPathComponent("scan"),
              let data = FileManager.default.contents(atPath: directory.appendingPathComponent(name + ".json").path) else { return nil }
        return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
    }
}
