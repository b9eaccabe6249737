import JSON
import ThemeIndex

/// `theme.css`: the theme for Tailwind CSS v4, whose configuration is CSS. After
/// `@import "tailwindcss";`, `@import "./theme.css";` gives every colour a utility
/// (`bg-primary`, `text-primary`) and every token of a type Tailwind has a namespace for its
/// own (`p-lg`, `rounded-md`, `font-body`, `shadow-card`, `ease-standard`, `text-body` with its
/// line height, letter spacing and weight).
///
/// - the light values are the `@theme` block (Tailwind's variables, which its utilities read);
/// - dark values restate those variables under `@media (prefers-color-scheme: dark)` and for
///   `[data-theme="light"]` / `[data-theme="dark"]`, as the CSS export does, so every utility
///   follows the scheme without a `dark:` of its own;
/// - `@custom-variant dark` makes `dark:` follow the same rule: the system's scheme unless
///   `data-theme` forces one;
/// - the P3 and high-contrast blocks are the CSS export's.
///
/// Names are the CSS export's rule over the namespace and the name (`--color-primary`,
/// `--spacing-space-lg`); a token of a type Tailwind has no namespace for (durations, numbers,
/// borders, gradients, transitions) keeps its plain name and is a variable only.
public struct TailwindExport: Sendable {
    let css: CSSExport

    public init(_ table: ColorTable, tokens: TokenTable = .empty, prefix: String = "") {
        css = CSSExport(table, tokens: tokens, references: false, lightDark: false, prefix: prefix, tailwind: true)
    }

    public var file: ExportFile {
        let intro = "/* Tailwind CSS v4: @import \"tailwindcss\"; then @import \"./theme.css\"; */\n"
        return ExportFile(path: "theme.css", contents: intro + css.text, mediaType: "text/css; charset=utf-8")
    }

    /// `dark:` as the theme's own scheme rule: the system's dark unless an ancestor (or the
    /// element) says `data-theme="light"`, and wherever one says `data-theme="dark"`.
    static let darkVariant = """
        @custom-variant dark {
          @media (prefers-color-scheme: dark) {
            &:not(:where([data-theme="light"], [data-theme="light"] *)) {
              @slot;
            }
          }
          &:where([data-theme="dark"], [data-theme="dark"] *) {
            @slot;
          }
        }

        """

    /// Tailwind's theme namespace for a token (`spacing`, `radius`, `font`, ...), by its type
    /// and, for a dimension, the words of its path (a `radius` is a radius, a `breakpoint` a
    /// breakpoint); nil for a type Tailwind has none for.
    static func namespace(type: String, path: String) -> String? {
        let words = Set(NameStyle.words(of: path).map { $0.lowercased() })
        switch type {
        case "dimension":
            if !words.isDisjoint(with: ["radius", "radii", "rounded", "corner", "corners"]) { return "radius" }
            if !words.isDisjoint(with: ["breakpoint", "breakpoints", "screen", "screens"]) { return "breakpoint" }
            if !words.isDisjoint(with: ["tracking", "letter"]) { return "tracking" }
            if !words.isDisjoint(with: ["blur"]) { return "blur" }
            return "spacing"
        case "fontFamily": return "font"
        case "fontWeight": return "font-weight"
        case "shadow": return "shadow"
        case "cubicBezier": return "ease"
        case "typography": return "text"
        default: return nil
        }
    }

    /// A typography style as Tailwind's `--text-*` and the variables beside it, each by mode:
    /// the size itself, then `--line-height`, `--letter-spacing` and `--font-weight` where the
    /// style has them. Nothing without a size (a `text-*` utility is a size first).
    static func textLines(_ values: [ColorMode: JSONValue]) -> [(suffix: String, values: [ColorMode: String])] {
        let members: [(suffix: String, read: (JSONValue) -> String?)] = [
            ("", { $0["fontSize"].flatMap(CSSTokenValue.measure) }),
            ("--line-height", { value in value["lineHeight"].flatMap { $0.number.map(\.exportText) ?? CSSTokenValue.measure($0) } }),
            ("--letter-spacing", { $0["letterSpacing"].flatMap(CSSTokenValue.measure) }),
            ("--font-weight", { $0["fontWeight"].flatMap(CSSTokenValue.fontWeight) }),
        ]
        guard values.values.contains(where: { $0["fontSize"].flatMap(CSSTokenValue.measure) != nil }) else { return [] }
        return members.compactMap { suffix, read in
            let written = values.compactMapValues(read)
            return written.isEmpty ? nil : (suffix, written)
        }
    }
}
