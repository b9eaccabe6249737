import Foundation
import JSON
import ThemeVocabulary

/// Follows aliases: a `$value` that is `{a.b}` takes that token's resolved value (and its type,
/// when it has none of its own); `{a.b}` inside a composite value (a shadow's colour, a stroke's
/// dashes) is replaced the same way. A loop, a missing target or a value that does not fit its
/// type is a problem for that token (and, for a loop, for every token in it).
struct AliasResolver {
    let raw: [TokenPath: RawToken]
    /// nil: resolved to a problem.
    var resolved: [TokenPath: ResolvedToken?] = [:]
    var problems: [TokenProblem] = []
    /// What was read anew to serve a token (`DraftValues`).
    var warnings: [TokenWarning] = []
    private var resolving: [TokenPath] = []

    /// Tokens Studio's sets also hold arithmetic and colour modifiers (`TokensStudioValues`).
    let dialect: TokenSet.Dialect

    init(raw tokens: [RawToken], dialect: TokenSet.Dialect = .dtcg) {
        raw = Dictionary(tokens.map { ($0.path, $0) }, uniquingKeysWith: { _, last in last })
        self.dialect = dialect
    }

    mutating func resolve(_ path: TokenPath) -> ResolvedToken? {
        if let known = resolved[path] { return known }
        guard let token = raw[path] else { return nil }
        if let start = resolving.firstIndex(of: path) {
            let loop = resolving[start...] + [path]
            for member in Set(loop) where resolved[member] == nil {
                resolved[member] = .some(nil)
                if let location = raw[member]?.location {
                    problems.append(TokenProblem(location, "aliases loop: \(loop.map(\.dotted).joined(separator: " → "))"))
                }
            }
            return nil
        }
        resolving.append(path)
        defer { resolving.removeLast() }
        let result = build(token)
        // A loop found deeper has already settled this token.
        if resolved[path] == nil { resolved[path] = .some(result) }
        return resolved[path] ?? nil
    }

    mutating func fail(_ token: RawToken, _ reason: String) -> ResolvedToken? {
        problems.append(TokenProblem(token.location, reason))
        return nil
    }

    private mutating func build(_ token: RawToken) -> ResolvedToken? {
        var aliasOf: [TokenPath] = []
        var value = token.value
        var type = token.explicitType
        if case .string(let text) = token.value, let target = TokenPath(alias: text) {
            guard raw[target] != nil else { return fail(token, "alias \(text) names no token\(hint(target))") }
            guard let resolvedTarget = resolve(target) else {
                return resolved[token.path] != nil ? nil : fail(token, "alias \(text) names a token that cannot be resolved")
            }
            // A colour token whose value is a gradient CSS writes is that gradient, also where its
            // aliases are typed colour (Tokens Studio keeps gradients among its colours).
            let gradientAsColor = type == .color && resolvedTarget.type == .gradient && DraftValues.isGradientText(resolvedTarget.written)
            if let declared = type, declared != resolvedTarget.type, !gradientAsColor {
                // A number that aliases a length, or a length a number, means its amount.
                guard let crossed = Self.crossing(resolvedTarget.value, from: resolvedTarget.type, to: declared) else {
                    return fail(token, "$type is \(declared) but alias \(text) is a \(resolvedTarget.type) token")
                }
                warnings.append(TokenWarning(token.location, .format, "a \(declared) alias of \(text), a \(resolvedTarget.type) token: \(crossed.note)"))
                (value, type, aliasOf) = (crossed.value, declared, [target] + resolvedTarget.aliasOf)
            } else {
                (value, type, aliasOf) = (resolvedTarget.value, resolvedTarget.type, [target] + resolvedTarget.aliasOf)
            }
        } else if dialect == .tokensStudio, case .string(let text) = token.value, Self.isArithmetic(text), !Self.isInterpolation(text) {
            type = type ?? token.inheritedType
            guard let quantity = evaluate(text, of: token) else { return nil }
            guard let number = Self.value(of: quantity, as: type) else { return fail(token, "\(text) gives a number, which is no \(type?.name ?? "untyped") value") }
            value = number
        } else {
            // The Format module allows references in a composite value's members, not inside a
            // colour's components, a dimension's or duration's value or a Bézier's numbers.
            if let simple = type ?? token.inheritedType, [.color, .dimension, .duration, .cubicBezier].contains(simple), Self.holdsReference(token.value) {
                return fail(token, "a reference inside a \(simple)'s members; a \(simple) is referenced whole (\"{group.token}\")")
            }
            guard let inner = replacingAliases(in: token.value, of: token) else { return nil }
            value = inner
            type = type ?? token.inheritedType
        }
        guard var type else { return fail(token, "has no $type (on it or on a group above it) and is not an alias of a typed token") }
        if type == .color, DraftValues.isGradientText(value) { type = .gradient }
        // What converters write ("#0a0a0a", "16px", 1em, a hex fallback of 8 digits) is read as
        // the value it denotes, and said (an alias's value was read, and said, at its target).
        if let (upgraded, slips) = DraftValues.upgraded(value, as: type) {
            value = upgraded
            warnings += slips.map { TokenWarning(token.location, $0.kind, $0.detail) }
        }
        if dialect == .tokensStudio, type == .color, let modify = token.extensions?["studio.tokens"]?["modify"] {
            guard let modified = modified(value, by: modify, of: token) else { return nil }
            value = modified
        }
        if let reason = TokenValidation.problem(with: value, as: type) { return fail(token, "\(type) value: \(reason)") }
        // Said where it is written, not at each alias of it.
        if type == .color, aliasOf.isEmpty, let note = TokenValidation.rangeNote(value) { warnings.append(TokenWarning(token.location, .format, note)) }
        return ResolvedToken(path: token.path, type: type, value: value, aliasOf: aliasOf, written: token.value, description: token.description,
                             deprecated: token.deprecated, extensions: token.extensions, location: token.location)
    }

    /// Whether an object or array holds a reference (`{a.b}`) anywhere inside.
    static func holdsReference(_ value: JSONValue) -> Bool {
        func inside(_ value: JSONValue) -> Bool {
            switch value {
            case .object(let members): members.contains { inside($0.1) }
            case .array(let elements): elements.contains(where: inside)
            case .string(let text): text.contains("{") && text.contains("}")
            default: false
            }
        }
        switch value {
        case .object, .array: return inside(value)
        default: return false
        }
    }

    /// Whether a string with references in it is text to fill in rather than arithmetic: a word
    /// outside its references that is no unit or function of arithmetic (`inset`, `solid`,
    /// `linear-gradient`, `rgba`).
    static func isInterpolation(_ text: String) -> Bool {
        var outside = "", depth = 0
        for character in text {
            if character == "{" { depth += 1 } else if character == "}" { depth = max(0, depth - 1) } else if depth == 0 { outside.append(character) }
        }
        let words = outside.split { !($0.isLetter || $0 == "-") }.map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "-")) }.filter { !$0.isEmpty }
        return words.contains { !TokenMath.units.contains($0) && !TokenMath.functionNames.contains($0) }
    }

    /// `text` with each `{a.b}` replaced by its token's value as CSS writes it (`16px`, `#0a66cc`,
    /// `1.5`, a name); nil when a reference names nothing or a value that has no such text.
    mutating func interpolated(_ text: String, of token: RawToken) -> String? {
        var result = ""
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{") {
            result += rest[..<open]
            guard let close = rest[open...].firstIndex(of: "}"), let target = TokenPath(alias: String(rest[open...close])) else {
                _ = fail(token, "\"\(text.prefix(80))\": a { without a reference ({group.token}) to its }")
                return nil
            }
            let alias = String(rest[open...close])
            guard raw[target] != nil else { _ = fail(token, "alias \(alias) in \"\(text.prefix(80))\" names no token\(hint(target))"); return nil }
            guard let resolvedTarget = resolve(target) else {
                if resolved[token.path] == nil { _ = fail(token, "alias \(alias) in \"\(text.prefix(80))\" names a token that cannot be resolved") }
                return nil
            }
            guard let css = Self.cssText(resolvedTarget.value) else {
                _ = fail(token, "alias \(alias) in \"\(text.prefix(80))\" is a \(resolvedTarget.type) token, which has no text to put in a string")
                return nil
            }
            result += css
            rest = rest[rest.index(after: close)...]
        }
        result += rest
        warnings.append(TokenWarning(token.location, .cssForm, "references inside a string filled in, as Style Dictionary does: \"\(result.prefix(80))\""))
        return result
    }

    /// A resolved value as CSS writes it: a number, a length or duration with its unit, a colour
    /// (hex in sRGB, else CSS Color 4's function), a name; nil for composite values.
    static func cssText(_ value: JSONValue) -> String? {
        switch value {
        case .string(let text): return text
        case .int, .double: return TokenValidation.number(value).map(numberText)
        default: break
        }
        if let amount = value["value"].flatMap(TokenValidation.number), case .string(let unit)? = value["unit"] {
            return numberText(amount) + unit
        }
        if let color = TokenValidation.cssColor(value) {
            if color.space == .srgb, color.alpha == 1, case .string(let hex)? = value["hex"] { return hex }
            return color.space == .srgb ? color.sRGB.css : color.displayP3.css
        }
        return nil
    }

    /// A number as CSS writes it, whatever the process's locale: `16`, `1.5`.
    static func numberText(_ number: Double) -> String {
        number == number.rounded() && abs(number) < 1e15 ? String(Int(number)) : String(number)
    }

    /// A number token's value as a dimension (px, as Tokens Studio reads a unitless length) or a
    /// dimension's as a number (its amount); nil for other types.
    static func crossing(_ value: JSONValue, from: TokenType, to: TokenType) -> (value: JSONValue, note: String)? {
        switch (from, to) {
        case (.number, .dimension):
            guard let amount = TokenValidation.number(value) else { return nil }
            return (.object([("value", value), ("unit", "px")]), "\(numberText(amount)) read as \(numberText(amount))px")
        case (.dimension, .number):
            guard let amount = value["value"], let number = TokenValidation.number(amount), case .string(let unit)? = value["unit"] else { return nil }
            return (amount, "\(numberText(number))\(unit) read as \(numberText(number))")
        default:
            return nil
        }
    }

    /// A composite value with each `{a.b}` inside replaced by that token's value.
    mutating func replacingAliases(in value: JSONValue, of token: RawToken) -> JSONValue? {
        switch value {
        case .string(let text):
            if dialect == .tokensStudio, TokenPath(alias: text) == nil, Self.isArithmetic(text), !Self.isInterpolation(text) {
                return evaluate(text, of: token).flatMap { Self.value(of: $0, as: nil) }
            }
            guard let target = TokenPath(alias: text) else {
                // References inside a string ("inset 0 0 0 {border.thin} {color.line}"): each
                // replaced by its token's value as CSS writes it, as Style Dictionary does; the
                // string is then read as its type reads text.
                if text.contains(where: { $0 == "{" }), text.contains(where: { $0 == "}" }) {
                    return interpolated(text, of: token).map(JSONValue.string)
                }
                return value
            }
            guard raw[target] != nil else { _ = fail(token, "alias \(text) names no token\(hint(target))"); return nil }
            guard let resolvedTarget = resolve(target) else {
                if resolved[token.path] == nil { _ = fail(token, "alias \(text) names a token that cannot be resolved") }
                return nil
            }
            return resolvedTarget.value
        case .array(let elements):
            var replaced: [JSONValue] = []
            for element in elements {
                guard let next = replacingAliases(in: element, of: token) else { return nil }
                replaced.append(next)
            }
            return .array(replaced)
        case .object(let members):
            var replaced: [(String, JSONValue)] = []
            for (key, member) in members {
                guard let next = replacingAliases(in: member, of: token) else { return nil }
                replaced.append((key, next))
            }
            return .object(replaced)
        default:
            return value
        }
    }

    private func hint(_ target: TokenPath) -> String {
        let near = Set(raw.keys.filter { $0.segments.count == target.segments.count }.map(\.dotted))
        return Spelling.nearest(to: target.dotted, among: near).map { "; did you mean {\($0)}?" } ?? ""
    }
}
