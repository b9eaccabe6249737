import JSON

/// A Tokens Studio token set made a DTCG 2025.10 group tree, so that the Format module reads it:
/// its keys of before DTCG (`value`, `type`, `description`) read as `$value`, `$type`,
/// `$description` (one warning per file); its types mapped to DTCG's (`fontSizes` is a
/// dimension, `boxShadow` a shadow, ...); its own value forms (unitless lengths are px, `Bold` is
/// 700, `50%` opacity is 0.5, a shadow's `x` is `offsetX`) written as DTCG values. Aliases and
/// arithmetic are left for the resolution (`AliasResolver`, `TokenMath`), colour modifiers too.
enum TokensStudioSet {
    /// Tokens Studio's types, as DTCG types.
    static let types: [String: String] = [
        "color": "color", "fontFamilies": "fontFamily", "fontWeights": "fontWeight", "fontSizes": "dimension",
        "letterSpacing": "dimension", "paragraphSpacing": "dimension", "paragraphIndent": "dimension", "borderWidth": "dimension",
        "borderRadius": "dimension", "spacing": "dimension", "sizing": "dimension", "dimension": "dimension", "opacity": "number",
        "number": "number", "boxShadow": "shadow", "typography": "typography", "border": "border", "duration": "duration",
        "fontFamily": "fontFamily", "fontWeight": "fontWeight", "shadow": "shadow",
    ]

    /// The set's tree in DTCG's form, and the warnings of `file` (at most one per kind).
    static func normalized(_ root: JSONValue, file: String) -> (root: JSONValue, warnings: [TokenWarning]) {
        var notes = Notes()
        let tree = group(root, path: [], notes: &notes)
        var warnings: [TokenWarning] = []
        if let first = notes.olderKeys.first {
            let more = notes.olderKeys.count > 1 ? " and \(notes.olderKeys.count - 1) more tokens" : ""
            warnings.append(TokenWarning(TokenLocation(file: file, pointer: first), .studioKeys,
                                         "value, type and description (Tokens Studio's keys before DTCG) read as $value, $type and $description here\(more)"))
        }
        if let first = notes.beside.first {
            let keys = Set(notes.beside.flatMap(\.keys)).sorted().map { "\"\($0)\"" }.joined(separator: ", ")
            let more = notes.beside.count > 1 ? " and \(notes.beside.count - 1) more tokens" : ""
            warnings.append(TokenWarning(TokenLocation(file: file, pointer: first.pointer), .besideValue,
                                         "\(keys) beside the value: no token, kept under $extensions[\"org.themed.beside\"] here\(more)"))
        }
        return (tree, warnings)
    }

    /// What reading one set noticed, for its warnings: the tokens in the older keys, and those
    /// with keys beside their value.
    struct Notes {
        var olderKeys: [String] = []
        var beside: [(pointer: String, keys: [String])] = []
    }

    /// Whether `value` is a token or holds one (an object with a `value` or `$value` inside).
    static func isToken(_ value: JSONValue) -> Bool {
        guard case .object(let members) = value else { return false }
        return value["$value"] != nil || isOlderToken(value) || members.contains { isToken($0.1) }
    }

    /// Whether `value` is a token in the older form: `value` beside `type`, or a `value` that is
    /// no group (a group may have a member named `value`).
    static func isOlderToken(_ value: JSONValue) -> Bool {
        guard case .object = value, value["$value"] == nil, let inner = value["value"] else { return false }
        if value["type"] != nil { return true }
        guard case .object(let members) = inner else { return true }
        return !members.contains { $0.1["value"] != nil || $0.1["$value"] != nil }
    }

    static func group(_ value: JSONValue, path: [String], notes: inout Notes) -> JSONValue {
        guard case .object(let members) = value else { return value }
        if value["$value"] != nil || isOlderToken(value) { return token(value, path: path, notes: &notes) }
        return .object(members.map { key, member in
            switch key {
            case "$type": (key, member.stringValue.map { .string(types[$0] ?? $0) } ?? member)
            case let name where name.hasPrefix("$"): (key, member)
            default: (key, group(member, path: path + [key], notes: &notes))
            }
        })
    }

    static func token(_ value: JSONValue, path: [String], notes: inout Notes) -> JSONValue {
        guard case .object(let members) = value else { return value }
        var token: [(String, JSONValue)] = []
        var studioType: String?
        var raw: JSONValue = .null
        var beside: [(String, JSONValue)] = []
        for (key, member) in members {
            switch key {
            case "value", "$value": raw = member
            case "type", "$type": studioType = member.stringValue
            case "description": token.append(("$description", member))
            // What a team keeps beside an older-form token's value (`deprecatedValues`, a
            // comment) is no token of its own: kept with the token, under its extensions.
            case let name where !name.hasPrefix("$") && value["$value"] == nil && !isToken(member): beside.append((key, member))
            default: token.append((key, member))
            }
        }
        if !beside.isEmpty {
            var extensions: [(String, JSONValue)] = []
            if let index = token.firstIndex(where: { $0.0 == "$extensions" }), case .object(let given) = token.remove(at: index).1 { extensions = given }
            extensions.append(("org.themed.beside", .object(beside)))
            notes.beside.append((TokenPath(path).pointer, beside.map(\.0)))
            token.append(("$extensions", .object(extensions)))
        }
        if value["$value"] == nil { notes.olderKeys.append(TokenPath(path).pointer) }
        let (type, converted) = convert(raw, studioType: studioType)
        var result: [(String, JSONValue)] = [("$value", converted)]
        if let type { result.append(("$type", .string(type))) }
        // What a typography value holds beyond DTCG's five members is kept beside it.
        if studioType == "typography", case .object(let written) = raw {
            let extra = written.filter { !["fontFamily", "fontWeight", "fontSize", "letterSpacing", "lineHeight"].contains($0.0) }
            if !extra.isEmpty {
                var extensions: [(String, JSONValue)] = []
                if let index = token.firstIndex(where: { $0.0 == "$extensions" }), case .object(let given) = token.remove(at: index).1 { extensions = given }
                var studio: [(String, JSONValue)] = []
                if let index = extensions.firstIndex(where: { $0.0 == "studio.tokens" }), case .object(let given) = extensions.remove(at: index).1 { studio = given }
                extensions.append(("studio.tokens", .object(studio + [("typography", .object(extra))])))
                token.append(("$extensions", .object(extensions)))
            }
        }
        return .object(result + token)
    }

    /// A value of a Tokens Studio type as the DTCG type it maps to, and that type.
    static func convert(_ value: JSONValue, studioType: String?) -> (type: String?, value: JSONValue) {
        guard let studioType else { return (nil, literalColor(value) ?? value) }
        let type = types[studioType] ?? studioType
        if isReference(value) { return (type, value) }
        switch studioType {
        case "color": return (type, literalColor(value) ?? value)
        case "lineHeights":
            // 150% of the font size is a line height of 1.5; a length is a dimension.
            if case .string(let text) = value, text.hasSuffix("%"), let percent = Double(text.dropLast()) { return ("number", .double(percent / 100)) }
            return ("dimension", length(value))
        case "fontWeights", "fontWeight": return (type, weight(value))
        case "number":
            if case .string(let text) = value, let number = Double(text) { return (type, .double(number)) }
            return (type, value)
        case "opacity":
            if case .string(let text) = value, text.hasSuffix("%"), let percent = Double(text.dropLast()) { return (type, .double(percent / 100)) }
            if case .string(let text) = value, let number = Double(text) { return (type, .double(number)) }
            return (type, value)
        case "boxShadow", "shadow":
            if case .array(let layers) = value { return (type, .array(layers.map(shadow))) }
            return (type, shadow(value))
        case "typography": return (type, typography(value))
        // A duration without a unit is in milliseconds, as a length without one is in px.
        case "duration":
            if let number = value.number ?? (value.stringValue.flatMap(Double.init)) {
                return (type, .object([("value", number == number.rounded() && abs(number) < 1e15 ? .int(Int(number)) : .double(number)), ("unit", "ms")]))
            }
            return (type, value)
        case "border": return (type, fields(value) { key, member in key == "width" ? length(member) : key == "color" ? (literalColor(member) ?? member) : member })
        default:
            return types[studioType] == "dimension" ? (type, length(value)) : (type, value)
        }
    }

    /// An alias or arithmetic: left for the resolution.
    static func isReference(_ value: JSONValue) -> Bool {
        guard case .string(let text) = value else { return false }
        return text.contains("{") || TokenMath.looksLikeExpression(text)
    }

    /// A length as Tokens Studio writes it (`8`, `"8"`, `"8px"`, `"1.5rem"`): unitless is px.
    static func length(_ value: JSONValue) -> JSONValue {
        if isReference(value) { return value }
        switch value {
        case .int, .double: return .object([("value", value), ("unit", "px")])
        case .string(let text):
            if let number = Double(text) { return .object([("value", .double(number)), ("unit", "px")]) }
            for unit in ["px", "rem"] where text.hasSuffix(unit) {
                if let number = Double(text.dropLast(unit.count)) { return .object([("value", .double(number)), ("unit", .string(unit))]) }
            }
            return value
        default: return value
        }
    }

    static func weight(_ value: JSONValue) -> JSONValue {
        guard case .string(let text) = value, !isReference(value) else { return value }
        if let number = Int(text) { return .int(number) }
        return FontWeightName.weight(of: text).map { .int($0) } ?? value
    }

    /// `#rrggbb`, `#rrggbbaa` or `#rgb`: Tokens Studio's own form of a colour, read as the drafts'
    /// hex is (`DraftValues`), without the warning a DTCG file gets for it.
    static func literalColor(_ value: JSONValue) -> JSONValue? {
        guard case .string(let text) = value, text.hasPrefix("#") else { return nil }
        return DraftValues.upgraded(value, as: .color)?.value
    }

    static func shadow(_ value: JSONValue) -> JSONValue {
        guard case .object(let members) = value else { return value }
        var result: [(String, JSONValue)] = []
        for (key, member) in members {
            switch key {
            case "x": result.append(("offsetX", length(member)))
            case "y": result.append(("offsetY", length(member)))
            case "blur", "spread", "offsetX", "offsetY": result.append((key, length(member)))
            case "color": result.append((key, literalColor(member) ?? member))
            case "type": result.append(("inset", .bool(member.stringValue == "innerShadow")))
            default: result.append((key, member))
            }
        }
        return .object(result)
    }

    /// A typography value: the five DTCG members converted; Tokens Studio's others
    /// (`paragraphSpacing`, `textCase`, `textDecoration`) are not DTCG's: `token` keeps them
    /// under `$extensions["studio.tokens"].typography`.
    static func typography(_ value: JSONValue) -> JSONValue {
        guard case .object(let members) = value else { return value }
        var result: [(String, JSONValue)] = []
        for (key, member) in members {
            switch key {
            case "fontFamily": result.append((key, member))
            case "fontWeight": result.append((key, weight(member)))
            case "fontSize", "letterSpacing": result.append((key, length(member)))
            case "lineHeight":
                // A percentage of the font size is the ratio; a number in a string ("28") is a
                // length in px, as Tokens Studio's lineHeights are (made a ratio to the font size
                // when resolved); a JSON number is the ratio already, as DTCG writes it.
                if case .string(let text) = member, text.hasSuffix("%"), let percent = Double(text.dropLast()) {
                    result.append((key, .double(percent / 100)))
                } else if case .string = member {
                    result.append((key, length(member)))
                } else {
                    result.append((key, member))
                }
            default: continue
            }
        }
        return .object(result)
    }

    static func fields(_ value: JSONValue, _ convert: (String, JSONValue) -> JSONValue) -> JSONValue {
        guard case .object(let members) = value else { return value }
        return .object(members.map { ($0.0, convert($0.0, $0.1)) })
    }
}

extension JSONValue {
    var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }
}
