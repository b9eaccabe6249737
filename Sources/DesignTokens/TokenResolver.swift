import JSON

/// A resolver document (Resolver module 2025.10): sets and modifiers with contexts, in a
/// resolution order, each a list of token sources (files, pointers into them, inline tokens);
/// and the token set for a choice of contexts (its inputs).
public struct TokenResolver: Sendable {
    public struct Modifier: Sendable, Equatable {
        public var name: String
        public var contexts: [String]
        public var defaultContext: String
        public var description: String?

        public init(name: String, contexts: [String], defaultContext: String, description: String? = nil) {
            (self.name, self.contexts, self.defaultContext, self.description) = (name, contexts, defaultContext, description)
        }
    }

    /// One step of the resolution order: a set's sources, or a modifier's sources per context.
    enum Step: Sendable {
        case set([TokenSource])
        case modifier(name: String, contexts: [String: [TokenSource]])
        /// A Tokens Studio folder: the sets its themes choose, in its order (a parent's folder
        /// beneath a child's layers, or the theme's own).
        case studio(StudioSets)
    }

    /// Why a resolver document cannot be used; the theme keeps its previous generation.
    public struct Invalid: Error, Sendable, CustomStringConvertible {
        public var location: TokenLocation
        public var reason: String
        public var description: String { "\(location): \(reason)" }
    }

    /// Reads a file of the theme folder by its relative path (checked to stay inside it).
    public typealias FileReader = (String) throws -> JSONValue

    public let modifiers: [Modifier]
    let steps: [Step]
    /// A Tokens Studio folder's themes and sets, read in place of steps.

    struct StudioSets: Sendable {
        var themes: TokensStudioThemes
        /// Each set of `tokenSetOrder` in DTCG's form, with the warnings its reading gave.
        var sets: [String: (source: TokenSource, warnings: [TokenWarning])]
    }
    /// The document as written (what `tokens.resolver.json` answers).
    public let document: JSONValue
    /// What the Resolver module does not allow that still means one thing (a property it does not
    /// define, a modifier of one context), said once for the theme.
    public private(set) var warnings: [TokenWarning] = []

    /// The properties the Resolver module gives a resolver document.
    static let documentProperties: Set<String> = ["$schema", "$extensions", "$defs", "name", "version", "description", "sets", "modifiers", "resolutionOrder"]
    static let setProperties: Set<String> = ["description", "sources", "$extensions"]
    static let modifierProperties: Set<String> = ["description", "contexts", "default", "$extensions"]

    /// A resolver made of parts (`init(layers:)`, `relocated(under:)`).
    init(modifiers: [Modifier], steps: [Step], document: JSONValue, warnings: [TokenWarning]) {
        (self.modifiers, self.steps, self.document, self.warnings) = (modifiers, steps, document, warnings)
    }

    /// Without a resolver: the token files merged in path order, no modifiers.
    public init(files: [(path: String, root: JSONValue)]) {
        modifiers = []
        steps = [.set(files.map { TokenSource(root: $0.root, location: TokenLocation(file: $0.path, pointer: "")) })]
        document = .object([
            ("version", "2025.10"),
            ("sets", .object([("tokens", .object([("sources", .array(files.map { .object([("$ref", .string($0.path))]) }))]))])),
            ("resolutionOrder", .array([.object([("$ref", "#/sets/tokens")])])),
        ])
    }

    /// Reads `document` (the file `path`); `$ref`s to files go through `read`.
    public init(document: JSONValue, path: String, read: FileReader) throws(Invalid) {
        self.document = document
        func invalid(_ pointer: String, _ reason: String) -> Invalid { Invalid(location: TokenLocation(file: path, pointer: pointer), reason: reason) }
        guard case .object = document else { throw invalid("", "a resolver document is a JSON object") }
        guard document["version"] == .string("2025.10") else { throw invalid("/version", "version must be \"2025.10\"") }
        guard case .array(let order)? = document["resolutionOrder"] else { throw invalid("/resolutionOrder", "resolutionOrder (an array) is required") }
        guard !order.isEmpty else { throw invalid("/resolutionOrder", "resolutionOrder lists no set or modifier: the resolver resolves nothing") }
        var warnings: [TokenWarning] = []
        if case .object(let members) = document {
            for (key, _) in members where !Self.documentProperties.contains(key) {
                warnings.append(TokenWarning(TokenLocation(file: path, pointer: "/" + JSONPointer.escape(key)), .format,
                                             "\(key) is not a property of a resolver document; ignored"))
            }
        }

        var cache: [String: JSONValue] = [:]
        func file(_ name: String, at pointer: String) throws(Invalid) -> JSONValue {
            if let known = cache[name] { return known }
            do {
                let root = try read(name)
                cache[name] = root
                return root
            } catch {
                throw invalid(pointer, "$ref \"\(name)\": \(error)")
            }
        }

        /// The token sources an entry of `sources` (or of a context) stands for.
        func sources(_ list: JSONValue?, at pointer: String, inModifier: Bool, seen: [String]) throws(Invalid) -> [TokenSource] {
            guard case .array(let entries)? = list else { throw invalid(pointer, "must be an array of sources") }
            var found: [TokenSource] = []
            for (index, entry) in entries.enumerated() {
                let here = "\(pointer)/\(index)"
                guard case .string(let reference)? = entry["$ref"] else {
                    guard case .object = entry else { throw invalid(here, "a source is a $ref or an object of tokens") }
                    found.append(TokenSource(root: entry, location: TokenLocation(file: path, pointer: here)))
                    continue
                }
                let (name, fragment) = Self.split(reference)
                if name.isEmpty {
                    guard let segments = JSONPointer.segments(fragment) else { throw invalid(here, "\"\(reference)\" is not a JSON pointer") }
                    if segments.first == "modifiers" { throw invalid(here, "a set or context may not point at a modifier (\(reference))") }
                    if segments.first == "resolutionOrder" { throw invalid(here, "nothing may point into resolutionOrder (\(reference))") }
                    guard !seen.contains(reference) else { throw invalid(here, "\(reference) refers to itself through \(seen.joined(separator: " → "))") }
                    if segments.count == 2, segments[0] == "sets" {
                        found += try sources(document["sets"]?[segments[1]]?["sources"], at: "/sets/\(JSONPointer.escape(segments[1]))/sources",
                                             inModifier: inModifier, seen: seen + [reference])
                    } else {
                        guard let value = JSONPointer.value(at: segments, in: document) else { throw invalid(here, "\(reference) points at nothing") }
                        found.append(TokenSource(root: value, location: TokenLocation(file: path, pointer: fragment)))
                    }
                    continue
                }
                let root = try file(name, at: here)
                guard let segments = JSONPointer.segments(fragment), let value = JSONPointer.value(at: segments, in: root) else {
                    throw invalid(here, "\(reference) points at nothing")
                }
                found.append(TokenSource(root: value, location: TokenLocation(file: name, pointer: fragment.hasPrefix("#") ? String(fragment.dropFirst()) : fragment)))
            }
            return found
        }

        var modifiers: [Modifier] = []
        var steps: [Step] = []
        var names = Set<String>()
        for (index, entry) in order.enumerated() {
            let here = "/resolutionOrder/\(index)"
            var item = entry
            var itemPointer = here
            var kind: String?
            var name: String?
            if case .string(let reference)? = entry["$ref"] {
                guard let segments = JSONPointer.segments(reference), segments.count == 2, ["sets", "modifiers"].contains(segments[0]),
                      let target = document[segments[0]]?[segments[1]] else {
                    throw invalid(here, "\(reference) is not a set or modifier of this document")
                }
                (item, itemPointer, kind, name) = (target, "/\(segments[0])/\(JSONPointer.escape(segments[1]))", segments[0] == "sets" ? "set" : "modifier", segments[1])
            } else {
                guard case .string(let inlineName)? = entry["name"], case .string(let inlineType)? = entry["type"], ["set", "modifier"].contains(inlineType) else {
                    throw invalid(here, "an inline set or modifier needs a name and a type (\"set\" or \"modifier\")")
                }
                (kind, name) = (inlineType, inlineName)
            }
            guard let kind, let name else { continue }
            guard names.insert("\(kind):\(name)").inserted else { throw invalid(here, "\(name) appears twice in resolutionOrder") }
            if case .object(let members) = item {
                let allowed = (kind == "set" ? Self.setProperties : Self.modifierProperties).union(itemPointer == here ? ["name", "type"] : [])
                for (key, _) in members where !allowed.contains(key) {
                    warnings.append(TokenWarning(TokenLocation(file: path, pointer: itemPointer + "/" + JSONPointer.escape(key)), .format,
                                                 "\(key) is not a property of a \(kind); ignored"))
                }
            }
            if kind == "set" {
                steps.append(.set(try sources(item["sources"], at: itemPointer + "/sources", inModifier: false, seen: [])))
                continue
            }
            guard case .object(let contexts)? = item["contexts"], !contexts.isEmpty else { throw invalid(itemPointer + "/contexts", "a modifier needs at least one context") }
            var byContext: [String: [TokenSource]] = [:]
            for (context, list) in contexts {
                byContext[context] = try sources(list, at: "\(itemPointer)/contexts/\(JSONPointer.escape(context))", inModifier: true, seen: [])
            }
            if contexts.count == 1 {
                warnings.append(TokenWarning(TokenLocation(file: path, pointer: itemPointer + "/contexts"), .format,
                                             "a modifier has at least two contexts; \(name) has one, always on"))
            }
            var chosen = contexts[0].0
            if let given = item["default"] {
                guard case .string(let context) = given, byContext[context] != nil else {
                    throw invalid(itemPointer + "/default", "default must be one of its contexts (\(contexts.map(\.0).joined(separator: ", ")))")
                }
                chosen = context
            }
            var description: String?
            if case .string(let text)? = item["description"] { description = text }
            modifiers.append(Modifier(name: name, contexts: contexts.map(\.0), defaultContext: chosen, description: description))
            steps.append(.modifier(name: name, contexts: byContext))
        }
        self.modifiers = modifiers
        self.steps = steps
        self.warnings = warnings
    }

    /// A Tokens Studio folder (`TokensStudioThemes`): `themes` is `$themes.json` (nil when the
    /// folder has none), `metadata` `$metadata.json`, `sets` the sets the folder has
    /// (`TokensStudioThemes.set(ofFile:)` of its files, in file order); each set used is read
    /// through `read`.
    public init(tokensStudioThemes themes: JSONValue?, metadata: JSONValue, sets available: [String], read: FileReader) throws(Invalid) {
        let plan = try TokensStudioThemes(themes: themes, metadata: metadata, files: available)
        var sets: [String: (source: TokenSource, warnings: [TokenWarning])] = [:]
        for set in plan.setOrder {
            let file = TokensStudioThemes.file(of: set)
            let root: JSONValue
            do {
                root = try read(file)
            } catch {
                throw Invalid(location: TokenLocation(file: "$metadata.json", pointer: "/tokenSetOrder"), reason: "set \(set): \(error)")
            }
            let (tree, warnings) = TokensStudioSet.normalized(root, file: file)
            sets[set] = (TokenSource(root: tree, location: TokenLocation(file: file, pointer: "")), warnings)
        }
        (modifiers, steps, document, warnings) = (plan.modifiers, [.studio(StudioSets(themes: plan, sets: sets))], plan.document, plan.warnings)
    }

    /// `file.json#/a/b` -> ("file.json", "#/a/b"); `#/a` -> ("", "#/a").
    static func split(_ reference: String) -> (file: String, fragment: String) {
        guard let hash = reference.firstIndex(of: "#") else { return (reference, "") }
        return (String(reference[..<hash]), String(reference[hash...]))
    }

    /// Inputs with every modifier given: the defaults filled in. An unknown modifier or context is
    /// an error naming the valid ones.
    public func inputs(_ given: [String: String]) throws(Invalid) -> [String: String] {
        for (name, context) in given {
            guard let modifier = modifiers.first(where: { $0.name == name }) else {
                throw Invalid(location: TokenLocation(file: "resolver", pointer: "/modifiers"),
                              reason: "no modifier \"\(name)\"; the modifiers are \(modifiers.map(\.name).joined(separator: ", "))")
            }
            guard modifier.contexts.contains(context) else {
                throw Invalid(location: TokenLocation(file: "resolver", pointer: "/modifiers/\(name)"),
                              reason: "\(name) has no context \"\(context)\"; its contexts are \(modifier.contexts.joined(separator: ", "))")
            }
        }
        return Dictionary(uniqueKeysWithValues: modifiers.map { ($0.name, given[$0.name] ?? $0.defaultContext) })
    }

    /// Every choice of contexts (the product of the modifiers'), up to `limit`.
    public func allInputs(limit: Int = 256) -> [[String: String]] {
        var all: [[String: String]] = [[:]]
        for modifier in modifiers {
            all = all.flatMap { partial in modifier.contexts.map { partial.merging([modifier.name: $0]) { $1 } } }
            if all.count > limit { all = Array(all.prefix(limit)) }
        }
        return all
    }

    /// The tokens for `inputs` (every modifier given, as `inputs(_:)` makes them).
    public func tokens(for inputs: [String: String]) -> TokenSet {
        var sources: [TokenSource] = []
        // With a Tokens Studio folder among the layers: its `source` sets are read for aliases
        // only, so only its enabled sets' tokens and the other layers' answer, in Tokens
        // Studio's dialect (a DTCG child of a Tokens Studio base reads as the base does).
        var studio: (answering: Set<TokenPath>, quiet: Set<String>, warnings: [TokenWarning])?
        for step in steps {
            switch step {
            case .set(let list): sources += list
            case .modifier(let name, let contexts): sources += inputs[name].flatMap { contexts[$0] } ?? []
            case .studio(let folder):
                var read = studio ?? ([], [], [])
                let used = folder.themes.sets(for: inputs).compactMap { used in folder.sets[used.set].map { (set: $0, enabled: used.enabled) } }
                read.quiet.formUnion(used.filter { !$0.enabled }.map(\.set.source.location.file))
                read.warnings += used.filter(\.enabled).flatMap(\.set.warnings)
                read.answering.formUnion(used.filter(\.enabled).flatMap { TokenSet.paths(in: $0.set.source.root) })
                sources += used.map(\.set.source)
                studio = read
            }
        }
        guard var studio else { return TokenSet(sources: sources) }
        let studioSources = Set(steps.flatMap { step -> [String] in
            guard case .studio(let folder) = step else { return [] }
            return folder.sets.values.map(\.source.location.file)
        })
        studio.answering.formUnion(sources.filter { !studioSources.contains($0.location.file) }.flatMap { TokenSet.paths(in: $0.root) })
        return TokenSet(sources: sources, dialect: .tokensStudio, answering: studio.answering, quietFiles: studio.quiet, warnings: studio.warnings)
    }
}
