import Foundation

/// Arithmetic in a token's value as Tokens Studio evaluates it (`{space.base} * 2`,
/// `max({a}, 4px)`, `roundTo({size} / 3, 2)`), once its aliases are replaced by their values:
/// numbers with at most one unit among them (the result takes it), `+ - * /`, parentheses and
/// the functions Tokens Studio's evaluator offers. Untrusted text: its length and nesting are
/// capped, and anything else is no expression (nil), never a guess.
enum TokenMath {
    struct Quantity: Equatable {
        var value: Double
        var unit: String?
    }

    static let maximumLength = 1_000
    static let maximumDepth = 64
    static let units = ["px", "rem", "em", "%", "pt", "dp", "ms", "s"]
    /// The functions an expression may call.
    static let functionNames: Set<String> = ["min", "max", "roundTo", "round", "floor", "ceil", "abs", "sqrt", "pow"]

    /// Whether `text` is meant as arithmetic rather than a plain string: an operator or a
    /// function between operands.
    static func looksLikeExpression(_ text: String) -> Bool {
        guard text.count <= maximumLength else { return false }
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if ["min(", "max(", "roundTo(", "round(", "floor(", "ceil(", "abs(", "sqrt(", "pow("].contains(where: trimmed.hasPrefix) { return true }
        // A leading minus is a negative number, not an operator.
        return trimmed.dropFirst().contains { "+-*/".contains($0) } && evaluate(trimmed) != nil
    }

    /// The value of `text`, or nil when it is not an expression of numbers in one unit.
    static func evaluate(_ text: String) -> Quantity? {
        guard text.utf8.count <= maximumLength else { return nil }
        var parser = Parser(characters: Array(text))
        guard let result = parser.expression(depth: 0) else { return nil }
        parser.skipSpaces()
        guard parser.position == parser.characters.count, result.value.isFinite else { return nil }
        return result
    }

    struct Parser {
        let characters: [Character]
        var position = 0

        mutating func skipSpaces() {
            while position < characters.count, characters[position] == " " { position += 1 }
        }

        mutating func take(_ character: Character) -> Bool {
            skipSpaces()
            guard position < characters.count, characters[position] == character else { return false }
            position += 1
            return true
        }

        mutating func expression(depth: Int) -> Quantity? {
            guard depth < TokenMath.maximumDepth, var result = term(depth: depth) else { return nil }
            while true {
                if take("+") { guard let next = term(depth: depth), let sum = combine(result, next, +) else { return nil }; result = sum }
                else if take("-") { guard let next = term(depth: depth), let difference = combine(result, next, -) else { return nil }; result = difference }
                else { return result }
            }
        }

        mutating func term(depth: Int) -> Quantity? {
            guard var result = factor(depth: depth) else { return nil }
            while true {
                if take("*") { guard let next = factor(depth: depth), let product = combine(result, next, *) else { return nil }; result = product }
                else if take("/") {
                    guard let next = factor(depth: depth), next.value != 0, let quotient = combine(result, next, /) else { return nil }
                    result = quotient
                } else { return result }
            }
        }

        mutating func factor(depth: Int) -> Quantity? {
            skipSpaces()
            if take("-") { return factor(depth: depth + 1).map { Quantity(value: -$0.value, unit: $0.unit) } }
            if take("+") { return factor(depth: depth + 1) }
            if take("(") {
                guard let inner = expression(depth: depth + 1), take(")") else { return nil }
                return inner
            }
            if position < characters.count, characters[position].isLetter { return function(depth: depth) }
            return number()
        }

        mutating func number() -> Quantity? {
            skipSpaces()
            let start = position
            while position < characters.count, characters[position].isNumber || characters[position] == "." { position += 1 }
            guard position > start, let value = Double(String(characters[start..<position])) else { return nil }
            for unit in TokenMath.units.sorted(by: { $0.count > $1.count }) {
                let end = position + unit.count
                if end <= characters.count, String(characters[position..<end]) == unit {
                    // `s` of `sqrt` is no unit: a unit ends where a name would go on.
                    if end < characters.count, characters[end].isLetter { continue }
                    position = end
                    return Quantity(value: value, unit: unit)
                }
            }
            return Quantity(value: value, unit: nil)
        }

        mutating func function(depth: Int) -> Quantity? {
            let start = position
            while position < characters.count, characters[position].isLetter { position += 1 }
            let name = String(characters[start..<position])
            guard take("(") else { return nil }
            var arguments: [Quantity] = []
            repeat {
                guard arguments.count < 64, let argument = expression(depth: depth + 1) else { return nil }
                arguments.append(argument)
            } while take(",")
            guard take(")"), let first = arguments.first else { return nil }
            let units = Set(arguments.compactMap(\.unit))
            guard units.count <= 1 else { return nil }
            let unit = units.first
            let values = arguments.map(\.value)
            switch (name, values.count) {
            case ("min", _): return Quantity(value: values.min() ?? 0, unit: unit)
            case ("max", _): return Quantity(value: values.max() ?? 0, unit: unit)
            case ("roundTo", 1), ("round", 1): return Quantity(value: first.value.rounded(), unit: unit)
            case ("roundTo", 2):
                guard values[1] >= 0, values[1] <= 15 else { return nil }
                let scale = pow10(Int(values[1]))
                return Quantity(value: (first.value * scale).rounded() / scale, unit: unit)
            case ("floor", 1): return Quantity(value: first.value.rounded(.down), unit: unit)
            case ("ceil", 1): return Quantity(value: first.value.rounded(.up), unit: unit)
            case ("abs", 1): return Quantity(value: abs(first.value), unit: unit)
            case ("sqrt", 1) where first.value >= 0: return Quantity(value: first.value.squareRoot(), unit: unit)
            default: return nil
            }
        }

        func pow10(_ exponent: Int) -> Double { (0..<exponent).reduce(1.0) { value, _ in value * 10 } }

        /// Two operands in at most one unit between them (a number scales a length).
        func combine(_ left: Quantity, _ right: Quantity, _ operation: (Double, Double) -> Double) -> Quantity? {
            if let a = left.unit, let b = right.unit, a != b { return nil }
            return Quantity(value: operation(left.value, right.value), unit: left.unit ?? right.unit)
        }
    }
}
