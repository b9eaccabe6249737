/// What a theme's source is: a compiled catalog, an `.xcassets` folder, a bundle's loose files
/// and strings, design token files (`*.tokens.json`, with or without a `*.resolver.json`), or
/// the Material 3 roles theme.json's `material` makes from a seed.
public enum SourceKind: String, Sendable, CaseIterable {
    case car, xcassets, bundle, tokens, material
}
