import Foundation
import ThemeVocabulary

/// An `.xcassets` source folder, read from its `Contents.json` files as Xcode writes them.
///
/// Only what lookups need is kept: each entry of a colour, image or data set becomes one
/// `XCAssets.Entry` with its traits. A set whose `Contents.json` is malformed is skipped and
/// reported in `problems`, naming the file and the field; the rest of the folder still loads.
public struct XCAssets: Sendable {
    public enum Kind: String, Sendable { case color, image, data }

    /// A colour as written in a colour set: a colour space and straight components, or a
    /// reference to a system colour.
    public struct Color: Sendable, Equatable {
        public var colorSpace: ColorSpace
        public var components: [Double]
        /// A named system colour (`labelColor`) instead of components.
        public var systemReference: String?

        public init(colorSpace: ColorSpace, components: [Double], systemReference: String? = nil) {
            (self.colorSpace, self.components, self.systemReference) = (colorSpace, components, systemReference)
        }
    }

    /// One variant of an asset.
    public struct Entry: Sendable {
        public var kind: Kind
        /// The asset name, with namespace folders joined by `/`.
        public var name: String
        public var idiom = Idiom.universal
        /// 1, 2, 3, or 0 for scale-less (vectors, single-scale images, colours, data).
        public var scale = 0
        public var subtype = 0
        public var appearance = Appearance.any
        public var gamut = Gamut.sRGB
        public var widthClass = SizeClass.any
        public var heightClass = SizeClass.any
        public var direction = LayoutDirection.neutral
        public var memoryGB = 0
        public var graphicsFamily = 0
        public var locale: String?
        public var color: Color?
        /// The referenced file, for images and data.
        public var file: String?

        public init(kind: Kind, name: String) {
            (self.kind, self.name) = (kind, name)
        }
    }

    public var path: String
    public var entries: [Entry] = []
    public var problems: [String] = []

    public init(path: String) {
        self.path = path
        walk(path, namespace: "")
    }

    private mutating func walk(_ folder: String, namespace: String) {
        let children = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
        for child in children {
            let childPath = "\(folder)/\(child)"
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: childPath, isDirectory: &isDirectory), isDirectory.boolValue else { continue }
            let base = (child as NSString).deletingPathExtension
            switch (child as NSString).pathExtension {
            case "colorset": readSet(childPath, kind: .color, name: namespace + base)
            case "imageset", "appiconset", "symbolset", "launchimage": readSet(childPath, kind: .image, name: namespace + base)
            case "dataset": readSet(childPath, kind: .data, name: namespace + base)
            case "": // a group: transparent unless it provides a namespace
                let contents = try? Self.json(at: "\(childPath)/Contents.json")
                let properties = contents?["properties"] as? [String: Any]
                let providesNamespace = properties?["provides-namespace"] as? Bool ?? false
                walk(childPath, namespace: providesNamespace ? "\(namespace)\(base)/" : namespace)
            default: continue
            }
        }
    }

    private mutating func readSet(_ folder: String, kind: Kind, name: String) {
        let file = "\(folder)/Contents.json"
        let contents: [String: Any]
        do {
            contents = try Self.json(at: file)
        } catch {
            problems.append("\(file): \(error)")
            return
        }
        let set = Self.set(contents, kind: kind, name: name, folder: folder)
        entries += set.entries
        problems += set.problems.map { "\(file): \($0)" }
    }

    /// The entries of one set's Contents.json (already decoded from JSON), and a problem for each
    /// entry that could not be read. Files it names must be in `folder`.
    public static func set(_ contents: [String: Any], kind: Kind, name: String, folder: String) -> (entries: [Entry], problems: [String]) {
        let key = kind == .color ? "colors" : kind == .data ? "data" : "images"
        guard let items = contents[key] as? [[String: Any]] else { return ([], ["field \"\(key)\" is missing or not an array"]) }
        var entries: [Entry] = [], problems: [String] = []
        for (index, item) in items.enumerated() {
            do {
                if let entry = try entry(item, kind: kind, name: name, folder: folder) { entries.append(entry) }
            } catch {
                problems.append("\(key)[\(index)]: \(error)")
            }
        }
        return (entries, problems)
    }

    struct FieldError: Error, CustomStringConvertible {
        var description: String
    }

    static func json(at path: String) throws -> [String: Any] {
        guard let data = FileManager.default.contents(atPath: path) else { throw FieldError(description: "cannot be read") }
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: data)
        } catch {
            throw FieldError(description: "not valid JSON (\((error as NSError).userInfo["NSDebugDescription"] as? String ?? "parse error"))")
        }
        guard let dictionary = object as? [String: Any] else { throw FieldError(description: "top level is not an object") }
        return dictionary
    }

    static func entry(_ item: [String: Any], kind: Kind, name: String, folder: String) throws -> Entry? {
        if item["unassigned"] as? Bool == true { return nil }
        var entry = Entry(kind: kind, name: name)
        entry.idiom = Idiom(assetCatalogName: item["idiom"] as? String ?? "universal")
        if let scale = item["scale"] as? String {
            guard let value = Scale.parseAssetCatalogName(scale) else {
                throw FieldError(description: "field \"scale\": \"\(scale)\" is not 1x, 2x or 3x")
            }
            entry.scale = value
        }
        var luminosity: String?, contrast: String?
        for appearance in item["appearances"] as? [[String: Any]] ?? [] {
            switch (appearance["appearance"] as? String, appearance["value"] as? String) {
            case ("luminosity", let value?) where Appearance(luminosityName: value, contrastName: nil) != nil: luminosity = value
            case ("contrast", "high"): contrast = "high"
            case let (trait, value):
                throw FieldError(description: "field \"appearances\": unknown \(trait ?? "?")=\(value ?? "?")")
            }
        }
        entry.appearance = Appearance(luminosityName: luminosity, contrastName: contrast) ?? .any
        entry.gamut = (item["display-gamut"] as? String).flatMap(Gamut.init(requestName:)) ?? .sRGB
        entry.widthClass = (item["width-class"] as? String).flatMap(SizeClass.init(name:)) ?? .any
        entry.heightClass = (item["height-class"] as? String).flatMap(SizeClass.init(name:)) ?? .any
        entry.direction = (item["language-direction"] as? String).flatMap(LayoutDirection.init(requestName:)) ?? .neutral
        entry.locale = item["locale"] as? String
        if let subtype = item["subtype"] as? String { entry.subtype = Self.subtype(subtype) }
        if let memory = item["memory"] as? String { entry.memoryGB = MemoryClass.parseGigabytes(memory) ?? 0 }
        if kind == .color {
            guard let color = item["color"] as? [String: Any] else { throw FieldError(description: "field \"color\" is missing") }
            entry.color = try Self.color(color)
        } else {
            guard let filename = item["filename"] as? String else { return nil } // an empty slot
            guard !filename.contains("/"), filename != "..", FileManager.default.fileExists(atPath: "\(folder)/\(filename)") else {
                throw FieldError(description: "field \"filename\": \"\(filename)\" is not a file in \(folder)")
            }
            entry.file = "\(folder)/\(filename)"
        }
        return entry
    }

    static func subtype(_ value: String) -> Int {
        if value == "retina4" { return 568 }
        if value.hasSuffix("h"), let height = Int(value.dropLast()) { return height }
        return Int(value) ?? 0
    }

    static func color(_ color: [String: Any]) throws -> Color {
        if let reference = color["reference"] as? String {
            return Color(colorSpace: .sRGB, components: [], systemReference: reference)
        }
        let space = ColorSpace(assetCatalogName: color["color-space"] as? String ?? "srgb")
        guard let components = color["components"] as? [String: Any] else {
            throw FieldError(description: "field \"color.components\" is missing")
        }
        let names = components["white"] != nil ? ["white", "alpha"] : ["red", "green", "blue", "alpha"]
        var values: [Double] = []
        for name in names {
            guard let raw = components[name] else {
                if name == "alpha" { values.append(1); continue }
                throw FieldError(description: "field \"color.components.\(name)\" is missing")
            }
            guard let value = component(raw) else {
                throw FieldError(description: "field \"color.components.\(name)\": \(raw) is not a colour component")
            }
            values.append(space.isExtended ? value : min(max(value, 0), 1))
        }
        return Color(colorSpace: space, components: values, systemReference: nil)
    }

    /// A component in any of Xcode's notations: a JSON number, "0.5", "0x80", "128".
    public static func component(_ raw: Any) -> Double? {
        if let number = raw as? NSNumber, !(raw is String) { return number.doubleValue }
        guard let text = (raw as? String)?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
        if text.lowercased().hasPrefix("0x") { return Int(text.dropFirst(2), radix: 16).map { Double($0) / 255 } }
        if text.contains(".") || text.lowercased().contains("e") { return Double(text) }
        guard let integer = Int(text) else { return nil }
        if integer == 0 || integer == 1 { return Double(integer) }
        return (2...255).contains(integer) ? Double(integer) / 255 : nil
    }
}
