/// How an export is written beyond its format: what `themed export`'s flags and the export
/// routes' query choose. The default is each format as it always was.
public struct ExportOptions: Sendable, Equatable {
    /// Design tokens' aliases kept as references where the format can (CSS's `var()`).
    public var references: Bool
    /// CSS: one `:root` block whose colours are `light-dark(light, dark)`, the scheme chosen by
    /// `color-scheme` (`--light-dark`), rather than a block per scheme.
    public var lightDark: Bool
    /// Words put before every name the name rule makes, in the format's style (`ds` gives
    /// `--ds-primary`, `ds_primary`, `$ds-colors`): for a stylesheet or an app that holds other
    /// systems' names too.
    public var prefix: String

    /// Each format as it always was.
    public static let plain = ExportOptions(checked: false, false, "")

    private init(checked references: Bool, _ lightDark: Bool, _ prefix: String) {
        (self.references, self.lightDark, self.prefix) = (references, lightDark, prefix)
    }

    public init(references: Bool = false, lightDark: Bool = false, prefix: String = "") throws(ExportError) {
        guard prefix.isEmpty || Self.isValidPrefix(prefix) else { throw .badPrefix(prefix) }
        (self.references, self.lightDark, self.prefix) = (references, lightDark, prefix)
    }

    /// Whether `format` honours every option chosen; the CLI and the routes refuse the others
    /// rather than write a file that ignores what was asked.
    public func check(for format: ExportFormat) throws(ExportError) {
        if lightDark, format != .css { throw .optionNotFor("light-dark", format, [.css]) }
        if !prefix.isEmpty, !ExportFormat.takingPrefix.contains(format) { throw .optionNotFor("prefix", format, ExportFormat.takingPrefix) }
    }

    /// An ASCII letter, then letters, digits, `-` or `_`, at most 32: what every format's names
    /// can start with.
    static func isValidPrefix(_ prefix: String) -> Bool {
        guard let first = prefix.unicodeScalars.first, prefix.unicodeScalars.count <= 32, first.isASCIILetter else { return false }
        return prefix.unicodeScalars.allSatisfy { $0.isASCIILetter || ("0"..."9").contains($0) || $0 == "-" || $0 == "_" }
    }
}

private extension Unicode.Scalar {
    var isASCIILetter: Bool { ("a"..."z").contains(self) || ("A"..."Z").contains(self) }
}
