import Foundation
import JSON

/// RFC 6901 pointers into JSON values: `#/colors/blue/$value/components/0`.
public enum JSONPointer {
    public static func escape(_ segment: String) -> String {
        // Most names have neither character: no new string for them.
        guard segment.utf8.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }) else { return segment }
        return segment.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
    }

    /// The segments of a pointer (`/a/b` or `#/a/b`; `#` or `` is the root); nil when it is not
    /// a pointer.
    public static func segments(_ pointer: String) -> [String]? {
        var text = Substring(pointer)
        if text.hasPrefix("#") { text = text.dropFirst() }
        if text.isEmpty { return [] }
        guard text.hasPrefix("/") else { return nil }
        return text.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map {
            String($0).replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
        }
    }

    /// The value at `segments` in `root`, nil when there is none.
    public static func value(at segments: [String], in root: JSONValue) -> JSONValue? {
        var current = root
        for segment in segments {
            switch current {
            case .object: guard let next = current[segment] else { return nil }; current = next
            case .array(let elements):
                guard let index = Int(segment), segment == String(index), elements.indices.contains(index) else { return nil }
                current = elements[index]
            default: return nil
            }
        }
        return current
    }
}
