import HTTPServer
import ThemeContent
import ThemeIndex

/// What a route handler is given: the request, the parameters its pattern captured, and the
/// themes being served.
public struct RequestContext: Sendable {
    public let request: Request
    let parameters: [String: String]
    let library: ThemeLibrary

    /// A captured parameter (the route's pattern guarantees it).
    public func parameter(_ name: String) -> String {
        parameters[name] ?? ""
    }

    /// The theme named by the `theme` parameter (`current` is the active theme) and its
    /// ancestors; an unknown theme is 404, a broken chain 503 (the theme exists but cannot be
    /// served until its settings are fixed), another shard's theme 421 naming that shard.
    func chain() throws -> [ThemeInfo] {
        var name = parameter("theme")
        if name == "current" {
            guard let active = library.activeTheme else { throw APIError.notFound("no themes are loaded") }
            name = active
        }
        if let misdirected = APIError.misdirected(name, in: library) { throw misdirected }
        let snapshot = library.current
        guard snapshot.theme(named: name) != nil else { throw APIError.notFound("no theme named \(name)") }
        do {
            return try ThemeInfo.chain(of: name, theme: snapshot.theme(named:))
        } catch {
            throw APIError(status: .serviceUnavailable, code: "theme_error", message: "\(error)")
        }
    }

    /// The traits the request asks for, from its query and client hints; for a theme of design
    /// tokens (`chain`, as `chain()` gave it) also the contexts of its modifiers the query names
    /// (`?brand=portal`; an unknown context is a 400 listing the modifier's, other parameters are
    /// not the tokens' and ignored).
    func traits(in chain: [ThemeInfo]) throws -> TraitRequest {
        var traits = try TraitParser.traits(of: request)
        guard let modifiers = library.index.reader.tokenOwner(in: chain)?.source.modifiers, !modifiers.isEmpty else { return traits }
        switch TokenModifier.requested(request.query.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }, of: modifiers) {
        case .success(let contexts): traits.contexts = contexts
        case .failure(let error): throw APIError.badRequest(error.message)
        }
        // A resolver with more combinations than a sync stores has its colours indexed at the
        // defaults of the modifiers chosen by name: another context is `/tokens`' to answer,
        // never the defaults' colours passed off as its.
        if !traits.contexts.isEmpty, TokenResolution.isResolvedOnDemand(modifiers) {
            throw APIError(status: .badRequest, code: "resolved_on_demand",
                           message: "\(traits.contexts) is resolved on demand: /themes/\(chain.first?.name ?? "")/tokens?\(traits.contexts) answers it; "
                               + "the colour routes answer these modifiers at their defaults (the resolver has more than 64 combinations)")
        }
        return traits
    }

    /// A path inside the themes folder as responses show it (`light/Theme.xcassets`).
    func relative(_ path: String) -> String {
        let directory = library.themesDirectory
        return path.hasPrefix(directory + "/") ? String(path.dropFirst(directory.count + 1)) : path
    }
}
