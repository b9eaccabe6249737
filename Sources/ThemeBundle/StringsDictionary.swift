import Foundation

/// A `.stringsdict` table (a property list): plural rules for format strings. Each key's
/// `NSStringLocalizedFormatKey` with every `%#@variable@` replaced by that variable's `other`
/// form: the string the strings routes serve for it (`%d files`); and per plural category of the
/// first variable, the format with that form (`forms["one"] == "%d file"`), for a request that
/// gives a count. In CFBundle a stringsdict entry wins over the `.strings` entry of the same key.
public struct StringsDictionary: Sendable, Equatable {
    public var entries: [String: String]
    /// Per key, the format per plural category of its first variable.
    public var forms: [String: [String: String]]

    public struct ParseError: Error, CustomStringConvertible, Equatable {
        public var description: String
    }

    public init(bytes: [UInt8]) throws(ParseError) {
        guard bytes.count <= StringsFile.maximumBytes else { throw ParseError(description: "larger than \(StringsFile.maximumBytes >> 20) MiB") }
        let root: Any
        do {
            root = try PropertyList.parse(bytes)
        } catch {
            throw ParseError(description: "not a property list")
        }
        guard let table = root as? [String: Any] else { throw ParseError(description: "the root is not a dictionary") }
        entries = [:]
        forms = [:]
        for (key, rule) in table {
            guard let rule = rule as? [String: Any], let format = rule["NSStringLocalizedFormatKey"] as? String else {
                throw ParseError(description: "\"\(key)\": no NSStringLocalizedFormatKey")
            }
            entries[key] = Self.form(format, rule)
            if let first = Self.variables(format).first, let variable = rule[first] as? [String: Any] {
                var byCategory: [String: String] = [:]
                for category in Self.categories where variable[category] is String {
                    byCategory[category] = Self.form(format, rule, category: (first, category))
                }
                if !byCategory.isEmpty { forms[key] = byCategory }
            }
        }
    }

    public static let categories = ["zero", "one", "two", "few", "many", "other"]

    /// The names of the `%#@name@` variables of `format`, in order.
    static func variables(_ format: String) -> [String] {
        var names: [String] = []
        var rest = Substring(format)
        while let start = rest.range(of: "%#@"), let end = rest[start.upperBound...].firstIndex(of: "@") {
            names.append(String(rest[start.upperBound..<end]))
            rest = rest[rest.index(after: end)...]
        }
        return names
    }

    /// `format` with each `%#@name@` replaced by the variable's string for `category` when it is
    /// the chosen variable, else its `other` string.
    static func form(_ format: String, _ rule: [String: Any], category chosen: (variable: String, category: String)? = nil) -> String {
        var result = ""
        var rest = Substring(format)
        while let start = rest.range(of: "%#@") {
            result += rest[..<start.lowerBound]
            let afterStart = rest[start.upperBound...]
            guard let end = afterStart.firstIndex(of: "@") else {
                rest = rest[start.lowerBound...]
                break
            }
            let name = String(afterStart[..<end])
            let variable = rule[name] as? [String: Any]
            let category = chosen?.variable == name ? chosen?.category ?? "other" : "other"
            result += (variable?[category] as? String) ?? (variable?["other"] as? String) ?? "%#@\(name)@"
            rest = afterStart[afterStart.index(after: end)...]
        }
        return result + rest
    }
}
