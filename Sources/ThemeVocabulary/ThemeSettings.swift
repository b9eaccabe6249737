import Foundation

/// A theme's own settings: the `theme.json` beside its sources.
///
/// Read strictly, because a slip here changes what a brand serves without a word: an unknown key
/// is refused naming the nearest known one, and a value of the wrong kind is refused naming its
/// key. Whoever reads a theme (the index, a release check, a cluster replica) reads it here.
public struct ThemeSettings: Sendable, Equatable {
    public static let fileName = "theme.json"
    /// The keys theme.json may hold.
    public static let keys = ["parent"]
    /// A theme.json larger than this is not a settings file.
    public static let maximumBytes = 64 << 10

    /// The theme this one inherits from: what it does not have is looked up there.
    public var parent: String?

    public init(parent: String? = nil) {
        self.parent = parent
    }

    /// Why a theme.json cannot be used, in a sentence that names the key.
    public struct Invalid: Error, Sendable, Equatable, CustomStringConvertible {
        public var reason: String
        public var description: String { "\(ThemeSettings.fileName): \(reason)" }
    }

    public init(json data: Data) throws(Invalid) {
        guard data.count <= Self.maximumBytes else { throw Invalid(reason: "is \(data.count) bytes; settings are at most \(Self.maximumBytes)") }
        let object: Any
        do { object = try JSONSerialization.jsonObject(with: data) } catch { throw Invalid(reason: "is not valid JSON") }
        guard let values = object as? [String: Any] else { throw Invalid(reason: "is not a JSON object") }
        for key in values.keys.sorted() where !Self.keys.contains(key) {
            let hint = Spelling.nearest(to: key, among: Self.keys).map { " (did you mean \"\($0)\"?)" } ?? ""
            throw Invalid(reason: "unknown key \"\(key)\"\(hint); a theme.json may hold \(Self.keys.map { "\"\($0)\"" }.joined(separator: ", "))")
        }
        switch values["parent"] {
        case nil, is NSNull:
            parent = nil
        case let name as String where ThemeName.isValid(name):
            parent = name
        case let name as String:
            throw Invalid(reason: "\"parent\" is \"\(name.prefix(100))\", which is not a theme name (letters, digits, -, _ and .)")
        default:
            throw Invalid(reason: "\"parent\" must be a theme's name, as a string")
        }
    }

    /// The settings of the theme folder at `folder`: none when it has no theme.json.
    public init(folder: String) throws(Invalid) {
        let path = "\(folder)/\(Self.fileName)"
        guard FileManager.default.fileExists(atPath: path) else { self.init(); return }
        guard let data = FileManager.default.contents(atPath: path) else { throw Invalid(reason: "cannot be read") }
        try self.init(json: data)
    }
}
