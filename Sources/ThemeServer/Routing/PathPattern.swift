/// A route's path, as written in the route table: literal segments, `{name}` for one segment,
/// and a last `{name...}` for the rest of the path (one or more segments joined by `/`),
/// optionally with a suffix the rest must end with (`{name...}.json`).
struct PathPattern: Sendable, CustomStringConvertible {
    enum Segment: Sendable {
        case literal(String)
        case parameter(String)
        case rest(String, suffix: String)
    }

    let segments: [Segment]
    let description: String

    init(_ pattern: String) {
        description = pattern
        segments = pattern.split(separator: "/").map { part in
            guard part.hasPrefix("{"), let close = part.firstIndex(of: "}") else { return .literal(String(part)) }
            let name = part[part.index(after: part.startIndex)..<close]
            let suffix = String(part[part.index(after: close)...])
            return name.hasSuffix("...") ? .rest(String(name.dropLast(3)), suffix: suffix) : .parameter(String(name))
        }
    }

    /// Whether `path` can match: its length and literal segments, checked without capturing
    /// anything (most routes a request is tried against fail here, and allocate nothing).
    func fits(_ path: [String]) -> Bool {
        guard case .rest = segments.last else {
            guard segments.count == path.count else { return false }
            return zip(segments, path).allSatisfy { segment, part in
                if case .literal(let text) = segment { return text == part }
                return true
            }
        }
        guard path.count >= segments.count else { return false }
        return zip(segments.dropLast(), path).allSatisfy { segment, part in
            if case .literal(let text) = segment { return text == part }
            return true
        }
    }

    /// The parameters captured from `path` (its segments), or nil when the path does not match.
    func match(_ path: [String]) -> PathParameters? {
        var parameters = PathParameters()
        for (index, segment) in segments.enumerated() {
            switch segment {
            case .literal(let text):
                guard index < path.count, path[index] == text else { return nil }
            case .parameter(let name):
                guard index < path.count else { return nil }
                parameters.append(name, path[index])
            case .rest(let name, let suffix):
                guard index < path.count else { return nil }
                let rest = path[index...].joined(separator: "/")
                guard rest.hasSuffix(suffix), rest.count > suffix.count else { return nil }
                parameters.append(name, String(rest.dropLast(suffix.count)))
                return parameters
            }
        }
        return segments.count == path.count ? parameters : nil
    }
}

/// What a path pattern captured, in the pattern's order: one to three names a route, looked up
/// by comparing them, not hashing (every routed request makes one).
struct PathParameters: Sendable {
    private var captured: [(name: String, value: String)] = []

    mutating func append(_ name: String, _ value: String) {
        captured.append((name, value))
    }

    subscript(name: String) -> String? {
        captured.first { $0.name == name }?.value
    }
}
