import Cluster
import HTTPServer
import ThemeServer
import ThemeVocabulary

extension ReplicaReport {
    /// What the cluster store's wait found, as the change routes answer it.
    init(_ served: ServedBy) {
        self.init(serving: served.serving, lagging: served.lagging.map { Lagging(name: $0.name, generation: $0.generation) },
                  waitedMilliseconds: served.waitedMilliseconds)
    }
}

extension ReleaseDesk {
    /// Waits until every ready replica serves `generation` (or `wait` is nil: at once, nil).
    public func awaitServed(_ generation: Generation, _ wait: ServedWait?) throws(Refusal) -> ReplicaReport? {
        guard let wait else { return nil }
        return ReplicaReport(try withStore { try $0.awaitServed(generation, timeout: wait.timeout) })
    }
}
