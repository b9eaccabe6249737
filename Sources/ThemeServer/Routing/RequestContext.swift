import HTTPServer
import ThemeContent
import ThemeIndex

/// What a route handler is given: the request, the parameters its pattern captured, and the
/// themes being served.
public struct RequestContext: Sendable {
    public let request: Request
    let parameters: PathParameters
    let library: ThemeLibrary

    /// A captured parameter (the route's pattern guarantees it).
    public func parameter(_ name: String) -> String {
        parameters[name] ?? ""
    }

    /// A captured parameter read as a `T` (a `RecordID` for a stored record), as Hummingbird's
    /// `parameters.require(_:as:)` reads one: a segment that is not one names nothing, 404
    /// (`no draft abc`, with `what` "draft").
    public func parameter<T: LosslessStringConvertible>(_ name: String, as type: T.Type, naming what: String) throws(APIError) -> T {
        guard let value = T(parameter(name)) else { throw APIError.notFound("no \(what) \(parameter(name))") }
        return value
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
        return traits
    }

    /// `answer()`, here or, when the colours of `traits` need design tokens resolved first (contexts
    /// chosen by name on a resolver past what a sync stores, not kept yet), on the worker pool:
    /// an event loop never resolves tokens.
    func resolvingTokens(in chain: [ThemeInfo], for traits: TraitRequest, _ answer: @escaping @Sendable () throws -> Response) throws -> Response {
        guard library.index.reader.resolvesTokens(in: chain, for: traits) else { return try answer() }
        return onWorkers(answer)
    }

    /// `answer()` on the worker pool, answered when it is done: a refusal as itself, a full queue
    /// as 503 busy, anything else as 503 theme_error (the theme's files could not be read).
    func onWorkers(_ answer: @escaping @Sendable () throws -> Response) -> Response {
        let library = library
        return Response(deferred: { complete in
            library.content.perform({ try answer() }) { result in
                switch result {
                case .success(let response): complete(response)
                case .failure(let error as APIError): complete(error.response)
                case .failure(let error as ContentStore.Busy): complete(APIError.busy(error))
                case .failure(let error): complete(APIError(status: .serviceUnavailable, code: "theme_error", message: "\(error)").response)
                }
            }
        })
    }

    /// A path inside the themes folder as responses show it (`light/Theme.xcassets`).
    func relative(_ path: String) -> String {
        // By bytes: a palette asks this of every colour, and both paths come from the file system.
        var directory = library.themesDirectory, path = path
        let isInside = directory.withUTF8 { directory in
            path.withUTF8 { bytes in
                bytes.count > directory.count && bytes[directory.count] == UInt8(ascii: "/") && directory.elementsEqual(bytes.prefix(directory.count))
            }
        }
        return isInside ? String(decoding: path.utf8.dropFirst(directory.utf8.count + 1), as: UTF8.self) : path
    }
}

/// The id of a stored record (a draft, a schedule) as a path names it: a positive number.
public struct RecordID: LosslessStringConvertible, Sendable, Equatable {
    public let value: Int64

    public init?(_ description: String) {
        guard let value = Int64(description), value > 0 else { return nil }
        self.value = value
    }

    public var description: String { String(value) }
}
