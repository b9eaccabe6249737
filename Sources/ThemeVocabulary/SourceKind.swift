/// What a theme's source is: a compiled catalog, an `.xcassets` folder, a bundle's loose files
/// and strings, or design token files (`*.tokens.json`, with or without a `*.resolver.json`).
public enum SourceKind: String, Sendable, CaseIterable {
    case car, xcassets, bundle, tokens
}
