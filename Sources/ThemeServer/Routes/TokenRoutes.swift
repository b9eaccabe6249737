import DesignTokens
import Hashing
import HTTPServer
import HTTPTypes
import ThemeContent
import ThemeIndex
import ThemeVocabulary

/// `GET /themes/{theme}/tokens` (a resolution of the theme's design tokens, in the DTCG format),
/// `GET /themes/{theme}/tokens/{path}` (one token) and `GET /themes/{theme}/tokens.resolver.json`.
/// The query chooses a context of each of the resolver's modifiers (`?theme=dark&size=large`);
/// a modifier not given takes its default. A resolution the sync stored is read from the index;
/// one it did not (a resolver with more combinations than it stores) is resolved on the worker
/// pool when first asked and kept (`TokenResolutions`); either way the answer is then kept by
/// the response cache like any other.
struct TokenRoutes: RouteCollection {
    let library: ThemeLibrary

    var routes: [Route] {
        [
            .get("/themes/{theme}/tokens", label: "tokens", cacheable: true) { try document($0) },
            .get("/themes/{theme}/tokens.resolver.json", label: "tokens", cacheable: true) { try resolver($0) },
            .get("/themes/{theme}/tokens/{path...}", label: "token", cacheable: true) { try token($0) },
        ]
    }

    /// What a token request asks for: the chain's token owner (and its part of the chain), the
    /// contexts chosen and the key their resolution is stored under.
    private struct Asked {
        var owner: IndexReader.TokenOwner
        var chain: [ThemeInfo]
        var inputs: [String: String]
        var key: String
    }

    private func asked(_ context: RequestContext) throws -> Asked {
        let chain = try context.chain()
        guard let owner = library.index.reader.tokenOwner(in: chain) else {
            throw APIError.notFound("theme \(chain.first?.name ?? "") has no design tokens (*.tokens.json files in its folder)")
        }
        let modifiers = owner.source.modifiers
        switch TokenModifier.inputs(context.request.query.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }, of: modifiers) {
        case .success(let inputs):
            return Asked(owner: owner, chain: Array(chain.drop { $0.id != owner.theme.id }), inputs: inputs, key: TokenModifier.key(inputs, of: modifiers))
        case .failure(let error): throw APIError.badRequest(error.message)
        }
    }

    private func document(_ context: RequestContext) throws -> Response {
        let asked = try asked(context)
        if let body = try library.index.reader.tokenDocument(of: asked.owner, resolution: asked.key) { return Self.answer(body) }
        return try resolvedOnDemand(asked, context) { Self.answer($0.document) }
    }

    private func token(_ context: RequestContext) throws -> Response {
        let asked = try asked(context)
        let path = context.parameter("path").split(separator: "/").joined(separator: ".")
        let owner = asked.owner
        if let body = try library.index.reader.token(of: owner, resolution: asked.key, path: path) { return Self.answer(body) }
        if TokenResolution.isResolvedOnDemand(owner.source.modifiers), try library.index.reader.tokenDocument(of: owner, resolution: asked.key) == nil {
            return try resolvedOnDemand(asked, context) { resolution in
                guard let body = resolution.body(of: path) else { return Self.noToken(path, of: owner, among: resolution.paths).response }
                return Self.answer(body)
            }
        }
        throw Self.noToken(path, of: owner, among: try library.index.reader.tokenPaths(of: owner, resolution: asked.key))
    }

    /// A token the resolution lacks: refused (and why), or not there (and the nearest path).
    private static func noToken(_ path: String, of owner: IndexReader.TokenOwner, among paths: [String]) -> APIError {
        if let refusal = Self.refusal(of: path, in: owner.source.error) {
            return APIError(status: .notFound, code: "token_refused", message: "token \(path) of \(owner.theme.name) cannot be served: \(refusal)")
        }
        let hint = Spelling.nearest(to: path, among: paths).map { "; did you mean \($0)?" } ?? ""
        return APIError.notFound("no token \(path) in \(owner.theme.name)\(hint)")
    }

    /// A resolution the index does not store, made on the worker pool (or taken from those kept).
    private func resolvedOnDemand(_ asked: Asked, _ context: RequestContext, answer: @escaping @Sendable (TokenResolution) -> Response) throws -> Response {
        guard TokenResolution.isResolvedOnDemand(asked.owner.source.modifiers) else {
            throw APIError.notFound("the resolution \(asked.key.isEmpty ? "of these tokens" : asked.key) is not stored")
        }
        let resolutions = library.index.reader.tokenResolutions
        return context.onWorkers { answer(try resolutions.resolution(asked.owner, inputs: asked.inputs, chain: asked.chain)) }
    }

    /// Why the token at `path` (dotted) was refused, from its source's errors
    /// (`file#/pointer: reason`): the line whose pointer is the token's, else one whose pointer
    /// ends in it (a source may sit below a `$ref` pointer, `#/shared`); nil when none names it.
    static func refusal(of path: String, in errors: String) -> String? {
        let tokenPointer = TokenPath(dotted: path).pointer
        let lines = errors.split(separator: "\n").compactMap { line -> (pointer: Substring, line: Substring)? in
            guard let hash = line.firstIndex(of: "#"), let colon = line[hash...].range(of: ": ") else { return nil }
            return (line[line.index(after: hash)..<colon.lowerBound], line)
        }
        let found = lines.first { $0.pointer == tokenPointer } ?? lines.first { $0.pointer.hasSuffix(tokenPointer) }
        return found.map { String($0.line) }
    }

    private func resolver(_ context: RequestContext) throws -> Response {
        let chain = try context.chain()
        guard let owner = library.index.reader.tokenOwner(in: chain), let document = try library.index.reader.resolverDocument(of: owner) else {
            throw APIError.notFound("theme \(chain.first?.name ?? "") has no design tokens")
        }
        return Self.answer(document)
    }

    /// A stored document as served: the DTCG media type, an ETag of its bytes.
    static func answer(_ body: String) -> Response {
        let bytes = Array(body.utf8) + [UInt8(ascii: "\n")]
        return Response(status: .ok, headers: [.contentType: "application/design-tokens+json; charset=utf-8", .cacheControl: "public, max-age=10",
                                               .eTag: ContentResponse.etag(ContentHash.of(bytes))], body: bytes)
    }
}
