import HTTPServer
import Settings

/// The HTTP server's configuration from the daemon's settings.
extension ServerSettings {
    var serverConfiguration: HTTPServer.Configuration {
        var configuration = HTTPServer.Configuration()
        configuration.host = host
        configuration.port = port
        configuration.maxConnections = maxConnections
        configuration.headerTimeout = .milliseconds(Int(headerTimeoutSeconds * 1000))
        configuration.idleTimeout = .milliseconds(Int(idleTimeoutSeconds * 1000))
        configuration.bodyTimeout = .milliseconds(Int(bodyTimeoutSeconds * 1000))
        configuration.minimumSendRate = minimumSendRate
        configuration.sendGrace = .milliseconds(Int(sendGraceSeconds * 1000))
        configuration.yield = HTTPServer.YieldPolicy(after: loopYieldAfterMicroseconds > 0 ? .microseconds(loopYieldAfterMicroseconds) : nil,
                                                     idle: .microseconds(loopIdleMicroseconds))
        return configuration
    }
}
