import Foundation
import Synchronization

extension Array where Element: Sendable {
    /// `transform` of each element, in order, computed side by side on the machine's cores: for
    /// the parse stage's independent pieces of one source (a design token source's combinations,
    /// each a whole resolution, and each one's document), and a review's two sides, each a sync.
    public func concurrentMap<Transformed: Sendable>(_ transform: @Sendable (Element) -> Transformed) -> [Transformed] {
        let results = Mutex<[Transformed?]>(Array<Transformed?>(repeating: nil, count: count))
        DispatchQueue.concurrentPerform(iterations: count) { position in
            let result = transform(self[position])
            results.withLock { $0[position] = result }
        }
        return results.withLock { $0.compactMap { $0 } }
    }
}
