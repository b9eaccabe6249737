import ArgumentParser
import AssetCatalog
import Codecs
import Foundation
import JSON

/// `themed extract FILE.car -o DIR`: every image as a file, and the colours as JSON.
struct Extract: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "extract",
        abstract: "Write every image of a catalog as PNG (vectors, JPEG, HEIC and data as stored) and its colours as colors.json.",
        discussion: "Files are named NAME[@Nx][~idiom][-appearance].ext; packed atlases are not written, the images linked into them are.")

    @Argument(help: "The .car file.")
    var file: String

    @Option(name: .shortAndLong, help: "Directory to write into (created if missing).")
    var output: String

    func run() throws {
        let catalog = try openCatalog(file)
        try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
        var used: Set<String> = []
        var written = 0, failed = 0
        for rendition in newestPerDeploymentTarget(catalog.renditions) where !rendition.isPackedAtlas {
            let image: AssetCatalog.Image
            switch rendition.content {
            case .bitmap, .link, .rawData: break
            default: continue
            }
            do {
                image = try catalog.image(for: rendition)
            } catch {
                FileHandle.standardError.write(Data("themed: \(file): \(rendition.name): \(error)\n".utf8))
                failed += 1
                continue
            }
            let (bytes, fileExtension): ([UInt8], String) = switch image {
            case .bitmap(let bitmap): (PNG.encode(bitmap), "png")
            case .data(let data, let format): (data, format?.fileExtension ?? "data")
            }
            let name = uniqueName(for: rendition, in: catalog, extension: fileExtension, used: &used)
            try Data(bytes).write(to: URL(fileURLWithPath: "\(output)/\(name)"))
            written += 1
        }
        let colors = JSONValue.array(catalog.namedColors.map { entry in
            var members: [(String, JSONValue)] = [("name", .string(entry.rendition.name))]
            if let appearance = catalog.appearanceName(of: entry.rendition) { members.append(("appearance", .string(appearance))) }
            members += [
                ("idiom", .string(entry.rendition.key.idiom.name)),
                ("gamut", .string(entry.rendition.key.displayGamut.assetutilName)),
                ("colorSpace", .string(entry.color.colorSpace.name)),
                ("components", .array(entry.color.components.map(JSONValue.double))),
                ("hex", .string(entry.color.hex)),
            ]
            return .object(members)
        } + catalog.legacyColors.map { color in
            .object([("name", .string(color.name)), ("colorSpace", .string(color.color.colorSpace.name)),
                     ("components", .array(color.color.components.map(JSONValue.double))), ("hex", .string(color.color.hex))])
        })
        try Data((colors.serialized(pretty: true) + "\n").utf8).write(to: URL(fileURLWithPath: "\(output)/colors.json"))
        print("\(written) files written to \(output), \(failed) renditions could not be decoded")
    }

    /// Modern catalogs store an image up to three times, keyed by deployment target (lzfse,
    /// deepmap, deepmap2 copies of the same pixels); keep only the newest copy of each.
    private func newestPerDeploymentTarget(_ renditions: [Rendition]) -> [Rendition] {
        var newest: [[UInt16]: Rendition] = [:]
        for rendition in renditions {
            var key = rendition.key
            if let position = key.attributeIDs.firstIndex(of: RenditionAttribute.deploymentTarget.rawValue) { key.values[position] = 0 }
            if let kept = newest[key.values], kept.key.deploymentTarget >= rendition.key.deploymentTarget { continue }
            newest[key.values] = rendition
        }
        let kept = Set(newest.values.map(\.index))
        return renditions.filter { kept.contains($0.index) }
    }

    /// NAME[@Nx][~idiom][-appearance].ext, made safe as a file name and unique in the folder.
    private func uniqueName(for rendition: Rendition, in catalog: AssetCatalog, extension fileExtension: String, used: inout Set<String>) -> String {
        var base = rendition.name
        if let dot = base.lastIndex(of: "."), ["png", "jpg", "jpeg", "pdf", "svg", "heic", "psd"].contains(base[base.index(after: dot)...].lowercased()) {
            base = String(base[..<dot])
        }
        base = String(base.map { $0 == "/" || $0 == "\0" ? "_" : $0 })
        if base.hasPrefix(".") { base = "_" + base }
        if base.isEmpty { base = "rendition-\(rendition.index)" }
        let key = rendition.key
        if key.scale > 1 && !base.hasSuffix("@\(key.scale)x") { base += "@\(key.scale)x" }
        if key.idiom != .universal { base += "~\(key.idiom.name)" }
        if let appearance = catalog.appearanceName(of: rendition), key.appearance != 0 { base += "-\(appearance)" }
        var name = "\(base).\(fileExtension)"
        var counter = 2
        while used.contains(name) {
            name = "\(base)-\(counter).\(fileExtension)"
            counter += 1
        }
        used.insert(name)
        return name
    }
}
