/// How many colour, image and file names a theme answers.
struct NameCounts: Equatable {
    var colors = 0, images = 0, files = 0
}

/// A theme's own colour, image and file names; counted over its parent chain, what its detail
/// lists (a name the theme and its parent both define counts once).
struct NameSets {
    var colors = Set<String>(), images = Set<String>(), files = Set<String>()

    mutating func insert(_ name: String, _ kind: AssetKind) {
        switch kind {
        case .color: colors.insert(name)
        case .image: images.insert(name)
        case .file: files.insert(name)
        case .data: break
        }
    }

    mutating func formUnion(_ other: NameSets) {
        colors.formUnion(other.colors)
        images.formUnion(other.images)
        files.formUnion(other.files)
    }

    var counts: NameCounts { NameCounts(colors: colors.count, images: images.count, files: files.count) }

    /// Each theme's count of the names it answers. Only a theme that is a parent keeps its whole
    /// set (a platform's base is every brand's parent); a brand's count is its parent's plus its
    /// own names the parent lacks, so a thousand brands do not each copy the base's names.
    static func servedCounts(own: [String: NameSets], parents: [String: String?]) -> [String: NameCounts] {
        let parentNames = Set(parents.values.compactMap { $0 })
        var chains: [String: NameSets] = [:]
        /// The names of `theme` and its ancestors (a missing parent or a loop ends the chain).
        func served(_ theme: String, visited: Set<String> = []) -> NameSets {
            if let known = chains[theme] { return known }
            var names = own[theme] ?? NameSets()
            if let parent = parents[theme] ?? nil, parents[parent] != nil, !visited.contains(parent), visited.count < 8 {
                names.formUnion(served(parent, visited: visited.union([theme])))
            }
            if parentNames.contains(theme) { chains[theme] = names }
            return names
        }
        var counts: [String: NameCounts] = [:]
        for theme in parents.keys {
            guard !parentNames.contains(theme), let parent = parents[theme] ?? nil, parents[parent] != nil else {
                counts[theme] = served(theme).counts
                continue
            }
            let inherited = served(parent, visited: [theme])
            let mine = own[theme] ?? NameSets()
            counts[theme] = NameCounts(colors: inherited.colors.count + mine.colors.subtracting(inherited.colors).count,
                                       images: inherited.images.count + mine.images.subtracting(inherited.images).count,
                                       files: inherited.files.count + mine.files.subtracting(inherited.files).count)
        }
        return counts
    }
}
