/// A replica and the newest generation it serves (as the cluster store's registry of replicas
/// knows it).
public struct ReplicaServing: Sendable, Equatable, Encodable {
    public var name: String
    public var generation: Generation

    public init(name: String, generation: Generation) {
        (self.name, self.generation) = (name, generation)
    }
}

/// What a change's wait for the replicas found (`?wait=`, `themed publish --wait`): those that
/// serve the change, those that did not in time (with the generation each serves), and how long
/// the wait took. The cluster store works it out; every change route answers with it alike.
public struct ReplicaReport: Sendable, Equatable, Encodable {
    public var serving: [String]
    public var lagging: [ReplicaServing]
    public var waitedMilliseconds: Int

    public init(serving: [String], lagging: [ReplicaServing], waitedMilliseconds: Int) {
        (self.serving, self.lagging, self.waitedMilliseconds) = (serving, lagging, waitedMilliseconds)
    }

    public var isComplete: Bool { lagging.isEmpty }

    /// One line for an operator: who lags and what each serves.
    public var laggingDescription: String {
        lagging.map { "\($0.name) (serves generation \($0.generation))" }.joined(separator: ", ")
    }
}
