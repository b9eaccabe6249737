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
/// a modifier not given takes its default. Every resolution is read from the index as the sync
/// stored it: a request resolves nothing.
struct TokenRoutes: RouteCollection {
    let library: ThemeLibrary

    var routes: [Route] {
        [
            .get("/themes/{theme}/tokens", label: "tokens", cacheable: true) { try document($0) },
            .get("/themes/{theme}/tokens.resolver.json", label: "tokens", cacheable: true) { try resolver($0) },
            .get("/themes/{theme}/tokens/{path...}", label: "token", cacheable: true) { try token($0) },
        ]
    }

    /// The chain's token owner and the resolution the query asks for.
    private func resolution(_ context: RequestContext) throws -> (IndexReader.TokenOwner, String) {
        let chain = try context.chain()
        guard let owner = library.index.reader.tokenOwner(in: chain) else {
            throw APIError.notFound("theme \(chain.first?.name ?? "") has no design tokens (*.tokens.json files in its folder)")
        }
        switch TokenModifier.resolution(context.request.query.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }, of: owner.source.modifiers) {
        case .success(let key): return (owner, key)
        case .failure(let error): throw APIError.badRequest(error.message)
        }
    }

    private func document(_ context: RequestContext) throws -> Response {
        let (owner, key) = try resolution(context)
        guard let body = try library.index.reader.tokenDocument(of: owner, resolution: key) else {
            throw APIError.notFound("the resolution \(key.isEmpty ? "of these tokens" : key) is not kept (a resolver keeps at most 64)")
        }
        return Self.answer(body)
    }

    private func token(_ context: RequestContext) throws -> Response {
        let (owner, key) = try resolution(context)
        let path = context.parameter("path").split(separator: "/").joined(separator: ".")
        guard let body = try library.index.reader.token(of: owner, resolution: key, path: path) else {
            if let refusal = Self.refusal(of: path, in: owner.source.error) {
                throw APIError(status: .notFound, code: "token_refused", message: "token \(path) of \(owner.theme.name) cannot be served: \(refusal)")
            }
            let paths = try library.index.reader.tokenPaths(of: owner, resolution: key)
            let hint = Spelling.nearest(to: path, among: paths).map { "; did you mean \($0)?" } ?? ""
            throw APIError.notFound("no token \(path) in \(owner.theme.name)\(hint)")
        }
        return Self.answer(body)
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
