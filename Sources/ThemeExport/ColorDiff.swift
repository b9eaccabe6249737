import JSON
import ThemeIndex
import ThemeVocabulary

/// What changed in a theme's colours between two readings (`themed diff A B`): names added and
/// removed, and each changed name's value per mode, before and after. Values are compared as
/// they are served (`ColorValue`: space and components), so a change of space is a change.
public struct ColorDiff: Sendable {
    public struct Change: Sendable {
        public var name: String
        public var modes: [(mode: ColorMode, before: ColorValue?, after: ColorValue?)]
    }

    public let added: [String]
    public let removed: [String]
    public let changed: [Change]

    public var isEmpty: Bool { added.isEmpty && removed.isEmpty && changed.isEmpty }

    public init(from before: ColorTable, to after: ColorTable) {
        let old = Dictionary(before.rows.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let new = Dictionary(after.rows.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        func sorted(_ names: some Collection<String>) -> [String] { names.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) } }
        added = sorted(new.keys.filter { old[$0] == nil })
        removed = sorted(old.keys.filter { new[$0] == nil })
        changed = sorted(new.keys.filter { old[$0] != nil }).compactMap { name in
            guard let was = old[name], let now = new[name] else { return nil }
            let modes = ColorMode.all.compactMap { mode -> (mode: ColorMode, before: ColorValue?, after: ColorValue?)? in
                let (a, b) = (was.values[mode]?.value, now.values[mode]?.value)
                return a == b ? nil : (mode, a, b)
            }
            return modes.isEmpty ? nil : Change(name: name, modes: modes)
        }
    }

    /// The diff as JSON: the names added and removed, and each changed colour's modes with its
    /// hex before and after (null where it had none).
    struct Body: Encodable {
        struct Changed: Encodable {
            var name: String
            var modes: [Mode]
        }

        struct Mode: Encodable {
            var mode: String
            @Nullable var before: String?
            @Nullable var after: String?
        }

        var added: [String]
        var removed: [String]
        var changed: [Changed]
    }
}

extension ColorDiff: Encodable {
    public func encode(to encoder: any Encoder) throws {
        try Body(added: added, removed: removed, changed: changed.map { change in
            Body.Changed(name: change.name, modes: change.modes.map { Body.Mode(mode: $0.mode.name, before: $0.before?.hex, after: $0.after?.hex) })
        }).encode(to: encoder)
    }
}
