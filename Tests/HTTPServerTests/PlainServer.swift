import Foundation
import HTTPServer
import Synchronization
import TestSupport

/// An `HTTPServer` on a free loopback port with a handful of routes, for tests of the server
/// itself (no themes behind it):
/// - `/hello`: 200 "hello";
/// - `/gated`: a deferred answer, worked out off the loop once `gate` opens (`started` is
///   signalled when the work begins, so a test knows the request is being answered);
/// - `/stream`: a streaming answer that writes "tick" lines until the client leaves;
/// - `/echo` (PUT): the body it was sent;
/// - `/big`: 16 MB, more than the kernel's socket buffers hold, so most of it waits in the server;
/// - anything else: 404.
final class PlainServer: @unchecked Sendable {
    let server: HTTPServer
    let gate = DispatchSemaphore(value: 0)
    let started = DispatchSemaphore(value: 0)
    var port: Int { server.port }

    init(configure: (inout HTTPServer.Configuration) -> Void = { _ in }) throws {
        var configuration = HTTPServer.Configuration()
        configuration.port = 0
        configure(&configuration)
        let (gate, started) = (gate, started)
        server = HTTPServer(configuration: configuration) { request in
            switch request.path {
            case "/hello":
                return Response(status: .ok, headers: [.contentType: "text/plain"], body: Array("hello".utf8))
            case "/gated":
                return Response(deferred: { reply in
                    DispatchQueue.global().async {
                        started.signal()
                        gate.wait()
                        reply(Response(status: .ok, headers: [.contentType: "text/plain"], body: Array("opened".utf8)))
                    }
                })
            case "/echo" where request.method == .put:
                return Response(status: .ok, headers: [.contentType: "text/plain"], body: request.body)
            case "/big":
                return Response(status: .ok, headers: [.contentType: "application/octet-stream"], body: Self.big)
            case "/stream":
                return Response(status: .ok, headers: [.contentType: "text/event-stream"], stream: { writer in
                    DispatchQueue.global().async {
                        while writer.write(Array("tick\n".utf8)) { usleep(20_000) }
                    }
                })
            default:
                return Response(status: .notFound, body: Array("no such route".utf8))
            }
        }
        try server.start()
    }

    static let big = [UInt8](repeating: 7, count: 16 << 20)

    deinit { server.shutdown(timeout: .seconds(2)) }

    func client(receiveBuffer: Int32? = nil) throws -> TestClient { try TestClient(port: port, receiveBuffer: receiveBuffer) }
}
