import Foundation
import ThemeVocabulary

/// A loose resource file name split into its lookup parts (lookup-rules.md 3.1):
/// `base ["@" N "x"] ["-" platform] ["~" device] "." ext`.
///
/// The modifiers are read from the end in the grammar's order, so `icon@2x~ipad.png` is a 2x
/// iPad file while `icon~ipad@2x.png` is a plain file named `icon~ipad@2x`: a `~` that is not
/// followed by a known device up to the extension means the name has no modifiers at all.
public struct ResourceFileName: Sendable, Equatable {
    public var base: String
    /// 1, 2 or 3 (no `@Nx` is 1).
    public var scale: Int
    /// `iphoneos`, `macos`, `tvos`, `watchos`, or "" (`macosx` is read as `macos`).
    public var platform: String
    /// `iphone`, `ipad`, `appletv`, `applewatch`, or "".
    public var device: String
    /// Lower-cased.
    public var pathExtension: String

    public static let platforms = ["iphoneos": "iphoneos", "macos": "macos", "macosx": "macos", "tvos": "tvos", "watchos": "watchos"]
    /// Image formats served from loose files, in the order an extension-less request tries them
    /// (3.3); webp comes after them all.
    public static let imageExtensions = ["png", "jpg", "jpeg", "heic", "gif", "pdf", "svg", "webp"]

    public init(base: String, scale: Int = 1, platform: String = "", device: String = "", pathExtension: String) {
        (self.base, self.scale, self.platform, self.device, self.pathExtension) = (base, scale, platform, device, pathExtension)
    }

    public init?(_ fileName: String) {
        guard let dot = fileName.lastIndex(of: "."), dot != fileName.startIndex else { return nil }
        pathExtension = fileName[fileName.index(after: dot)...].lowercased()
        var stem = String(fileName[..<dot])
        (scale, platform, device) = (1, "", "")
        if let tilde = stem.lastIndex(of: "~") {
            let suffix = String(stem[stem.index(after: tilde)...])
            guard Idiom(deviceSuffix: suffix) != nil else {
                base = stem
                return
            }
            device = suffix
            stem = String(stem[..<tilde])
        }
        if let dash = stem.lastIndex(of: "-"), let platform = Self.platforms[String(stem[stem.index(after: dash)...])] {
            self.platform = platform
            stem = String(stem[..<dash])
        }
        if stem.count > 3, stem.hasSuffix("x"), let at = stem.lastIndex(of: "@"),
           let scale = Int(stem[stem.index(after: at)..<stem.index(before: stem.endIndex)]), (1...3).contains(scale),
           stem.distance(from: at, to: stem.endIndex) == 3 {
            self.scale = scale
            stem = String(stem[..<at])
        }
        base = stem
    }

    /// The idiom (lookup-rules.md 4.1) the device suffix stands for; universal without one.
    public var idiom: Idiom { Idiom(deviceSuffix: device) ?? .universal }
}
