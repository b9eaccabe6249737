import Foundation

/// What a bundle says about itself (Info.plist, lookup-rules.md 1.2) and the localizations it
/// offers (2.1): everything its localization choice depends on.
public struct BundleInfo: Sendable, Hashable {
    public var path: String
    public var identifier: String?
    /// `CFBundleDevelopmentRegion`; CFBundle has no default for it.
    public var developmentRegion: String?
    /// `CFBundleLocalizations`: claimed even without an `.lproj` folder.
    public var declaredLocalizations: [String] = []
    /// The `.lproj` folders of the resources folder, by base name, in byte order.
    public var localizationFolders: [String] = []
    public var allowsMixedLocalizations = false
    public var name: String?
    public var packageType: String?
    /// Why Info.plist could not be read; the bundle is then searched with an empty dictionary.
    public var problem: String?

    public init(path: String, developmentRegion: String? = nil, localizationFolders: [String] = []) {
        self.path = path
        self.developmentRegion = developmentRegion
        self.localizationFolders = localizationFolders
    }

    /// `CFBundleLocalizations`, then the `.lproj` folders, then the development region when
    /// `Base.lproj` exists and the region is not present in any spelling (2.1).
    public var availableLocalizations: [String] {
        var available = declaredLocalizations
        for folder in localizationFolders where !available.contains(folder) { available.append(folder) }
        if let region = developmentRegion, localizationFolders.contains("Base"),
           !available.contains(where: { LanguageTag.normalized($0) == LanguageTag.normalized(region) }) {
            available.append(region)
        }
        return available
    }

    /// Whether the bundle has localizations of its own, which makes a theme's root bundle the
    /// main bundle that nested bundles follow (2.5).
    public var hasLocalizations: Bool { developmentRegion != nil || !localizationFolders.isEmpty }

    /// Reads `Info.plist` (any case; XML, binary or OpenStep) from `folder`. A missing file is an
    /// empty dictionary; a malformed one too, with `problem` saying why.
    public mutating func readInfoPlist(in folder: String) {
        guard let file = FileSystem.entries(of: folder).first(where: { $0.lowercased() == "info.plist" }).map({ "\(folder)/\($0)" }),
              FileSystem.isRegularFile(file) else { return }
        guard let data = FileManager.default.contents(atPath: file), data.count <= 4 << 20 else {
            problem = "\(file): unreadable or larger than 4 MiB"
            return
        }
        read(infoPlist: data, file: file)
    }

    /// Takes the keys themed uses from Info.plist bytes; `file` names them in `problem`.
    public mutating func read(infoPlist data: Data, file: String) {
        let dictionary: [String: Any]
        do {
            guard let root = try PropertyList.parse(Array(data)) as? [String: Any] else {
                problem = "\(file): the root is not a dictionary; read as empty"
                return
            }
            dictionary = root
        } catch {
            problem = "\(file): not a property list (XML, binary or OpenStep); read as empty"
            return
        }
        identifier = Self.nonEmptyString(dictionary["CFBundleIdentifier"])
        developmentRegion = Self.nonEmptyString(dictionary["CFBundleDevelopmentRegion"])
        declaredLocalizations = ((dictionary["CFBundleLocalizations"] as? [Any]) ?? []).compactMap(Self.nonEmptyString)
        allowsMixedLocalizations = Self.boolean(dictionary["CFBundleAllowMixedLocalizations"])
        name = Self.nonEmptyString(dictionary["CFBundleName"])
        packageType = Self.nonEmptyString(dictionary["CFBundlePackageType"])
    }

    static func nonEmptyString(_ value: Any?) -> String? {
        guard let string = value as? String, !string.isEmpty else { return nil }
        return string
    }

    /// A boolean, a string `YES`/`true` in any case, or a non-zero number.
    static func boolean(_ value: Any?) -> Bool {
        switch value {
        case let flag as Bool: flag
        case let string as String: ["yes", "true"].contains(string.lowercased())
        case let number as NSNumber: number.intValue != 0
        default: false
        }
    }
}
