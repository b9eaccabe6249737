/// A theme as `GET /themes` lists it, kept in the store by the replicas of the shard that owns it:
/// with shards, no replica indexes every theme, so each lists the others' from here, and the front
/// door's list is whole whichever group answers it.
public struct ThemeListing: Sendable, Equatable {
    public var name: String
    /// The release it describes: a newer one replaces it, an older one never does.
    public var generation: Generation
    public var revision: String
    public var parent: String?
    /// The names it answers, its own and inherited, as its owners count them.
    public var colors: Int
    public var images: Int
    public var files: Int
    public var errors: [String]

    public init(name: String, generation: Generation, revision: String, parent: String?, colors: Int, images: Int, files: Int, errors: [String]) {
        (self.name, self.generation, self.revision, self.parent) = (name, generation, revision, parent)
        (self.colors, self.images, self.files, self.errors) = (colors, images, files, errors)
    }
}
