import Caching
import Testing

@Suite("bounded cache")
struct BoundedCacheTests {
    func cache(_ capacity: Int) -> BoundedCache<String, [UInt8]> {
        BoundedCache(name: "test", capacityBytes: capacity) { $0.count }
    }

    @Test("stays within its budget, evicting the oldest first, and counts what happened")
    func budget() {
        let cache = cache(100)
        for number in 0..<10 { cache.insert([UInt8](repeating: 0, count: 20), for: "k\(number)") }
        let statistics = cache.statistics
        #expect(statistics.bytes <= 100)
        #expect(statistics.entries == 5)
        #expect(statistics.evictions == 5)
        #expect(cache.value(for: "k0") == nil, "the oldest went first")
        #expect(cache.value(for: "k9") != nil)
        #expect(cache.statistics.hits == 1)
        #expect(cache.statistics.misses == 1)
    }

    @Test("a value over a quarter of the budget is not kept; replacing a key frees its old cost")
    func sizes() {
        let cache = cache(100)
        cache.insert([UInt8](repeating: 0, count: 26), for: "big")
        #expect(!cache.contains("big"))
        cache.insert([1, 2, 3], for: "a")
        cache.insert([1], for: "a")
        #expect(cache.statistics.bytes == 1)
        #expect(cache.statistics.entries == 1)
    }

    @Test("removal by predicate updates bytes and entries; a smaller budget applies at the next insertion")
    func removal() {
        let cache = cache(1000)
        for number in 0..<10 { cache.insert([UInt8](repeating: 0, count: 10), for: "k\(number)") }
        cache.removeAll { $0 == "k3" }
        cache.removeAll { $0.hasSuffix("7") || $0.hasSuffix("8") }
        #expect(cache.statistics.entries == 7)
        #expect(cache.statistics.bytes == 70)
        cache.setCapacity(40)
        cache.insert([1], for: "new")
        #expect(cache.statistics.bytes <= 40)
        #expect(cache.contains("new"))
        #expect(!cache.contains("k0"))
    }
}
