import Foundation

/// scripts/webhook-receiver.py on a port: a webhook subscriber that verifies every message with
/// PyPI's `standardwebhooks` and appends what it got to a file, one JSON object a line.
public final class WebhookReceiver {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("scripts/webhook-receiver.py").path

    let process = Process()
    public let out: String

    public init(port: Int, secret: String, out: String) throws {
        self.out = out
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Self.script, String(port), secret, out]
        (process.standardOutput, process.standardError) = (FileHandle.nullDevice, FileHandle.nullDevice)
        try process.run()
        // Listening once a connection is taken.
        _ = waitUntil(10) { (try? HTTP.get("/", port: port)) != nil }
    }

    /// Whether it answers every message 503 and keeps none (down, but holding its port).
    public var isDown: Bool {
        get { FileManager.default.fileExists(atPath: out + ".down") }
        set {
            if newValue { FileManager.default.createFile(atPath: out + ".down", contents: nil) } else { try? FileManager.default.removeItem(atPath: out + ".down") }
        }
    }

    /// The messages answered 503 while it was down (each try counts).
    public var refusedCount: Int {
        ((try? String(contentsOfFile: out + ".refused", encoding: .utf8)) ?? "").split(separator: "\n").count
    }

    /// Killed, as a crash or an unplugged host would stop it (and the test process may be
    /// ignoring SIGTERM, which a child inherits).
    public func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    deinit { stop() }

    /// What it received, waited for until `done` holds (or `seconds`).
    public func records(waitingUpTo seconds: Double = 10, until done: ([[String: Any]]) -> Bool) -> [[String: Any]] {
        var found: [[String: Any]] = []
        _ = waitUntil(seconds) {
            let text = (try? String(contentsOfFile: out, encoding: .utf8)) ?? ""
            found = text.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
            return done(found)
        }
        return found
    }

    /// Whether `records` hold a verified message of `type` about `theme`.
    public static func delivered(_ records: [[String: Any]], _ type: String, theme: String) -> Bool {
        records.contains { $0["type"] as? String == type && $0["verified"] as? Bool == true && ($0["data"] as? [String: Any])?["theme"] as? String == theme }
    }
}
