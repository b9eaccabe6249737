import Foundation
import Testing
import ServiceSupport
import TestSupport
import ThemeContent

/// An image not yet encoded is made on a worker, never on an event loop.
@Suite("Cold images", .serialized)
struct ColdImageTests {
    @Test("a cold image waits for a worker off the event loop; other requests on the same loop are answered meanwhile")
    func decodingOffTheLoop() throws {
        let workers = WorkerPool(threads: 1)
        let gate = DispatchSemaphore(value: 0)
        let server = try ServerFixture(configure: { _ in }, workers: workers)
        workers.submit { gate.wait() } // the only worker is busy until the gate opens
        let cold = try server.client()
        cold.send("GET /themes/light/images/logo?scale=2 HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(waitUntil { workers.queued == 1 }, "the image's work waits behind the busy worker")
        for _ in 0..<20 {
            #expect(try server.client().request("/themes/light/colors/primary").status == 200)
        }
        #expect(!cold.hasPendingData(), "the image waits for the worker")
        gate.signal()
        let image = try cold.readResponse()
        #expect(image.status == 200)
        #expect(image.text.hasSuffix("variant 1"))
        #expect(try cold.request("/healthz").status == 200, "the connection goes on after the deferred answer")
    }
}
