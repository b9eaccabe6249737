/// Which client locales a rule takes: a language tag (`fr`, `fr-CA`), compared as tags are
/// (any case, `_` read as `-`), or a tag and `-*` for it and every tag under it (`fr-*`: fr-CA,
/// fr-Latn-CH; not fr itself), or `*` for any.
public struct LocalePattern: Hashable, Sendable, CustomStringConvertible {
    /// The subtags, lower-cased; the pattern's `*` is not among them.
    let subtags: [String]
    let coversDescendants: Bool
    public let description: String

    public init(_ text: String) throws(AudienceError) {
        description = text
        if text == "*" {
            (subtags, coversDescendants) = ([], true)
            return
        }
        var parts = LocalePattern.subtags(of: text)
        coversDescendants = parts.last == "*"
        if coversDescendants { parts.removeLast() }
        guard !parts.isEmpty, parts.allSatisfy(LocalePattern.isSubtag) else {
            throw AudienceError("\"\(text.prefix(40))\" is not a locale pattern: write a language tag (fr, fr-CA), a tag and -* (fr-*), or *")
        }
        subtags = parts
    }

    /// Whether a client's locale (a language tag) is one this pattern takes; a locale that is not
    /// a tag is taken by none but `*`.
    public func matches(_ locale: String) -> Bool {
        let tag = LocalePattern.subtags(of: locale)
        guard !tag.isEmpty, tag.allSatisfy(LocalePattern.isSubtag) else { return subtags.isEmpty && coversDescendants }
        if coversDescendants { return tag.count > subtags.count && Array(tag.prefix(subtags.count)) == subtags || subtags.isEmpty }
        return tag == subtags
    }

    static func subtags(of text: String) -> [String] {
        text.lowercased().split(separator: "-", omittingEmptySubsequences: false).flatMap { $0.split(separator: "_", omittingEmptySubsequences: false) }.map(String.init)
    }

    /// BCP 47: 1 to 8 letters or digits.
    static func isSubtag(_ text: String) -> Bool {
        (1...8).contains(text.count) && text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
    }
}
