import JSON
import ThemeVocabulary

/// What Tokens Studio computes in a value, which the Format module does not: arithmetic over
/// aliases (`{space.base} * 2`, evaluated by `TokenMath`) and colour modifiers (`ColorModifier`).
/// Read only in a Tokens Studio folder's sets; a DTCG file's `{a} * 2` stays what the spec says.
extension AliasResolver {
    /// Whether `text` asks for arithmetic: an alias among other text, or operators between numbers.
    static func isArithmetic(_ text: String) -> Bool {
        guard text.utf8.count <= TokenMath.maximumLength else { return false }
        return (text.contains("{") && TokenPath(alias: text) == nil) || TokenMath.looksLikeExpression(text)
    }

    /// `text` with each alias replaced by its token's number or length, evaluated; nil when it
    /// cannot be (said as a problem of `token`).
    mutating func evaluate(_ text: String, of token: RawToken) -> TokenMath.Quantity? {
        var expression = ""
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{") {
            expression += rest[..<open]
            guard let close = rest[open...].firstIndex(of: "}") else { _ = fail(token, "\(text): a { without its }"); return nil }
            let alias = String(rest[open...close])
            guard let target = TokenPath(alias: alias), raw[target] != nil else { _ = fail(token, "alias \(alias) in \(text) names no token"); return nil }
            guard let resolvedTarget = resolve(target) else {
                if resolved[token.path] == nil { _ = fail(token, "alias \(alias) in \(text) names a token that cannot be resolved") }
                return nil
            }
            guard let operand = Self.operand(resolvedTarget.value) else { _ = fail(token, "alias \(alias) in \(text) is no number or length"); return nil }
            expression += "(" + operand + ")"
            rest = rest[rest.index(after: close)...]
        }
        expression += rest
        guard let quantity = TokenMath.evaluate(expression) else {
            _ = fail(token, "\(text) is no arithmetic Tokens Studio evaluates (read as \(expression))")
            return nil
        }
        return quantity
    }

    /// A resolved value as text of an expression: a number, or a length with its unit.
    static func operand(_ value: JSONValue) -> String? {
        if let number = TokenValidation.number(value) { return "\(number)" }
        if let number = value["value"].flatMap(TokenValidation.number), case .string(let unit)? = value["unit"], TokenMath.units.contains(unit) {
            return "\(number)\(unit)"
        }
        if case .string(let text) = value, TokenMath.evaluate(text) != nil { return text }
        return nil
    }

    /// An evaluated quantity as a value of `type`; with no type (inside a composite value), a
    /// length when it has a unit, else a number.
    static func value(of quantity: TokenMath.Quantity, as type: TokenType?) -> JSONValue? {
        switch type {
        case .dimension?: .object([("value", .double(quantity.value)), ("unit", .string(quantity.unit ?? "px"))])
        case .duration?: .object([("value", .double(quantity.value)), ("unit", .string(quantity.unit ?? "ms"))])
        case .number?: .double(quantity.value)
        case .fontWeight?: .int(Int(quantity.value.rounded()))
        case nil: quantity.unit.map { .object([("value", .double(quantity.value)), ("unit", .string($0))]) } ?? .double(quantity.value)
        default: nil
        }
    }

    /// `value` (a resolved colour) with the colour modifier `modify` applied; nil when the
    /// modifier cannot be used (said as a problem of `token`).
    mutating func modified(_ value: JSONValue, by modify: JSONValue, of token: RawToken) -> JSONValue? {
        guard let color = TokenValidation.cssColor(value) else { _ = fail(token, "a colour modifier needs a colour value"); return nil }
        guard let modify = replacingAliases(in: modify, of: token) else { return nil }
        var other: CSSColor?
        if let given = modify["color"] {
            other = TokenValidation.cssColor(DraftValues.upgraded(given, as: .color)?.value ?? given)
        }
        switch ColorModifier.parse(modify, color: other) {
        case .success(let modifier): return modifier.applied(to: color)
        case .failure(let failure): _ = fail(token, "$extensions[\"studio.tokens\"].\(failure.reason)"); return nil
        }
    }
}
