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
