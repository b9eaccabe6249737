import Foundation
import HTTPServer
import HTTPTypes
import Logging
import Logs
import Settings
import Sharding
import TestSupport
import ThemedApp
import ThemeServer

/// The theme API without a socket: themes the test builds on disk, served by the daemon as
/// `buildApplication` makes it with nothing listening, and asked through `ThemeService.handle` (a
/// `Request` in, a `Response` out). Lookup behaviour is tested here; `ServerFixture` keeps what
/// needs sockets.
public final class APIFixture {
    public let fixtures = ThemeFixtures()
    public let app: Application
    public let service: ThemeService

    /// `activeToken` and `operatorLoopback` as in the settings: who may change the active theme
    /// and aliases; `settings` changes the rest.
    public init(activeToken: String? = nil, operatorLoopback: Bool? = nil, logger: Logger = Logger(label: "themed"), allowedOrigins: [String] = ["*"],
                accessLog: AccessLog? = nil, shard: Shard? = nil,
                themes build: (ThemeFixtures) -> Void = ServerFixture.standardThemes, settings change: (inout ServerSettings) -> Void = { _ in }) throws {
        build(fixtures)
        try FileManager.default.createDirectory(atPath: fixtures.path("themes"), withIntermediateDirectories: true)
        var settings = ServerFixture.settings(in: fixtures)
        (settings.activeToken, settings.operatorLoopback) = (activeToken, operatorLoopback)
        (settings.corsAllowedOrigins, settings.shard) = (allowedOrigins, shard)
        change(&settings)
        var overrides = ApplicationOverrides()
        (overrides.logger, overrides.accessLog, overrides.listens) = (logger, accessLog, false)
        app = try buildApplication(settings, overrides: overrides)
        try app.start()
        guard let service = app.service else { throw APIResponse.Failure(description: "the application started without serving") }
        self.service = service
    }

    deinit {
        app.shutdown()
        fixtures.remove()
    }

    /// Sends one request to the handler.
    public func request(_ target: String, method: HTTPRequest.Method = .get, headers: [String: String] = [:], body: String = "",
                 from remoteAddress: String = "127.0.0.1:40000") throws -> APIResponse {
        var fields = HTTPFields()
        for (name, value) in headers {
            guard let name = HTTPField.Name(name) else { throw APIResponse.Failure(description: "bad header name \(name)") }
            fields[name] = value
        }
        let request = try Request(method: method, target: target, headers: fields, body: Array(body.utf8), remoteAddress: remoteAddress)
        return APIResponse(service.handle(request).waitForCompletion())
    }
}

/// A handler's answer, read as a client would: status, headers, bytes, and the body decoded into
/// the typed shapes of `APIBodies.swift`.
public struct APIResponse {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
        public init(description: String) { self.description = description }
    }

    public let response: Response
    public init(_ response: Response) { self.response = response }

    public var status: Int { response.status.code }

    public func header(_ name: String) -> String? {
        HTTPField.Name(name).flatMap { response.allHeaders[$0] }
    }

    public var body: [UInt8] { response.bodyBytes() }

    public var text: String { String(decoding: body, as: UTF8.self) }

    /// The body as a JSON object (empty when it is not one).
    public var json: [String: Any] { ((try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any]) ?? [:] }

    /// The body as `T`; a body of another shape fails the test with the body in the message.
    public func decode<T: Decodable>(_ type: T.Type = T.self) throws -> T {
        do {
            return try JSONDecoder().decode(T.self, from: Data(body))
        } catch {
            throw Failure(description: "\(status) \(text) is not a \(T.self): \(error)")
        }
    }
}

extension ThemeFixtures {
    /// The daemon started again on these themes, index and blobs, as after a restart, with
    /// nothing listening (ask `service`); `settings` changes the rest. Shut it down when done.
    public func restartedApplication(logger: Logger = Logger(label: "themed"), settings change: (inout ServerSettings) -> Void = { _ in }) throws -> Application {
        var settings = ServerFixture.settings(in: self)
        change(&settings)
        var overrides = ApplicationOverrides()
        (overrides.logger, overrides.listens) = (logger, false)
        let app = try buildApplication(settings, overrides: overrides)
        try app.start()
        return app
    }
}
