import HTTPServer
import HTTPTypes
import Releases
import ServiceSupport
import Testing
import ThemeServer

/// Releases' routes as `themed serve` registers them, without a cluster store.
@Suite("release routes without a cluster")
struct ReleaseRouteTests {
    @Test("without a cluster store the release routes answer 409 naming the cluster setting")
    func noCluster() throws {
        let api = try APIFixture()
        #expect(try !api.request("/themes/light").text.contains("\"releases\""), "no history to link to")
        for (method, target, body) in [(HTTPRequest.Method.post, "/themes/light/releases", ""), (.get, "/themes/light/releases", ""),
                                        (.post, "/themes/light/rollback", #"{"generation":1}"#), (.delete, "/active/schedule/1", ""),
                                        (.put, "/active", #"{"theme":"dark","at":"2030-01-01T00:00:00Z"}"#)] {
            let answer = try api.request(target, method: method, body: body)
            #expect(answer.status == 409 && answer.text.contains("no_cluster") && answer.text.contains("cluster setting"), "\(method) \(target): \(answer.text)")
            #expect(answer.header("Access-Control-Allow-Origin") == nil, "never readable cross-origin")
        }
        func head(_ method: HTTPRequest.Method, _ target: String, token: Bool = true) throws -> Request {
            try Request(method: method, target: target, headers: token ? [.authorization: "Bearer themed_x"] : [:])
        }
        let upload = try head(.post, "/themes/light/releases"), read = try head(.get, "/themes/light/releases")
        let deeper = try head(.post, "/themes/a/b/releases"), anonymous = try head(.post, "/themes/light/releases", token: false)
        #expect(ReleaseRoutes.receivesUpload(upload))
        #expect(!ReleaseRoutes.receivesUpload(read) && !ReleaseRoutes.receivesUpload(deeper))
        #expect(!ReleaseRoutes.receivesUpload(anonymous), "no credentials, no spool")
        // A draft's content posted again, as the route table matches it; not its approval or a read.
        let redraft = try head(.put, "/drafts/7"), approval = try head(.post, "/drafts/7/approve"), draftRead = try head(.get, "/drafts/7")
        let noID = try head(.put, "/drafts"), rollback = try head(.post, "/themes/light/rollback")
        #expect(ReleaseRoutes.receivesUpload(redraft))
        #expect(![approval, draftRead, noID, rollback].contains(where: ReleaseRoutes.receivesUpload))
    }

    @Test("without a cluster store a change asks for the operator's token before it says 409")
    func tokenBeforeConflict() throws {
        let changes: [(HTTPRequest.Method, String, String)] = [(.post, "/themes/light/releases", ""), (.post, "/themes/light/rollback", #"{"generation":1}"#),
                                                              (.delete, "/active/schedule/1", "")]
        let guarded = try APIFixture(activeToken: "secret")
        for (method, target, body) in changes {
            let anonymous = try guarded.request(target, method: method, body: body)
            #expect(anonymous.status == 401 && anonymous.text.contains("needs Authorization"), "\(method) \(target): \(anonymous.text)")
            let wrong = try guarded.request(target, method: method, headers: ["Authorization": "Bearer guess"], body: body)
            #expect(wrong.status == 401, "\(method) \(target) with a wrong token: \(wrong.text)")
            let operatorAsks = try guarded.request(target, method: method, headers: ["Authorization": "Bearer secret"], body: body)
            #expect(operatorAsks.status == 409 && operatorAsks.text.contains("no_cluster"), "\(method) \(target): \(operatorAsks.text)")
        }
        #expect(try guarded.request("/themes/light/releases").status == 409, "a read says what it needs without a token")

        // Without any token, loopback is the operator; a client elsewhere is told only loopback may.
        let open = try APIFixture()
        for (method, target, body) in changes {
            #expect(try open.request(target, method: method, body: body).status == 409, "\(method) \(target) from loopback")
            let remote = try open.request(target, method: method, body: body, from: "192.0.2.7:5000")
            #expect(remote.status == 403 && remote.text.contains("only loopback clients"), "\(method) \(target) from afar: \(remote.text)")
        }
    }
}
