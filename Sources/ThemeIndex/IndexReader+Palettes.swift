import Caching
import Foundation
import SQLite
import ThemeVocabulary

/// Resolved palettes: every name of a kind in a theme chain with its best variant, a query a
/// theme of the chain (not a query a name), the chain's lists merged by name.
extension IndexReader {
    /// Every name of `kind` in the chain with its best variant for `request`, by name: a resolved
    /// palette in one query a theme, however many names (not a query per name).
    public func resolveAll(_ kind: AssetKind, in chain: [ThemeInfo], for request: TraitRequest) throws -> [Resolution] {
        if kind == .color, let resolved = try resolvedOnDemand(in: chain, for: request) {
            return try resolveAll(in: chain, for: request, onDemand: resolved)
        }
        let palettes = try bestOfEachName(kind, in: chain, for: request, columns: LookupQuery.resolutionColumns, keptIn: nil) { row, plan in
            try Self.resolution(row, chain: chain, request: request, plan: plan)
        }
        return Self.merged(palettes, for: request)
    }

    /// The resolutions of the names of `kind` that have variants of their own at `request`'s
    /// contexts (a token theme's brand or density, chosen by name); every other name answers
    /// there as at the defaults, which a sync stores once for all the combinations that share
    /// them (`TokenVariants.sharingDefaults`). What a review of every combination reads: each
    /// reads only what it does not share.
    public func resolveOwnAtContexts(_ kind: AssetKind, in chain: [ThemeInfo], for request: TraitRequest) throws -> [Resolution] {
        guard !request.contexts.isEmpty else { return [] }
        if kind == .color, let resolved = try resolvedOnDemand(in: chain, for: request) {
            let own = Set(resolved.names)
            return try resolveAll(in: chain, for: request, onDemand: resolved).filter { own.contains($0.variant.name) }
        }
        let palettes = try bestOfEachName(kind, in: chain, for: request, columns: LookupQuery.resolutionColumns, keptIn: nil, ownAtContexts: true) { row, plan in
            try Self.resolution(row, chain: chain, request: request, plan: plan)
        }
        return Self.merged(palettes, for: request)
    }

    /// The colours of a design token's contexts resolved when asked, over the indexed defaults.
    private func resolveAll(in chain: [ThemeInfo], for request: TraitRequest, onDemand resolved: OnDemandColors) throws -> [Resolution] {
        var defaults = request
        defaults.contexts = ""
        var best = Dictionary(try resolveAll(.color, in: chain, for: defaults).map { ($0.variant.name, $0) }, uniquingKeysWith: { first, _ in first })
        for name in resolved.names {
            best[name] = resolved.preferred(resolved.best(named: name, for: request), over: best[name], for: request)
        }
        return Self.byName(best)
    }

    /// A resolved palette as its answer shows it, each colour written once: `resolveAll`'s
    /// choices, from a query that reads only what the answer shows; a parent's part is kept for
    /// the next brand that asks it.
    public func palette(in chain: [ThemeInfo], for request: TraitRequest) throws -> [PaletteColor] {
        if let resolved = try resolvedOnDemand(in: chain, for: request) {
            return try resolveAll(in: chain, for: request, onDemand: resolved).map(PaletteColor.init)
        }
        let palettes = try bestOfEachName(.color, in: chain, for: request, columns: PaletteColor.columns, keptIn: parentPalettes) { row, plan in
            try PaletteColor(row: row, chain: chain, request: request, plan: plan)
        }
        return Self.merged(palettes, for: request)
    }

    /// Each theme's best variant of every name of `kind`, a list a theme of the chain, nearest
    /// first, each row (`columns`) read by `entry`. A theme's sources choose their localizations
    /// on their own, so each theme is a query with only its own plan. `kept`: where the parents'
    /// lists are kept between requests, by query and generation.
    private func bestOfEachName<Entry>(_ kind: AssetKind, in chain: [ThemeInfo], for request: TraitRequest, columns: String,
                                       keptIn kept: BoundedCache<ParentPalette, [Entry]>?, ownAtContexts: Bool = false,
                                       entry: (Row, LocalizationPlan) throws -> Entry) throws -> [[Entry]] {
        try chain.enumerated().map { depth, theme in
            let plan = LocalizationPlan(chain: [theme], languages: request.languages)
            let query = LookupQuery(kind: kind, name: nil, chain: [theme], request: request, localization: plan, columns: columns,
                                    ownAtContextsIn: ownAtContexts ? chain : nil)
            let key = depth > 0 && kept != nil ? ParentPalette(sql: query.sql, parameters: query.parameters, generation: theme.generation, depth: depth) : nil
            if let key, let list = kept?.value(for: key) { return list }
            let list = try pool.read { database in
                try database.cachedStatement(query.sql).firstRows(query.parameters, ofEach: "name").map { try entry($0, plan) }
            }
            if let key { kept?.insert(list, for: key) }
            return list
        }
    }

    /// A chain's palettes (nearest theme first, each in the index's order of names) as one
    /// palette in that order, each name once: from the nearest theme, unless a farther one has
    /// the requested gamut and it has not (the gamut term comes before depth in the lookup's
    /// order). A merge of sorted lists: no name is hashed and each answer is copied once.
    static func merged<Entry: PaletteEntry>(_ palettes: [[Entry]], for request: TraitRequest) -> [Entry] {
        var next = palettes.map(\.startIndex)
        var merged: [Entry] = []
        merged.reserveCapacity(palettes.map(\.count).reduce(0, +))
        func name(at depth: Int) -> String? {
            next[depth] < palettes[depth].endIndex ? palettes[depth][next[depth]].name : nil
        }
        while let least = palettes.indices.lazy.compactMap(name(at:)).min(by: bytewiseLess) {
            var chosen: (depth: Int, index: Int)?
            for depth in palettes.indices where name(at: depth) == least {
                let index = next[depth]
                next[depth] += 1
                if let nearer = chosen, !missesGamut(palettes[nearer.depth][nearer.index].gamut, request) || missesGamut(palettes[depth][index].gamut, request) {
                    continue
                }
                chosen = (depth, index)
            }
            if let chosen { merged.append(palettes[chosen.depth][chosen.index]) }
        }
        return merged
    }

    /// A palette's resolutions in the index's order of names. The names are sorted, not the
    /// resolutions: a comparison of two resolutions copied both (each holds a dozen references).
    static func byName(_ best: [String: Resolution]) -> [Resolution] {
        best.keys.sorted(by: bytewiseLess).compactMap { best[$0] }
    }

    /// SQLite's BINARY order of names (their UTF-8 bytes), as the index sorts them.
    static func bytewiseLess(_ left: String, _ right: String) -> Bool {
        var left = left, right = right
        return left.withUTF8 { left in
            right.withUTF8 { right in
                guard let leftStart = left.baseAddress, let rightStart = right.baseAddress else { return left.count < right.count }
                let common = memcmp(leftStart, rightStart, min(left.count, right.count))
                return common != 0 ? common < 0 : left.count < right.count
            }
        }
    }
}
