import HTTPServer
import HTTPTypes
import JSON

/// What a change's wait for the replicas found (`?wait=`): those that serve the change, those
/// that did not in time (with the generation each serves), and how long the wait took. The
/// cluster store works it out; every change route answers with it alike (`JSONResponse.change`).
public struct ReplicaReport: Sendable, Equatable {
    public struct Lagging: Sendable, Equatable {
        public var name: String
        public var generation: Int64

        public init(name: String, generation: Int64) {
            (self.name, self.generation) = (name, generation)
        }
    }

    public var serving: [String]
    public var lagging: [Lagging]
    public var waitedMilliseconds: Int

    public init(serving: [String], lagging: [Lagging], waitedMilliseconds: Int) {
        (self.serving, self.lagging, self.waitedMilliseconds) = (serving, lagging, waitedMilliseconds)
    }

    public var isComplete: Bool { lagging.isEmpty }

    var json: JSONValue {
        .object([
            ("serving", .array(serving.map(JSONValue.string))),
            ("lagging", .array(lagging.map { .object([("name", .string($0.name)), ("generation", .int(Int($0.generation)))]) })),
            ("waitedMilliseconds", .int(waitedMilliseconds)),
        ])
    }
}

/// A change as stored, and what the wait for the replicas to serve it found (nil: not waited).
public struct Changed<Value: Sendable>: Sendable {
    public var value: Value
    public var replicas: ReplicaReport?

    public init(_ value: Value, replicas: ReplicaReport?) {
        (self.value, self.replicas) = (value, replicas)
    }
}

extension JSONResponse {
    /// The answer of a change: `json` with what the wait found (`replicas`) and `status`, or 202
    /// Accepted with the same body when some replica did not serve it in time (the change is
    /// stored: it is not to be sent again). Never cached.
    public static func change(_ json: JSONValue, status: HTTPResponse.Status, replicas: ReplicaReport?) -> Response {
        guard let replicas, case .object(let members) = json else { return make(json, cacheControl: "no-store").with(status: status) }
        return make(.object(members + [("replicas", replicas.json)]), cacheControl: "no-store")
            .with(status: replicas.isComplete ? status : .accepted)
    }
}
