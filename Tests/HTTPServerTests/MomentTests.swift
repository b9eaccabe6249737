import Foundation
import HTTPServer
import Testing
import TestSupport

/// The server's clock readings (`Moment`): what a request's duration and a connection's deadlines
/// are measured with.
@Suite("moments of the monotonic clock")
struct MomentTests {
    @Test("moments go forward with the clock; their differences are durations; a duration added is a later moment")
    func arithmetic() {
        let start = Moment.now
        #expect(waitUntil(5) { Moment.now - start >= .milliseconds(20) })
        let later = Moment.now
        #expect(later > start && later - start >= .milliseconds(20) && later - start < .seconds(5))
        #expect(start + .milliseconds(1500) - start == .milliseconds(1500))
        #expect(start + .nanoseconds(1) > start && start + .zero == start)
        #expect(start - later == .zero - (later - start))
    }
}

/// When the loops last read from a client (`HTTPServer.lastRead`): what background work asks to
/// keep out of the way of requests.
@Suite("the server's last read")
struct LastReadTests {
    @Test("none before a client is read from; after a request, a moment between the client's connecting and the answer")
    func lastRead() throws {
        let server = try PlainServer()
        #expect(server.server.lastRead == nil)
        // The read is stamped with its loop's clock at the wake that found it, which may be the
        // wake that accepted the connection: before the request was sent, not before the connect.
        let before = Moment.now
        let client = try server.client()
        #expect(try client.request("/hello").status == 200)
        let after = Moment.now
        let read = try #require(server.server.lastRead)
        #expect(read >= before && read <= after)
    }
}
