import Foundation

/// A `.stringsdict` table (a property list): plural rules for format strings. Each key's
/// `NSStringLocalizedFormatKey` with every `%#@variable@` replaced by that variable's `other`
/// form: the one string the strings routes serve for it (`%d files`). In CFBundle a stringsdict
/// entry wins over the `.strings` entry of the same key.
public struct StringsDictionary: Sendable, Equatable {
    public var entries: [String: String]

    public struct ParseError: Error, CustomStringConvertible, Equatable {
        public var description: String
    }

    public init(bytes: [UInt8]) throws(ParseError) {
        guard bytes.count <= StringsFile.maximumBytes else { throw ParseError(description: "larger than \(StringsFile.maximumBytes >> 20) MiB") }
        let root: Any
        do {
            root = try PropertyListSerialization.propertyList(from: Data(bytes), options: [], format: nil)
        } catch {
            throw ParseError(description: "not a property list")
        }
        guard let table = root as? [String: Any] else { throw ParseError(description: "the root is not a dictionary") }
        entries = [:]
        for (key, rule) in table {
            guard let rule = rule as? [String: Any], let format = rule["NSStringLocalizedFormatKey"] as? String else {
                throw ParseError(description: "\"\(key)\": no NSStringLocalizedFormatKey")
            }
            entries[key] = Self.otherForm(format, rule)
        }
    }

    /// `format` with each `%#@name@` replaced by the `other` string of the variable `name`.
    static func otherForm(_ format: String, _ rule: [String: Any]) -> String {
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
            result += (variable?["other"] as? String) ?? "%#@\(name)@"
            rest = afterStart[afterStart.index(after: end)...]
        }
        return result + rest
    }
}
