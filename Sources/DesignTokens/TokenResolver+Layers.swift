import JSON

extension TokenResolver {
    /// Resolvers read in order as one (a theme's parents' tokens, then its own): their sets and
    /// modifiers' sources follow one another, so that a later layer's tokens win and an earlier
    /// layer's aliases resolve to them. A modifier several layers define is one: its contexts
    /// in the order they first appear, its default the last layer's; each layer adds the
    /// sources it gives the chosen context. The document served is the last layer's.
    public init(layers: [TokenResolver]) {
        var modifiers: [Modifier] = []
        for layer in layers {
            for modifier in layer.modifiers {
                guard let index = modifiers.firstIndex(where: { $0.name == modifier.name }) else { modifiers.append(modifier); continue }
                modifiers[index].contexts += modifier.contexts.filter { !modifiers[index].contexts.contains($0) }
                modifiers[index].defaultContext = modifier.defaultContext
            }
        }
        var document = layers.last?.document ?? .object([])
        if case .object(var members) = document, layers.count > 1 {
            members.append(("$extensions", .object([("org.themed", .object([("layers", .int(layers.count))]))])))
            document = .object(members)
        }
        self.init(modifiers: modifiers, steps: layers.flatMap(\.steps), document: document,
                  warnings: layers.flatMap(\.warnings))
    }

    /// A layer made in code rather than read from a document (a catalog theme's colours beneath a
    /// child's tokens): `base` always, then each modifier's sources for the context chosen.
    public init(base: [TokenSource], modifiers: [(modifier: Modifier, contexts: [String: [TokenSource]])]) {
        self.init(modifiers: modifiers.map(\.modifier), steps: [.set(base)] + modifiers.map { .modifier(name: $0.modifier.name, contexts: $0.contexts) },
                  document: .object([]), warnings: [])
    }

    /// The same resolver with every source's file named from another folder (`../base/` for a
    /// parent's), so that problems and warnings say whose file they are in.
    public func relocated(under folder: String) -> TokenResolver {
        func moved(_ source: TokenSource) -> TokenSource {
            TokenSource(root: source.root, location: TokenLocation(file: "\(folder)/\(source.location.file)", pointer: source.location.pointer))
        }
        let steps = steps.map { step -> Step in
            switch step {
            case .set(let sources): return .set(sources.map(moved))
            case .modifier(let name, let contexts): return .modifier(name: name, contexts: contexts.mapValues { $0.map(moved) })
            case .studio(var studio):
                studio.sets = studio.sets.mapValues { set in
                    (moved(set.source), set.warnings.map { TokenWarning(TokenLocation(file: "\(folder)/\($0.location.file)", pointer: $0.location.pointer), $0.kind, $0.detail) })
                }
                return .studio(studio)
            }
        }
        return TokenResolver(modifiers: modifiers, steps: steps, document: document, warnings: warnings.map {
            TokenWarning(TokenLocation(file: "\(folder)/\($0.location.file)", pointer: $0.location.pointer), $0.kind, $0.detail)
        })
    }
}
