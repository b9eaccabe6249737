import CatalogWriter
import Codecs
import Foundation
import ThemeVocabulary

/// Small valid inputs for each target, made here rather than kept as files: libFuzzer mutates
/// them into the shapes a reader must survive. (`make fuzz` adds the shared corpus catalogs.)
public enum FuzzSeeds {
    public static func seeds(for target: String) -> [[UInt8]] {
        let bitmap = Bitmap(width: 3, height: 2, layout: .bgra8, pixels: (0..<24).map { UInt8($0 * 10) })
        switch target {
        case "catalog", "bom": return (try? compiledCatalog()).map { [$0] } ?? []
        case "lzfse": return [LZFSEEncoder.compress(Array(repeating: 7, count: 300) + Array("themed themed themed".utf8))]
        case "zlib": return [Array("themed themed themed".utf8).withUnsafeBytes { Zlib.compress($0) }]
        case "png":
            // A JPEG's start: SOI, APP0, SOF0 (200 x 120), EOI.
            let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 0x4A, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0,
                                 0xFF, 0xC0, 0x00, 0x11, 0x08, 0x00, 120, 0x00, 200, 0x03, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1, 0xFF, 0xD9]
            return [PNG.encode(bitmap), jpeg]
        case "heif": return [heif(width: 3024, height: 4032, thumbnail: (240, 320))]
        case "deepmap", "rle", "palette": return [[2, 1, 0x64, 0x6D, 0x70, 0x32, 1, 0, 0, 0, 1, 2, 3, 4]]
        case "http":
            return [Array("GET /themes/light/colors/primary?appearance=dark HTTP/1.1\r\nHost: localhost\r\nAccept-Language: fr;q=0.5\r\n\r\n".utf8),
                    Array("PUT /active HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n4\r\n{\"a\"\r\n1;x\r\n}\r\n0\r\n\r\n".utf8),
                    Array("GET http://h:80/ HTTP/1.0\nConnection: keep-alive\n\n".utf8)]
        case "strings": return [Array("/* c */ \"a\" = \"b\\n\\U00e9\";\n// x\nkey = value;\n".utf8)]
        case "stringsdict", "infoplist":
            let plist: [String: Any] = ["CFBundleIdentifier": "x", "%d files": ["NSStringLocalizedFormatKey": "%#@n@",
                                                                                  "n": ["NSStringFormatSpecTypeKey": "NSStringPluralRuleType", "one": "%d file", "other": "%d files"]]]
            return [.xml, .binary].compactMap { format in (try? PropertyListSerialization.data(fromPropertyList: plist, format: format, options: 0)).map(Array.init) }
        case "xcstrings":
            return [Array(#"{"sourceLanguage":"en","strings":{"a":{"localizations":{"fr":{"stringUnit":{"state":"translated","value":"b"}},"ru":{"variations":{"plural":{"one":{"stringUnit":{"value":"x"}}}}}}}}}"#.utf8)]
        case "contentsjson":
            return [Array(#"{"colors":[{"idiom":"iphone","appearances":[{"appearance":"luminosity","value":"dark"}],"color":{"color-space":"display-p3","components":{"red":"0x10","green":"0.5","blue":"128","alpha":"1"}}}],"images":[{"idiom":"universal","scale":"2x","filename":"a.png","display-gamut":"display-P3"}]}"#.utf8)]
        case "alias":
            return [Array(#"""
            {"theme": "brand-acme", "generation": 4, "rules": [{"when": {"platform": ["ios", "Android"], "appVersion": ">=5.2 <6,=7",
              "locale": ["fr", "fr-*", "*"], "attributes": {"tier": ["beta"], "cohort": "a"}}, "theme": "holiday"}, {"when": {}, "theme": "x", "generation": 1}]}
            """#.utf8)]
        case "json":
            return [Array(#"{"a": [1, -2.5e3, true, null, "x\u00e9\n"], "b": {"c": {}}}"#.utf8)]
        case "tokens":
            return [Array(#"""
            {"color": {"$type": "color", "blue": {"$value": {"colorSpace": "oklch", "components": [0.6, 0.2, "none"], "alpha": 0.5}},
              "alias": {"$value": "{color.blue}"}, "ref": {"$ref": "#/color/blue/$value"}},
             "space": {"$type": "dimension", "$root": {"$value": {"value": 4, "unit": "px"}}},
             "ext": {"$extends": "{space}"},
             "shadow": {"$type": "shadow", "$value": [{"color": "{color.alias}", "offsetX": "{space.$root}", "offsetY": {"value": 1, "unit": "rem"},
               "blur": {"value": 2, "unit": "px"}, "spread": {"value": 0, "unit": "px"}}]}}
            """#.utf8)]
        case "resolver":
            return [Array(#"""
            {"version": "2025.10", "sets": {"s": {"sources": [{"$ref": "base.json"}, {"a": {"$type": "number", "$value": 1}}]}},
             "modifiers": {"m": {"contexts": {"x": [{"$ref": "#/sets/s"}], "y": []}, "default": "y"}},
             "resolutionOrder": [{"$ref": "#/sets/s"}, {"$ref": "#/modifiers/m"}, {"type": "set", "name": "i", "sources": []}]}
            """#.utf8)]
        case "studio":
            return [Array(##"""
            {"base": {"value": "8", "type": "spacing"}, "double": {"value": "roundTo({base} * 1.5 + max(2px, {base} / 4), 1)", "type": "sizing"},
             "brand": {"value": "#3366cc80", "type": "color"}, "dark": {"value": "{brand}", "type": "color",
               "$extensions": {"studio.tokens": {"modify": {"type": "mix", "value": "0.5", "space": "lch", "color": "#ffffff"}}}},
             "shadow": {"value": [{"x": "0", "y": "{base}", "blur": "4", "spread": "0", "color": "#000", "type": "innerShadow"}], "type": "boxShadow"},
             "type": {"value": {"fontFamily": "Inter", "fontWeight": "Semi Bold", "fontSize": "{base} * 2", "lineHeight": "150%", "textCase": "none"}, "type": "typography"}}
            """##.utf8)]
        case "figma":
            return [Array(#"""
            {"meta": {"variableCollections": {"C": {"id": "C", "name": "Scheme", "modes": [{"modeId": "1", "name": "Light"}, {"modeId": "2", "name": "Dark"}], "defaultModeId": "1"},
                                               "L": {"id": "L", "name": "Lib", "modes": [{"modeId": "9", "name": "M"}], "defaultModeId": "9", "remote": true}},
                      "variables": {"V": {"id": "V", "name": "color/bg", "variableCollectionId": "C", "resolvedType": "COLOR", "scopes": ["FRAME_FILL"],
                                          "valuesByMode": {"1": {"r": 1, "g": 1, "b": 1, "a": 1}, "2": {"type": "VARIABLE_ALIAS", "id": "R"}}},
                                    "W": {"id": "W", "name": "color/bg/hover", "variableCollectionId": "C", "resolvedType": "FLOAT", "scopes": ["GAP"], "valuesByMode": {"1": 4}},
                                    "R": {"id": "R", "name": "ink", "variableCollectionId": "L", "resolvedType": "COLOR", "remote": true, "valuesByMode": {"9": {"r": 0, "g": 0, "b": 0}}}}}}
            """#.utf8)]
        default: return []
        }
    }

    /// The boxes of a HEIF file's header (no image data follows: `HEIF.size` reads only these).
    /// `ftyp` (heic) and a `meta` whose primary item 1 has an `ispe` of `width` x `height`; with a
    /// thumbnail, item 2 with its own, smaller `ispe`, listed first so that picking by position
    /// would be wrong.
    public static func heif(width: Int, height: Int, thumbnail: (width: Int, height: Int)? = nil, primaryItem: Int = 1) -> [UInt8] {
        func box(_ type: String, _ body: [UInt8]) -> [UInt8] { u32(8 + body.count) + Array(type.utf8) + body }
        func fullBox(_ type: String, version: UInt8 = 0, flags: UInt32 = 0, _ body: [UInt8]) -> [UInt8] {
            box(type, [version] + Array(u32(Int(flags)).dropFirst()) + body)
        }
        func u32(_ value: Int) -> [UInt8] { [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) } }
        func u16(_ value: Int) -> [UInt8] { [UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value)] }
        func ispe(_ size: (Int, Int)) -> [UInt8] { fullBox("ispe", u32(size.0) + u32(size.1)) }
        // Properties are numbered from 1: the thumbnail's ispe (if any) first, then the primary's.
        var properties: [[UInt8]] = []
        var associations: [(item: Int, property: Int)] = []
        if let thumbnail {
            properties.append(ispe(thumbnail))
            associations.append((2, properties.count))
        }
        properties.append(ispe((width, height)))
        associations.append((1, properties.count))
        let ipma = fullBox("ipma", u32(associations.count) + associations.flatMap { u16($0.item) + [1, UInt8(0x80 | $0.property)] })
        let meta = fullBox("meta", fullBox("hdlr", u32(0) + Array("pict".utf8) + [UInt8](repeating: 0, count: 13))
                           + fullBox("pitm", u16(primaryItem))
                           + box("iprp", box("ipco", properties.flatMap { $0 }) + ipma))
        return box("ftyp", Array("heic".utf8) + u32(0) + Array("mif1heic".utf8)) + meta
    }

    /// A small catalog as `themed compile` writes it: a colour with a dark variant, a 2x bitmap
    /// (LZFSE CELM) and a data asset.
    static func compiledCatalog() throws -> [UInt8] {
        let folder = NSTemporaryDirectory() + "themed-fuzz-seed-\(UUID().uuidString).xcassets"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        func write(_ bytes: [UInt8], _ relative: String) throws {
            let path = "\(folder)/\(relative)"
            try FileManager.default.createDirectory(atPath: FilePaths.folder(of: path), withIntermediateDirectories: true)
            try Data(bytes).write(to: URL(fileURLWithPath: path))
        }
        let color: [String: Any] = ["color-space": "srgb", "components": ["red": "1", "green": "0.5", "blue": "0", "alpha": "1"]]
        let colors: [[String: Any]] = [["idiom": "universal", "color": color],
                                       ["idiom": "universal", "color": color, "appearances": [["appearance": "luminosity", "value": "dark"]]]]
        try write(Array(try JSONSerialization.data(withJSONObject: ["colors": colors])), "tint.colorset/Contents.json")
        let bitmap = Bitmap(width: 4, height: 4, layout: .bgra8, pixels: (0..<64).map { UInt8($0 * 4) })
        try write(PNG.encode(bitmap), "icon.imageset/icon@2x.png")
        try write(Array(try JSONSerialization.data(withJSONObject: ["images": [["idiom": "universal", "scale": "2x", "filename": "icon@2x.png"]]])),
                  "icon.imageset/Contents.json")
        try write(Array("{\"k\": 1}".utf8), "blob.dataset/blob.json")
        try write(Array(try JSONSerialization.data(withJSONObject: ["data": [["idiom": "universal", "filename": "blob.json"]]])), "blob.dataset/Contents.json")
        return try CatalogCompiler().compile(folder)
    }
}
