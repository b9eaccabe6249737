import Foundation
import JSON

/// A Figma file's local variables as DTCG 2025.10 token files and a resolver, a folder that
/// themed serves as a token theme (`themed import figma`, docs/TOKENS.md "Figma variables").
///
/// Each local collection is a set (one mode) or a modifier (several: its contexts are the mode
/// names, its default the default mode), a file per mode; a variable's `/` segments are its
/// groups; aliases stay aliases, which the resolver answers as Figma does (within the chosen
/// mode of the same collection, else the target collection's chosen mode, its default unless
/// asked). Variables of linked libraries and deleted ones still referenced are followed for
/// their values but not written. What does not map one to one is said in `notes`, never lost.
/// The same file gives the same bytes: members sorted, numbers as Figma wrote them.
public struct FigmaImport: Sendable {
    /// The resolver's file name; the token files are named after the collections and modes.
    public static let resolverFile = "figma.resolver.json"

    public struct File: Sendable, Equatable {
        public var path: String
        public var bytes: [UInt8]
    }

    /// The resolver first, then each collection's files in the resolution order.
    public internal(set) var files: [File] = []
    /// Names changed to be DTCG names, values kept under `$extensions`, aliases to nothing.
    public internal(set) var notes: [String] = []

    let figma: FigmaFile
    private(set) var paths: [String: [String]] = [:]

    public init(_ figma: FigmaFile) {
        self.figma = figma
        let collections = figma.collections.values.filter { !$0.remote }
            .sorted { Self.precedes(($0.name, $0.id), ($1.name, $1.id)) }
        let members = Dictionary(grouping: figma.variables.values.filter(\.isLocal), by: \.collectionID)
        for variable in figma.variables.values where variable.isLocal && figma.collections[variable.collectionID] == nil {
            notes.append("\(variable.name) (\(variable.id)): its collection \(variable.collectionID) is not in the file; not written")
        }
        var written: [(collection: FigmaFile.Collection, variables: [FigmaFile.Variable])] = []
        for collection in collections {
            let variables = (members[collection.id] ?? []).sorted { Self.precedes(($0.name, $0.id), ($1.name, $1.id)) }
            guard !variables.isEmpty else { continue }
            written.append((collection, variables))
        }
        paths = assignPaths(written.flatMap(\.variables))

        var names = UniqueNames(), slugs = UniqueNames()
        var sets: [(String, JSONValue)] = [], modifiers: [(String, JSONValue)] = [], order: [JSONValue] = []
        for (collection, variables) in written {
            let name = names.claim(collection.name)
            let slug = slugs.claim(Self.slug(collection.name))
            if collection.modes.count == 1 {
                let path = "\(slug).tokens.json"
                files.append(File(path: path, bytes: document(of: variables, in: collection, mode: collection.modes[0])))
                sets.append((name, .object([("sources", .array([.object([("$ref", .string(path))])]))])))
                order.append(.object([("$ref", .string("#/sets/\(Self.pointerEscaped(name))"))]))
            } else {
                var modeSlugs = UniqueNames(), contexts: [(String, JSONValue)] = []
                for mode in collection.modes {
                    let path = "\(slug)/\(modeSlugs.claim(Self.slug(mode.name))).tokens.json"
                    files.append(File(path: path, bytes: document(of: variables, in: collection, mode: mode)))
                    contexts.append((mode.name, .array([.object([("$ref", .string(path))])])))
                }
                if Set(collection.modes.map(\.name)).count != collection.modes.count {
                    notes.append("collection \(collection.name): two modes share a name; the resolver keeps the last of each name")
                }
                modifiers.append((name, .object([("contexts", .object(contexts)), ("default", .string(collection.defaultMode?.name ?? ""))])))
                order.append(.object([("$ref", .string("#/modifiers/\(Self.pointerEscaped(name))"))]))
            }
        }
        let resolver: JSONValue = .object([
            ("$schema", "https://www.designtokens.org/schemas/2025.10/resolver.json"), ("version", "2025.10"),
            ("name", "Figma variables"), ("sets", .object(sets)), ("modifiers", .object(modifiers)), ("resolutionOrder", .array(order)),
        ])
        files.insert(File(path: Self.resolverFile, bytes: resolver.serializedBytes(pretty: true) + [UInt8(ascii: "\n")]), at: 0)
    }

    // MARK: - Names

    /// Each written variable's token path: its name's `/` segments made DTCG names (no `.`,
    /// `{`, `}` nor a leading `$`), unique, and `$root` where a token is also a group.
    private mutating func assignPaths(_ variables: [FigmaFile.Variable]) -> [String: [String]] {
        var paths: [String: [String]] = [:]
        var taken: [[String]: String] = [:]
        for variable in variables {
            let raw = variable.name.split(separator: "/", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            var path = raw.map(Self.tokenName)
            if path != raw { notes.append("\(variable.name): written as \(path.joined(separator: ".")) (a DTCG name holds no ., {, } nor a leading $)") }
            if let other = taken[path], figma.variables[other]?.collectionID == variable.collectionID {
                var number = 2
                while taken[Array(path.dropLast()) + ["\(path[path.count - 1])-\(number)"]] != nil { number += 1 }
                path[path.count - 1] += "-\(number)"
                notes.append("\(variable.name): written as \(path.joined(separator: ".")) (its name is \(figma.variables[other]?.name ?? other)'s as a DTCG name)")
            } else if let other = taken[path] {
                notes.append("\(variable.name) and \(figma.variables[other]?.name ?? other) are both \(path.joined(separator: ".")): the later collection in the resolution order wins")
            }
            taken[path] = variable.id
            paths[variable.id] = path
        }
        let groups = Set(paths.values.flatMap { path in (1..<path.count).map { Array(path.prefix($0)) } })
        for (id, path) in paths where groups.contains(path) { paths[id] = path + ["$root"] }
        return paths
    }

    /// Byte order of the UTF-8 text (by name, then id): the same on every machine, so that the
    /// same file writes the same bytes.
    static func precedes(_ first: (String, String), _ second: (String, String)) -> Bool {
        first.0 == second.0 ? first.1.utf8.lexicographicallyPrecedes(second.1.utf8) : first.0.utf8.lexicographicallyPrecedes(second.0.utf8)
    }

    static func tokenName(_ segment: String) -> String {
        var name = String(segment.map { "{}.".contains($0) ? "_" : $0 })
        while name.hasPrefix("$") { name.removeFirst() }
        return name.isEmpty ? "_" : name
    }

    /// A file name for a collection or mode: lower case letters, digits, `-` and `_`.
    static func slug(_ name: String) -> String {
        var slug = ""
        for character in name.lowercased() {
            if character.isASCII && (character.isLetter || character.isNumber || character == "_") {
                slug.append(character)
            } else if !slug.isEmpty, slug.last != "-" {
                slug.append("-")
            }
        }
        while slug.hasSuffix("-") { slug.removeLast() }
        return slug.isEmpty ? "collection" : slug
    }

    static func pointerEscaped(_ name: String) -> String {
        name.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
    }

    /// Names made unique in order of claim: the second `Colors` is `Colors 2`.
    struct UniqueNames {
        private var used: Set<String> = []

        mutating func claim(_ name: String) -> String {
            var candidate = name, number = 2
            while used.contains(candidate) {
                candidate = "\(name)-\(number)"
                number += 1
            }
            used.insert(candidate)
            return candidate
        }
    }
}
