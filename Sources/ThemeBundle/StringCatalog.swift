import Foundation

/// An Xcode String Catalog (`.xcstrings`, JSON): every key with its value per language. Xcode
/// turns one into a `.strings` table per `.lproj` when it builds a bundle; themed reads the source
/// the same way, so a theme can ship the catalog itself.
///
/// A value is a `stringUnit`; a key with plural or device variations gives its `other` form (a
/// single string is what the strings routes serve). The source language falls back to the key,
/// as Xcode does for keys it has no explicit value for.
public struct StringCatalog: Sendable, Equatable {
    public var sourceLanguage: String
    /// language -> key -> value
    public var values: [String: [String: String]]
    /// language -> key -> plural category -> value, for keys with plural variations.
    public var forms: [String: [String: [String: String]]] = [:]

    public struct ParseError: Error, CustomStringConvertible, Equatable {
        public var description: String
    }

    public init(bytes: [UInt8]) throws(ParseError) {
        guard bytes.count <= StringsFile.maximumBytes else { throw ParseError(description: "larger than \(StringsFile.maximumBytes >> 20) MiB") }
        let root: [String: Any]
        do {
            guard let object = try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any] else {
                throw ParseError(description: "the top level is not an object")
            }
            root = object
        } catch let error as ParseError {
            throw error
        } catch {
            throw ParseError(description: "not valid JSON")
        }
        guard let source = root["sourceLanguage"] as? String, !source.isEmpty else {
            throw ParseError(description: "field \"sourceLanguage\" is missing")
        }
        guard let strings = root["strings"] as? [String: Any] else { throw ParseError(description: "field \"strings\" is missing or not an object") }
        sourceLanguage = source
        values = [:]
        for (key, entry) in strings {
            let localizations = (entry as? [String: Any])?["localizations"] as? [String: Any] ?? [:]
            for (language, localization) in localizations {
                if let value = Self.value(localization) { values[language, default: [:]][key] = value }
                let plural = ((localization as? [String: Any])?["variations"] as? [String: Any])?["plural"] as? [String: Any] ?? [:]
                let byCategory = plural.compactMapValues { Self.value($0) }
                if !byCategory.isEmpty { forms[language, default: [:]][key] = byCategory }
            }
            if values[source]?[key] == nil { values[source, default: [:]][key] = key }
        }
    }

    /// A `stringUnit`'s value, or the `other` form of a plural or device variation.
    static func value(_ localization: Any) -> String? {
        guard let localization = localization as? [String: Any] else { return nil }
        if let unit = localization["stringUnit"] as? [String: Any], let value = unit["value"] as? String { return value }
        guard let variations = localization["variations"] as? [String: Any] else { return nil }
        for kind in ["plural", "device"] {
            if let forms = variations[kind] as? [String: Any], let other = forms["other"] { return value(other) }
        }
        return nil
    }

    /// The languages the catalog has values for, in byte order.
    public var languages: [String] { values.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) } }
}
