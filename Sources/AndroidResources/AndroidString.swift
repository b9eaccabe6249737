/// A string value as Android's resource compiler reads it: XML-escaped, with Android's own
/// escapes (quotes, apostrophes, backslashes, a leading `@` or `?`, line breaks), and Apple's
/// format specifiers in Java's form (`%@` → `%s`, `%ld` → `%d`), numbered when a string has more
/// than one, as aapt requires.
enum AndroidString {
    static func escaped(_ value: String) -> String {
        var out = ""
        for (index, character) in javaFormat(value).enumerated() {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\\": out += "\\\\"
            case "'": out += "\\'"
            case "\"": out += "\\\""
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "@" where index == 0, "?" where index == 0: out += "\\\(character)"
            default:
                // Control characters are not allowed in XML 1.0.
                if let scalar = character.unicodeScalars.first, character.unicodeScalars.count == 1, scalar.value < 0x20 { continue }
                out.append(character)
            }
        }
        return out
    }

    /// Apple's specifiers in Java's: `@` becomes `s`, length modifiers (`l`, `ll`, `q`, `z`, `h`)
    /// go, `u` becomes `d`; two or more unnumbered specifiers are numbered in order; beside a
    /// specifier, a lone `%` becomes `%%`.
    static func javaFormat(_ value: String) -> String {
        let characters = Array(value)
        var pieces: [(text: String, isSpecifier: Bool, numbered: Bool)] = []
        var index = 0
        var literal = ""
        while index < characters.count {
            guard characters[index] == "%" else {
                literal.append(characters[index])
                index += 1
                continue
            }
            if index + 1 < characters.count, characters[index + 1] == "%" {
                literal += "%%"
                index += 2
                continue
            }
            var end = index + 1
            var position = ""
            while end < characters.count, characters[end].isNumber { position.append(characters[end]); end += 1 }
            let numbered = end < characters.count && characters[end] == "$" && !position.isEmpty
            if numbered { end += 1 } else { end = index + 1; position = "" }
            var flags = ""
            while end < characters.count, "-+ #0.123456789".contains(characters[end]) { flags.append(characters[end]); end += 1 }
            while end < characters.count, "lqzhjt".contains(characters[end]) { end += 1 }
            guard end < characters.count, let conversion = Self.conversions[characters[end]] else {
                // Not a specifier: a percent sign as text.
                literal += "%%"
                index += 1
                continue
            }
            if !literal.isEmpty { pieces.append((literal, false, false)) }
            literal = ""
            pieces.append(("%" + (numbered ? position + "$" : "") + flags + String(conversion), true, numbered))
            index = end + 1
        }
        if !literal.isEmpty { pieces.append((literal, false, false)) }
        // Without a specifier the string is never formatted: its percent signs stay as written.
        guard pieces.contains(where: \.isSpecifier) else { return value }
        let unnumbered = pieces.filter { $0.isSpecifier && !$0.numbered }.count
        guard unnumbered > 1 else { return pieces.map(\.text).joined() }
        var next = 0
        return pieces.map { piece in
            guard piece.isSpecifier, !piece.numbered else { return piece.text }
            next += 1
            return "%\(next)$" + piece.text.dropFirst()
        }.joined()
    }

    static let conversions: [Character: Character] = [
        "@": "s", "s": "s", "d": "d", "i": "d", "u": "d", "f": "f", "e": "e", "g": "g", "x": "x", "X": "X", "o": "o", "c": "c", "a": "a",
    ]
}
