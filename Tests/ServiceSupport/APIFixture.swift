import Foundation
import HTTPServer
import HTTPTypes
import Logging
import Sharding
import TestSupport
import Releases
import Settings
import ThemeIndex
import ThemeServer

/// The theme API without a socket: themes the test builds on disk, indexed, and asked through
/// `ThemeService.handle` (a `Request` in, a `Response` out). Lookup behaviour is tested here;
/// `ServerFixture` keeps what needs sockets.
public final class APIFixture {
    public let fixtures = ThemeFixtures()
    public let service: ThemeService

    /// `activeToken` and `operatorLoopback` as in the settings: who may change the active theme and aliases.
    public init(activeToken: String? = nil, operatorLoopback: Bool? = nil, trustedProxies: TrustedProxies = .none, logger: Logger = Logger(label: "themed"), allowedOrigins: [String] = ["*"],
         accessLog: AccessLog? = nil, shard: Shard? = nil, imageTransforms: ImageTransformPolicy = ImageTransformPolicy(),
         themes build: (ThemeFixtures) -> Void = ServerFixture.standardThemes) throws {
        build(fixtures)
        try FileManager.default.createDirectory(atPath: fixtures.path("themes"), withIntermediateDirectories: true)
        let index = try ThemeIndex(databasePath: fixtures.path("index.sqlite"))
        // The release routes as `themed serve` registers them without a cluster store.
        let metrics = ServiceMetrics()
        var settings = ServerSettings()
        (settings.activeToken, settings.operatorLoopback) = (activeToken, operatorLoopback)
        var configuration = ThemeServiceConfiguration(themesDirectory: fixtures.path("themes"))
        configuration.activeToken = activeToken
        configuration.loopbackIsOperator = settings.loopbackIsOperator
        (configuration.logger, configuration.metrics, configuration.accessLog) = (logger, metrics, accessLog)
        configuration.allowedOrigins = allowedOrigins
        (configuration.shard, configuration.trustedProxies, configuration.imageTransforms) = (shard, trustedProxies, imageTransforms)
        configuration.collections = [ReleaseRoutes(desk: nil, metrics: metrics, operators: configuration.operators)]
        service = try ThemeService(index: index, configuration: configuration)
        try service.reload()
    }

    deinit { fixtures.remove() }

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
