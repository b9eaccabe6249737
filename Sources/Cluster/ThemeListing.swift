import ThemeVocabulary

/// Each theme's listing as its owners index it (`ThemeListing`), kept in the store so that every
/// replica's `/themes` is whole.
extension ClusterStore {
    /// Stores what the theme's owners list for a release, unless that release's or a newer one's
    /// listing is there; when it stores it, the other replicas are told (`listing:<theme>`).
    public func record(_ listing: ThemeListing) throws {
        let stored = try connection.execute("""
            INSERT INTO themed_listing (theme, generation, revision, parent, colors, images, files, errors)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
            ON CONFLICT (theme) DO UPDATE SET generation = excluded.generation, revision = excluded.revision, parent = excluded.parent,
                colors = excluded.colors, images = excluded.images, files = excluded.files, errors = excluded.errors
            WHERE themed_listing.generation < excluded.generation
            RETURNING theme
            """, [.text(listing.name), .int(listing.generation), .text(listing.revision), listing.parent.map { .text($0) } ?? .null,
                  .int(Int64(listing.colors)), .int(Int64(listing.images)), .int(Int64(listing.files)),
                  .text(listing.errors.joined(separator: "\n"))])
        if stored.count > 0 {
            try connection.execute("SELECT pg_notify($1, $2)", [.text(Self.channel), .text("listing:\(listing.name)")])
        }
    }

    /// Every theme's listing, by name (a retired theme's goes with its retirement).
    public func listings() throws -> [String: ThemeListing] {
        let rows = try connection.execute("SELECT theme, generation, revision, parent, colors, images, files, errors FROM themed_listing")
        var listings: [String: ThemeListing] = [:]
        for row in rows.values where row.count == 8 {
            guard let name = row[0], Release.isSafe(theme: name), let generation = row[1].flatMap({ Int64($0) }), let revision = row[2],
                  let colors = row[4].flatMap({ Int($0) }), let images = row[5].flatMap({ Int($0) }), let files = row[6].flatMap({ Int($0) }) else { continue }
            let errors = (row[7] ?? "").split(separator: "\n").map(String.init)
            listings[name] = ThemeListing(name: name, generation: generation, revision: revision, parent: row[3],
                                          colors: colors, images: images, files: files, errors: errors)
        }
        return listings
    }
}
