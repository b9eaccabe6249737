/// What a theme's source is: a compiled catalog, an `.xcassets` folder, or a bundle's loose files
/// and strings.
public enum SourceKind: String, Sendable, CaseIterable {
    case car, xcassets, bundle
}
