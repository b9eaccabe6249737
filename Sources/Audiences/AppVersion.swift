/// An app's version as clients send it (`5.3.1`): numbers compared component by component, so
/// 5.10 comes after 5.2; missing components are 0 (5.2 is 5.2.0). A pre-release or build suffix
/// (`-beta.1`, `+42`) is not compared: a rule names releases.
public struct AppVersion: Comparable, Hashable, Sendable, CustomStringConvertible {
    public let components: [Int]

    /// nil for anything but dot-separated numbers (at most 6, each at most 9 digits).
    public init?(_ text: some StringProtocol) {
        // Read as bytes: a client's version is parsed at every assignment.
        var components: [Int] = []
        components.reserveCapacity(5)
        var (number, digits) = (0, 0)
        for byte in text.utf8 {
            if byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+") { break }
            if byte == UInt8(ascii: ".") {
                guard digits > 0, components.count < 5 else { return nil }
                components.append(number)
                (number, digits) = (0, 0)
                continue
            }
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9"), digits < 9 else { return nil }
            (number, digits) = (number * 10 + Int(byte - UInt8(ascii: "0")), digits + 1)
        }
        guard digits > 0 else { return nil }
        components.append(number)
        self.components = components
    }

    public static func < (left: AppVersion, right: AppVersion) -> Bool {
        for index in 0..<max(left.components.count, right.components.count) {
            let (a, b) = (left.component(index), right.component(index))
            if a != b { return a < b }
        }
        return false
    }

    public static func == (left: AppVersion, right: AppVersion) -> Bool { !(left < right) && !(right < left) }

    public func hash(into hasher: inout Hasher) {
        // Equal versions hash alike: trailing zeros do not count (5.2 == 5.2.0).
        var trimmed = components
        while trimmed.count > 1, trimmed.last == 0 { trimmed.removeLast() }
        hasher.combine(trimmed)
    }

    private func component(_ index: Int) -> Int { index < components.count ? components[index] : 0 }

    public var description: String { components.map(String.init).joined(separator: ".") }
}

/// Which app versions a rule takes: comparisons that must all hold, separated by spaces or
/// commas (`>=5.2`, `>=5.2 <6`, `=5.3.1`; a bare version is `=`).
public struct VersionRange: Hashable, Sendable, CustomStringConvertible {
    public enum Comparison: String, Sendable, CaseIterable {
        case atLeast = ">=", atMost = "<=", above = ">", below = "<", equal = "="
    }

    public let bounds: [(Comparison, AppVersion)]
    public let description: String

    public init(_ text: String) throws(AudienceError) {
        let terms = text.split(whereSeparator: { $0 == " " || $0 == "," })
        guard !terms.isEmpty else { throw AudienceError("an empty version range: write it like \">=5.2\" or \">=5.2 <6\"") }
        var bounds: [(Comparison, AppVersion)] = []
        for term in terms {
            // Longest operator first: ">=" before ">".
            let comparison = [Comparison.atLeast, .atMost, .above, .below, .equal].first { term.hasPrefix($0.rawValue) }
            let number = term.dropFirst(comparison?.rawValue.count ?? 0)
            guard let version = AppVersion(number) else {
                throw AudienceError("\"\(text.prefix(60))\" is not a version range: \"\(term.prefix(30))\" is not an operator (>=, <=, >, <, =) and a version like 5.2")
            }
            bounds.append((comparison ?? .equal, version))
        }
        self.bounds = bounds
        description = terms.joined(separator: " ")
    }

    public func contains(_ version: AppVersion) -> Bool {
        bounds.allSatisfy { comparison, bound in
            switch comparison {
            case .atLeast: version >= bound
            case .atMost: version <= bound
            case .above: version > bound
            case .below: version < bound
            case .equal: version == bound
            }
        }
    }

    public static func == (left: VersionRange, right: VersionRange) -> Bool { left.description == right.description }
    public func hash(into hasher: inout Hasher) { hasher.combine(description) }
}

/// A rule's input that cannot be used, naming what is wrong (answered 422 with it).
public struct AudienceError: Error, Equatable, Sendable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
