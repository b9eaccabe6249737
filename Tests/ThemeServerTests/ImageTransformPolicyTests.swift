import Foundation
import ImageCoders
import Testing
import ServiceSupport
import TestSupport
@testable import ThemeServer

/// Transforms nobody can abuse (issue 46): presets by name, the rest signed or refused.
@Suite("image transforms: presets and signatures")
struct ImageTransformPolicyTests {
    static let key = "a-signing-key-of-some-length"
    static let thumb = ImagePreset(width: 32, height: 32, fit: .cover, format: .webp, quality: 60)

    func api(_ rule: ImageTransformRule, keys: [String] = [key]) throws -> APIFixture {
        try APIFixture(themes: ImageFormatRouteTests.themes) { ($0.imageTransforms, $0.imagePresets, $0.imageSigningKeys) = (rule, ["thumb": Self.thumb], keys) }
    }

    @Test("signed: a preset for anyone; w, h, fit, q and format only with a valid sig=, by any of the keys; the refusal names the rule")
    func signed() throws {
        let api = try api(.signed, keys: ["an-older-key-still-valid", Self.key])
        let preset = try api.request("/themes/pics/images/banner?preset=thumb")
        #expect(preset.status == 200 && preset.header("Content-Type") == "image/webp", "\(preset.text.prefix(200))")

        let unsigned = try api.request("/themes/pics/images/banner?w=40&fit=fill&h=7")
        #expect(unsigned.status == 403 && unsigned.text.contains("transform_refused") && unsigned.text.contains(#"imageTransforms is \"signed\""#)
                && unsigned.text.contains("no sig=") && unsigned.text.contains("presets: thumb"), "\(unsigned.text)")

        let signed = ImageSignature.sign("/themes/pics/images/banner?w=40&fit=fill&h=7", key: Self.key)
        #expect(signed.hasPrefix("/themes/pics/images/banner?w=40&fit=fill&h=7&sig="))
        let answer = try api.request(signed)
        #expect(answer.status == 200 && answer.header("Content-Type") == "image/png", "\(answer.text.prefix(200))")
        let rotated = try api.request(ImageSignature.sign("/themes/pics/images/banner?w=41", key: "an-older-key-still-valid"))
        #expect(rotated.status == 200, "a key being rotated out still signs")

        for forged in [signed.replacingOccurrences(of: "w=40", with: "w=4000"), signed + "&q=5",
                       ImageSignature.sign("/themes/pics/images/banner?w=40", key: "somebody-else's-key-here"),
                       "/themes/pics/images/banner?w=40&sig=short"] {
            let refused = try api.request(forged)
            #expect(refused.status == 403 && refused.text.contains("not a valid signature"), "\(forged): \(refused.text)")
        }
        #expect(try api.request("/themes/pics/images/banner?format=auto").status == 200, "format=auto picks from Accept: not a transform")
        #expect(try api.request("/themes/pics/images/banner").status == 200)
    }

    @Test("presets: only named presets; open: anyone; a preset that is not configured, or mixed with w=, is 400")
    func presetsAndOpen() throws {
        let presets = try api(.presets)
        #expect(try presets.request("/themes/pics/images/banner?preset=thumb").status == 200)
        let refused = try presets.request(ImageSignature.sign("/themes/pics/images/banner?w=40", key: Self.key))
        #expect(refused.status == 403 && refused.text.contains(#"imageTransforms is \"presets\""#), "a signature does not open presets-only: \(refused.text)")
        let unknown = try presets.request("/themes/pics/images/banner?preset=huge")
        #expect(unknown.status == 400 && unknown.text.contains("expected thumb"), "\(unknown.text)")

        let open = try api(.open)
        #expect(try open.request("/themes/pics/images/banner?w=40&q=30&format=jpeg").status == 200)
        let mixed = try open.request("/themes/pics/images/banner?preset=thumb&w=3")
        #expect(mixed.status == 400 && mixed.text.contains("do not go together"), "\(mixed.text)")
    }

    @Test("q= sets the lossy quality of JPEG, WebP and AVIF: a lower q is fewer bytes; out of 1-100 is 400")
    func quality() throws {
        let api = try api(.open)
        for format in ["jpeg", "webp", "avif"] {
            let low = try api.request("/themes/pics/images/banner?format=\(format)&q=5")
            let high = try api.request("/themes/pics/images/banner?format=\(format)&q=95")
            #expect(low.status == 200 && high.status == 200 && low.body.count < high.body.count, "\(format): \(low.body.count) vs \(high.body.count)")
        }
        for bad in ["0", "101", "x"] {
            #expect(try api.request("/themes/pics/images/banner?format=webp&q=\(bad)").status == 400)
        }
    }

    @Test("a signature is over the path and query as sent, sig= removed wherever it stands")
    func signatureForm() {
        let signed = ImageSignature.sign("/a?x=1&y=2", key: Self.key)
        let tag = String(signed.split(separator: "=").last ?? "")
        #expect(tag.count == 43 && !tag.contains("+") && !tag.contains("/"))
        #expect(ImageSignature.isValid(signed, keys: [Self.key]))
        #expect(ImageSignature.isValid("/a?sig=\(tag)&x=1&y=2", keys: [Self.key]))
        #expect(!ImageSignature.isValid("/a?y=2&x=1&sig=\(tag)", keys: [Self.key]), "another order is another query")
        #expect(!ImageSignature.isValid(signed, keys: []))
        #expect(ImageSignature.sign("/a", key: Self.key).hasPrefix("/a?sig="))
    }
}
