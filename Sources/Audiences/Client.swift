/// What a client says of itself when it asks for its assignment: a stable id (made once and
/// stored by the client), its platform, app version, locale and any other attributes.
public struct Client: Sendable, Equatable {
    public var id: String
    public var platform: String?
    public var appVersion: AppVersion?
    public var locale: String?
    public var attributes: [String: String]

    public init(id: String, platform: String? = nil, appVersion: AppVersion? = nil, locale: String? = nil, attributes: [String: String] = [:]) {
        (self.id, self.platform, self.appVersion, self.locale, self.attributes) = (id, platform, appVersion, locale, attributes)
    }

    /// The query names that are not attributes: the fields `Reading` keeps apart.
    public static let reservedNames: Set<String> = ["client", "platform", "appVersion", "locale"]

    /// A client from `/assign`'s query: `client` (1 to 128 characters), `platform`, `appVersion`,
    /// `locale`; every other parameter is an attribute (`tier=beta`). A name given twice: the
    /// last wins, as in a query read into a dictionary.
    public init(queryItems: [(name: String, value: String)]) throws(AudienceError) {
        var reading = Reading()
        for (name, value) in queryItems { reading.note(name, value) }
        self = try reading.client()
    }

    /// A client read from a query one parameter at a time, as the parameters are decoded (no list
    /// of them made): `note` each, then `client()` checks what was read.
    public struct Reading {
        private var id, platform, versionText, locale: String?
        private var attributes: [String: String] = [:]

        public init() {}

        public mutating func note(_ name: String, _ value: String) {
            switch name {
            case "client": id = value
            case "platform": platform = value
            case "appVersion": versionText = value
            case "locale": locale = value
            default: attributes[name] = value
            }
        }

        public func client() throws(AudienceError) -> Client {
            // Characters are counted only past 128 bytes: a string has no more of them than bytes.
            guard let id, !id.isEmpty, id.utf8.count <= 128 || id.count <= 128 else {
                throw AudienceError("client is required: the id the client made once and keeps (1 to 128 characters)")
            }
            var appVersion: AppVersion?
            if let text = versionText {
                guard let version = AppVersion(text) else { throw AudienceError("appVersion \"\(text.prefix(30))\" is not a version like 5.3.1") }
                appVersion = version
            }
            return Client(id: id, platform: platform, appVersion: appVersion, locale: locale, attributes: attributes)
        }
    }
}

/// When a rule applies: every condition it names must hold (one it leaves out holds for all).
/// A list holds when the client's value is one of it.
public struct Audience: Sendable, Equatable {
    public var platforms: [String]?
    public var appVersion: VersionRange?
    public var locales: [LocalePattern]?
    public var attributes: [(name: String, values: [String])]

    public init(platforms: [String]? = nil, appVersion: VersionRange? = nil, locales: [LocalePattern]? = nil, attributes: [(name: String, values: [String])] = []) {
        (self.platforms, self.appVersion, self.locales, self.attributes) = (platforms, appVersion, locales, attributes)
    }

    public func contains(_ client: Client) -> Bool {
        if let platforms, !platforms.contains(where: { $0.lowercased() == client.platform?.lowercased() }) { return false }
        if let appVersion { guard let version = client.appVersion, appVersion.contains(version) else { return false } }
        if let locales { guard let locale = client.locale, locales.contains(where: { $0.matches(locale) }) else { return false } }
        return attributes.allSatisfy { name, values in client.attributes[name].map(values.contains) ?? false }
    }

    /// What the audience asks, for a reason (`platform ios, appVersion >=5.2`).
    public var summary: String {
        var parts: [String] = []
        if let platforms { parts.append("platform " + platforms.joined(separator: "|")) }
        if let appVersion { parts.append("appVersion \(appVersion)") }
        if let locales { parts.append("locale " + locales.map(\.description).joined(separator: "|")) }
        for (name, values) in attributes { parts.append("\(name) " + values.joined(separator: "|")) }
        return parts.isEmpty ? "everyone" : parts.joined(separator: ", ")
    }

    public static func == (left: Audience, right: Audience) -> Bool {
        left.platforms == right.platforms && left.appVersion == right.appVersion && left.locales == right.locales
            && left.attributes.map(\.name) == right.attributes.map(\.name) && left.attributes.map(\.values) == right.attributes.map(\.values)
    }
}
