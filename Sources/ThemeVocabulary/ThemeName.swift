/// The names themes go by: they are URL path segments and folder names, so only letters, digits,
/// `-`, `_` and `.`, at most 100 of them, not starting with `.`.
public enum ThemeName {
    /// The rule, as error messages say it.
    public static let rule = "letters, digits, -, _ and ., at most 100, not starting with ."

    public static func isValid(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 100 && !name.hasPrefix(".")
            && name.utf8.allSatisfy { byte in
                (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                    || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
                    || byte == UInt8(ascii: ".")
            }
    }

    /// The folder a cluster replica keeps one of `theme`'s generations in when it is not the one
    /// the theme serves (a rollout's, or one an alias pins): `brand-acme@43`, beside
    /// `brand-acme`. Not a theme name, so no one names a theme so; indexed like a theme, served
    /// only at generation-pinned URLs and never listed.
    public static func pinned(_ theme: String, generation: Generation) -> String { "\(theme)@\(generation)" }

    /// The theme and generation a pinned folder's name stands for; nil for any other name.
    public static func pin(in name: String) -> (theme: String, generation: Generation)? {
        guard let at = name.lastIndex(of: "@"), case let theme = String(name[..<at]), isValid(theme),
              case let digits = name[name.index(after: at)...], !digits.isEmpty, digits.count <= 18,
              digits.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }), let generation = Generation(digits), generation > 0
        else { return nil }
        return (theme, generation)
    }

    /// Whether a folder named `name` in a themes folder is read as a theme: a theme's name, or a
    /// kept generation's (`pinned`). A `.car` there is read under a theme's name only.
    public static func isThemeFolder(_ name: String) -> Bool {
        isValid(name) || pin(in: name) != nil
    }

    /// Sorts names as a person reads them: runs of digits by their value, so `brand-4` comes
    /// before `brand-11`; otherwise by bytes, case first ignored.
    public static func naturalOrder(_ left: String, _ right: String) -> Bool {
        var (a, b) = (Array(left.utf8)[...], Array(right.utf8)[...])
        func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
        func lowered(_ byte: UInt8) -> UInt8 { byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte }
        while let x = a.first, let y = b.first {
            if isDigit(x) && isDigit(y) {
                let runA = a.prefix(while: isDigit), runB = b.prefix(while: isDigit)
                let digitsA = runA.drop(while: { $0 == UInt8(ascii: "0") }), digitsB = runB.drop(while: { $0 == UInt8(ascii: "0") })
                if digitsA.count != digitsB.count { return digitsA.count < digitsB.count }
                if !digitsA.elementsEqual(digitsB) { return digitsA.lexicographicallyPrecedes(digitsB) }
                a = a.dropFirst(runA.count)
                b = b.dropFirst(runB.count)
            } else {
                if lowered(x) != lowered(y) { return lowered(x) < lowered(y) }
                a = a.dropFirst()
                b = b.dropFirst()
            }
        }
        if a.isEmpty != b.isEmpty { return a.isEmpty }
        // Equal but for case or leading zeros: the bytes decide, so that the order is total.
        return left.utf8.lexicographicallyPrecedes(right.utf8)
    }
}

/// The known name nearest to a mistyped one, for "did you mean" hints: at most two edits away,
/// case ignored; nil when none is that close.
public enum Spelling {
    public static func nearest(to word: String, among names: some Sequence<String>) -> String? {
        let scored = names.map { ($0, editDistance(Array($0.lowercased()), Array(word.lowercased()))) }
        guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= 2 else { return nil }
        return best.0
    }

    /// Levenshtein distance: insertions, deletions and substitutions.
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        var previous = Array(0...b.count)
        for (i, left) in a.enumerated() {
            var current = [i + 1]
            for (j, right) in b.enumerated() {
                current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (left == right ? 0 : 1)))
            }
            previous = current
        }
        return previous[b.count]
    }
}
