import Foundation
import Hashing
import ImageCoders

/// Which image transforms a request may ask (`imageTransforms`, `imagePresets`,
/// `imageSigningKeys`): presets by name for anyone; `w`, `h`, `fit`, `q` and `format` by the rule.
public struct ImageTransformPolicy: Sendable {
    public var rule: ImageTransformRule
    public var presets: [String: ImagePreset]
    public var signingKeys: [String]

    public init(rule: ImageTransformRule = .open, presets: [String: ImagePreset] = [:], signingKeys: [String] = []) {
        (self.rule, self.presets, self.signingKeys) = (rule, presets, signingKeys)
    }

    /// The parameters that make a transform (`format=auto` does not: it only picks among the
    /// formats of the client's Accept, a few per image).
    static let parameters = ["w", "h", "fit", "q", "format"]

    static func asksTransform(_ query: [String: String]) -> Bool {
        parameters.contains { name in query[name].map { name != "format" || $0 != "auto" } ?? false }
    }

    /// Why `target` (path and query as sent) may not have the transform it asks; nil when it may.
    func refusal(of target: String, query: [String: String]) -> String? {
        guard Self.asksTransform(query) else { return nil }
        let presetNames = presets.keys.sorted()
        let presetHint = presetNames.isEmpty ? "" : "; presets: \(presetNames.joined(separator: ", ")) (?preset=NAME)"
        switch rule {
        case .open:
            return nil
        case .presets:
            return "imageTransforms is \"presets\": w, h, fit, q and format are not taken\(presetHint)"
        case .signed:
            if ImageSignature.isValid(target, keys: signingKeys) { return nil }
            let why = query["sig"] == nil ? "no sig=" : "sig= is not a valid signature of this path and query"
            return "imageTransforms is \"signed\": w, h, fit, q and format need a valid sig= (themed sign PATH), and this has \(why)\(presetHint)"
        }
    }
}

/// `sig=`: the HMAC-SHA-256 of the path and query as sent (without `sig` itself), in base64url
/// without padding, as imgproxy and thumbor sign theirs.
public enum ImageSignature {
    /// `target` with its signature by `key` appended as the last parameter.
    public static func sign(_ target: String, key: String) -> String {
        let message = unsigned(target).message
        return message + (message.contains("?") ? "&" : "?") + "sig=" + tag(message, key: key)
    }

    /// Whether `target` carries a signature by any of `keys` (several: a rotation in progress).
    public static func isValid(_ target: String, keys: [String]) -> Bool {
        let (message, signature) = unsigned(target)
        guard let signature, let given = decode(signature) else { return false }
        return keys.contains { HMAC.equal(HMAC.sha256(key: Array($0.utf8), message: Array(message.utf8)), given) }
    }

    /// The target without its `sig` parameter, and that parameter's value.
    static func unsigned(_ target: String) -> (message: String, signature: String?) {
        guard let mark = target.firstIndex(of: "?") else { return (target, nil) }
        var signature: String?
        var kept: [Substring] = []
        for parameter in target[target.index(after: mark)...].split(separator: "&", omittingEmptySubsequences: false) {
            if parameter.hasPrefix("sig=") { signature = String(parameter.dropFirst(4)) } else { kept.append(parameter) }
        }
        let path = String(target[..<mark])
        return (kept.isEmpty ? path : path + "?" + kept.joined(separator: "&"), signature)
    }

    static func tag(_ message: String, key: String) -> String {
        Data(HMAC.sha256(key: Array(key.utf8), message: Array(message.utf8))).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    static func decode(_ text: String) -> [UInt8]? {
        guard text.count == 43 else { return nil }
        let standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/") + "="
        return Data(base64Encoded: standard).map { Array($0) }
    }
}
