import DesignTokens
import JSON
import ThemeVocabulary

/// A catalog theme's colours as design tokens beneath a child theme's own, so that the child's
/// aliases may name them: a brand of tokens over a base of catalogs refers to the base's
/// `Brand/primary` as `{Brand.primary}`. Each colour is the one a lookup of the base takes at the
/// traits the child's theme.json gives its contexts: light sRGB beneath everything, and for each
/// context of a trait-mapped modifier the colours that differ there (dark, high contrast, P3).
/// A name that cannot be a token path (a `.`, `{`, `}` or a leading `$`) and a colour that names
/// a system colour instead of a value are left out.
enum CatalogTokenLayer {
    /// The layer of `ancestor`'s catalogs (read as a sync reads them), whose contexts follow the
    /// child's `modifiers` as its theme.json `mapping` maps them to traits.
    static func resolver(of ancestor: ThemeFolder.TokenFiles.AncestorTokens, modifiers: [TokenResolver.Modifier],
                         traits mapping: [String: [String: ThemeSettings.ContextTraits]]) throws -> TokenResolver {
        var colors: [String: [Variant]] = [:]
        for catalog in ancestor.catalogs {
            for variant in try ParsedSource(catalog).variants where variant.kind == .color && variant.color != nil {
                colors[variant.name, default: []].append(variant)
            }
        }
        let base = values(of: colors, at: ThemeSettings.ContextTraits())
        let location = { (context: String) in TokenLocation(file: "../\(ancestor.theme)/catalogs", pointer: context) }
        let layered = modifiers.compactMap { modifier -> (modifier: TokenResolver.Modifier, contexts: [String: [TokenSource]])? in
            guard let contexts = mapping[modifier.name] else { return nil }
            var sources: [String: [TokenSource]] = [:]
            for (context, traits) in contexts {
                let differing = values(of: colors, at: traits).filter { base[$0.key] != $0.value }
                sources[context] = [TokenSource(root: document(differing), location: location("/\(modifier.name)/\(context)"))]
            }
            return (modifier, sources)
        }
        return TokenResolver(base: [TokenSource(root: document(base), location: location(""))], modifiers: layered)
    }

    /// Each colour's value at `traits` (light, normal contrast and sRGB where they say nothing).
    static func values(of colors: [String: [Variant]], at traits: ThemeSettings.ContextTraits) -> [String: ColorValue] {
        var request = TraitRequest()
        request.appearance = Appearance(traits.luminosity ?? .light, highContrast: traits.highContrast ?? false)
        request.gamut = traits.gamut ?? .sRGB
        return colors.compactMapValues { request.bestColor(among: $0)?.color }
    }

    /// The colours as nested groups of colour tokens, `/` in a name as a group.
    static func document(_ values: [String: ColorValue]) -> JSONValue {
        var root = JSONValue.object([])
        for (name, value) in values.sorted(by: { $0.key < $1.key }) {
            let segments = name.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
            guard !segments.contains(where: { $0.isEmpty || $0.hasPrefix("$") || $0.contains(where: { ".{}".contains($0) }) }) else { continue }
            root = inserting(.object([("$type", "color"), ("$value", value.tokenValue)]), at: segments[...], into: root)
        }
        return root
    }

    private static func inserting(_ token: JSONValue, at path: ArraySlice<String>, into group: JSONValue) -> JSONValue {
        guard let name = path.first, case .object(var members) = group else { return group }
        let index = members.firstIndex { $0.0 == name }
        if path.count == 1 {
            // A name that is also a group keeps the group (its tokens are the more specific).
            if index == nil { members.append((name, token)) }
        } else {
            let existing = index.map { members[$0].1 } ?? .object([])
            guard case .object = existing, existing["$value"] == nil else { return group }
            let child = inserting(token, at: path.dropFirst(), into: existing)
            if let index { members[index].1 = child } else { members.append((name, child)) }
        }
        return .object(members)
    }
}
