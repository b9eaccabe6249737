import ThemeIndex

/// `values/colors.xml` (light) and `values-night/colors.xml` (dark) for Android, in
/// `#AARRGGBB`, names by Android's resource-name rule (`NameStyle.androidResource`). Android has
/// no resource qualifier for increased contrast, and its colour resources are sRGB only, so the
/// high-contrast and P3 modes are not exported here.
///
/// A token theme's other design tokens go beside them (`AndroidTokenResources`): dimensions in
/// `dimens.xml`, whole numbers, durations and font weights in `integers.xml`, typography as text
/// appearances in `styles.xml`, in `values-night/` only what differs in dark.
public struct AndroidExport: Sendable {
    public let table: ColorTable
    public let names: ExportNames
    public let tokens: AndroidTokenResources

    public init(_ table: ColorTable, tokens: TokenTable = .empty, prefix: String = "") {
        self.table = table
        names = ExportNames(table.rows.map(\.name), style: .androidResource, prefix: prefix)
        self.tokens = AndroidTokenResources(tokens, theme: table.theme, revision: table.revision, prefix: prefix)
    }

    public var files: [ExportFile] {
        [("values/colors.xml", ColorMode.light), ("values-night/colors.xml", ColorMode.dark)].map { path, mode in
            ExportFile(path: path, contents: document(mode), mediaType: "application/xml; charset=utf-8")
        } + tokens.files
    }

    private func document(_ mode: ColorMode) -> String {
        var out = "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
        for line in CommentText.header(table, names: names, modes: [mode]) { out += "<!-- \(CommentText.xml(line)) -->\n" }
        out += "<resources>\n"
        for row in table.rows {
            guard let entry = row.values[mode] else { continue }
            if names[row.name] != row.name { out += "    <!-- \(CommentText.xml(row.name)) -->\n" }
            out += "    <color name=\"\(names[row.name])\">\(Self.argb(entry.value.hex))</color>\n"
        }
        return out + "</resources>\n"
    }

    /// `#RRGGBBAA` as Android writes it: `#AARRGGBB`.
    static func argb(_ hex: String) -> String {
        let digits = hex.dropFirst()
        return "#" + digits.suffix(2) + digits.prefix(6)
    }
}
