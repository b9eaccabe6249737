import Foundation
import Testing
import TestSupport

/// Every command of the built `themed`, as a user runs it: its `--help`, and one real invocation
/// each whose output and exit status are checked. `everyCommandIsRun` fails when a command is
/// added without being run here, so no command ships untested.
@Suite("every themed command, run as users run it")
struct CommandLineTests {
    /// The commands the tests below run for real, by their full name.
    static let exercised: Set<String> = [
        "serve", "index", "compile", "inspect", "extract", "export", "config check", "watch", "sign",
        "publish", "retire", "rollback", "releases", "replicas", "token create", "token list", "token revoke", "check",
        "import figma", "diff", "policy set", "policy show",
    ]

    /// `text` as the file at `path` under `folder`, its folders made.
    static func write(_ text: String, to path: String, in folder: String) throws {
        try FileManager.default.createDirectory(atPath: (folder + "/" + path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: folder + "/" + path))
    }

    struct ListingFailure: Error, CustomStringConvertible { var description: String }

    /// The commands `themed --help` lists, each group's own (`token create`) in place of the group.
    static func listedCommands(_ prefix: [String] = []) throws -> [String] {
        let help = try DaemonTests.run(prefix + ["--help"])
        guard help.status == 0, let section = help.output.components(separatedBy: "SUBCOMMANDS:").last, help.output.contains("SUBCOMMANDS:") else {
            return [prefix.joined(separator: " ")]
        }
        // Each command's line starts with two spaces and its name, in lower case; wrapped
        // summaries are indented further, and the section ends at "See 'themed help ...'".
        let lines = section.split(separator: "\n").prefix { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("See ") }
        let names = lines.compactMap { line -> String? in
            guard line.hasPrefix("  "), !line.hasPrefix("   "), let name = line.split(separator: " ").first,
                  name.allSatisfy({ $0.isLowercase || $0 == "-" }), name != "help" else { return nil }
            return String(name)
        }
        guard prefix.count < 3 else { throw ListingFailure(description: "commands nested deeper than expected: \(prefix)") }
        return try names.flatMap { try listedCommands(prefix + [$0]) }
    }

    @Test("every command themed lists has a --help that exits 0 and is run for real by this suite")
    func everyCommandIsRun() throws {
        let listed = try Self.listedCommands()
        #expect(listed.count >= Self.exercised.count, "\(listed)")
        #expect(Set(listed) == Self.exercised, "listed but not run here: \(Set(listed).subtracting(Self.exercised).sorted()); run here but not listed: \(Self.exercised.subtracting(listed).sorted())")
        for command in listed {
            let help = try DaemonTests.run(command.split(separator: " ").map(String.init) + ["--help"])
            #expect(help.status == 0 && help.output.contains("USAGE: themed \(command)"), "\(command) --help: \(help.status) \(help.errors)")
        }
    }

    @Test("compile, inspect, extract, index, export, config check and sign on the sample themes")
    func localCommands() throws {
        let folder = try DaemonTests.scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.copyItem(atPath: DaemonTests.themes, toPath: folder + "/themes")

        let compiled = try DaemonTests.run(["compile", "themes/dark/Theme.xcassets", "--output", "dark.car"], in: folder)
        #expect(compiled.status == 0, "\(compiled.errors)")
        #expect(FileManager.default.fileExists(atPath: folder + "/dark.car"))
        let missing = try DaemonTests.run(["compile", "themes/dark/Missing.xcassets", "--output", "missing.car"], in: folder)
        #expect(missing.status == 1 && missing.errors.contains("no such folder"), "\(missing.errors)")

        let inspected = try DaemonTests.run(["inspect", "dark.car", "--json"], in: folder)
        #expect(inspected.status == 0, "\(inspected.errors)")
        #expect(inspected.output.contains("\"primary\""), "the report names the catalog's colours: \(inspected.output.prefix(400))")

        let extracted = try DaemonTests.run(["extract", "dark.car", "--output", "extracted"], in: folder)
        #expect(extracted.status == 0, "\(extracted.errors)")
        let colors = try String(contentsOfFile: folder + "/extracted/colors.json", encoding: .utf8)
        #expect(colors.contains("primary"))

        // A one-letter index name: Foundation's folder-of-a-path trapped on it.
        let indexed = try DaemonTests.run(["index", "--themes", "themes", "--db", "i"], in: folder)
        #expect(indexed.status == 0, "\(indexed.errors)")
        #expect(indexed.output.contains("dark") && indexed.output.contains("light"), "\(indexed.output)")

        let exported = try DaemonTests.run(["export", "dark", "--format", "css", "--output", "exported", "--themes", "themes", "--db", "i"], in: folder)
        #expect(exported.status == 0, "\(exported.errors)")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder + "/exported")
        let css = try files.filter { $0.hasSuffix(".css") }.map { try String(contentsOfFile: folder + "/exported/" + $0, encoding: .utf8) }.joined()
        #expect(css.contains("--primary:"), "\(files): \(css.prefix(300))")
        // Options: light-dark() with a prefix; one a format does not take is refused, not ignored.
        let lightDark = try DaemonTests.run(["export", "dark", "--format", "css", "--light-dark", "--prefix", "ds", "-o", "ld", "--themes", "themes"], in: folder)
        #expect(lightDark.status == 0, "\(lightDark.errors)")
        #expect(try String(contentsOfFile: folder + "/ld/colors.css", encoding: .utf8).contains("--ds-primary:"))
        let refused = try DaemonTests.run(["export", "dark", "--format", "swift", "--prefix", "ds", "-o", "no", "--themes", "themes"], in: folder)
        #expect(refused.status != 0 && refused.errors.contains("prefix is not an option of the swift export"), "\(refused.errors)")
        let tailwind = try DaemonTests.run(["export", "dark", "--format", "tailwind", "-o", "tw", "--themes", "themes"], in: folder)
        #expect(tailwind.status == 0 && tailwind.output.hasSuffix("tw/theme.css\n"), "\(tailwind.output) \(tailwind.errors)")
        // The palettes a client fetches first, for an app to ship: each appearance and contrast
        // with its body and ETag as served (the Kotlin client's tests get a 304 with that ETag).
        let bootstrap = try DaemonTests.run(["export", "dark", "--format", "bootstrap", "-o", "shipped", "--themes", "themes"], in: folder)
        #expect(bootstrap.status == 0 && bootstrap.output.hasSuffix("shipped/themed-bootstrap.json\n"), "\(bootstrap.output) \(bootstrap.errors)")
        let shipped = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: folder + "/shipped/themed-bootstrap.json"))) as? [String: Any]
        let palettes = shipped?["palettes"] as? [[String: Any]] ?? []
        #expect(shipped?["format"] as? String == "themed-bootstrap" && shipped?["theme"] as? String == "dark" && shipped?["generation"] as? Int != nil)
        #expect(palettes.map { "\($0["appearance"] ?? "") \($0["contrast"] ?? "")" } == ["light normal", "dark normal", "light high", "dark high"])
        for palette in palettes {
            let body = (palette["body"] as? String).flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
            #expect(body?["theme"] as? String == "dark" && (body?["colors"] as? [String: Any])?["primary"] != nil, "\(palette)")
            #expect((palette["etag"] as? String)?.range(of: #"^"[0-9a-f]{64}"$"#, options: .regularExpression) != nil)
            // The body's and its brotli and gzip encodings' (a client that takes them is sent theirs).
            let etags = palette["etags"] as? [String] ?? []
            #expect(etags.count == 3 && etags.first == palette["etag"] as? String && Set(etags).count == 3, "\(etags)")
        }

        try Data(#"{"watch": false, "imageSigningKeys": ["a-key-of-twenty-chars"]}"#.utf8).write(to: URL(fileURLWithPath: folder + "/themed.json"))
        let checked = try DaemonTests.run(["config", "check", "themed.json", "--themes", "themes"], in: folder)
        #expect(checked.status == 0, "\(checked.errors)")
        #expect(checked.output.contains("imageSigningKeys = [\"a-key-of-twenty-chars\"]"), "\(checked.output)")

        // The command that crashed before printing anything (its settings made by hand).
        let signed = try DaemonTests.run(["sign", "--config", "themed.json", "/themes/dark/images/logo?w=300"], in: folder)
        #expect(signed.status == 0, "\(signed.errors)")
        #expect(signed.output.range(of: #"^/themes/dark/images/logo\?w=300&sig=[A-Za-z0-9_-]{43}\n$"#, options: .regularExpression) != nil, "\(signed.output)")
        let unsigned = try DaemonTests.run(["sign", "/themes/dark/images/logo?w=300"], in: folder)
        #expect(unsigned.status == 2 && unsigned.errors.contains("imageSigningKeys is empty"), "config/themed.json is not there: \(unsigned.errors)")
    }

    @Test("check reports theme.json's contrast pairs below their minimum: warnings, or errors with policy refuse")
    func checkContrast() throws {
        let folder = try DaemonTests.scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let write = { (text: String, path: String) in try Self.write(text, to: path, in: folder) }
        try write(##"{"color": {"$type": "color", "label": {"$value": "#999999"}, "background": {"$value": "#333333"}}}"##, "app/colors.tokens.json")
        try write(#"{"contrast": {"pairs": [{"foreground": "color.label", "background": "color.background"}]}}"#, "app/theme.json")
        let warned = try DaemonTests.run(["check", "app"], in: folder)
        #expect(warned.status == 0 && warned.output.contains("warning: contrast: color.label over color.background in light: 4.43:1, below 4.5"), "\(warned.output) \(warned.errors)")
        try write(#"{"contrast": {"pairs": [{"foreground": "color.label", "background": "color.background"}], "policy": "refuse"}}"#, "app/theme.json")
        let refused = try DaemonTests.run(["check", "app"], in: folder)
        #expect(refused.status == 1 && refused.output.contains("error: contrast: color.label over color.background in dark: 4.43:1, below 4.5"), "\(refused.output)")
    }

    @Test("diff compares two versions of a theme's colours mode by mode: exit 1 and each change, or 0 when the same")
    func diff() throws {
        let folder = try DaemonTests.scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let write = { (text: String, path: String) in try Self.write(text, to: path, in: folder) }
        try write(##"{"color": {"$type": "color", "accent": {"$value": "#0066ff"}, "ink": {"$value": "#111111"}, "old": {"$value": "#abcdef"}}}"##, "before/brand/c.tokens.json")
        try write(##"{"color": {"$type": "color", "accent": {"$value": "#ff6600"}, "ink": {"$value": "#111111"}, "new": {"$value": "#fedcba"}}}"##, "after/brand/c.tokens.json")
        let changed = try DaemonTests.run(["diff", "before/brand", "after/brand"], in: folder)
        #expect(changed.status == 1, "\(changed.output) \(changed.errors)")
        #expect(changed.output.contains("added: color.new\nremoved: color.old\nchanged: color.accent every mode #0066FFFF -> #FF6600FF\n"), "\(changed.output)")
        #expect(changed.output.hasSuffix("1 added, 1 removed, 1 changed, 0 newly broken; 0 contrast ratios moved, 0 now below their minimum; "
                                         + "tokens 0 added, 0 removed, 0 changed; strings 0 added, 0 removed, 0 changed; "
                                         + "images 0 added, 0 removed, 0 changed\n"), "\(changed.output)")
        let markdown = try DaemonTests.run(["diff", "before/brand", "after/brand", "--format", "markdown"], in: folder)
        #expect(markdown.output.hasPrefix("**before/brand → after/brand**: 1 added, 1 removed, 1 changed colour") && markdown.output.contains("| `color.accent` | every mode | `#0066FFFF` | `#FF6600FF` |  |"), "\(markdown.output)")
        let same = try DaemonTests.run(["diff", "before/brand", "before/brand", "--format", "json"], in: folder)
        #expect(same.status == 0 && same.output.contains(#""changed" : []"#) && same.output.contains(#""contrast" : []"#), "\(same.output)")

        // The contrast pairs the change moves: the one that now fails first in markdown.
        let pairs = #"{"contrast": {"pairs": [{"foreground": "color.ink", "background": "color.accent"}]}}"#
        try write(pairs, "before/brand/theme.json")
        try write(pairs, "after/brand/theme.json")
        let contrast = try DaemonTests.run(["diff", "before/brand", "after/brand"], in: folder)
        #expect(contrast.output.contains("contrast: color.ink over color.accent in light: 3.91 -> 6.43 (now at least 4.5)"), "\(contrast.output)")
        let reversed = try DaemonTests.run(["diff", "after/brand", "before/brand", "--format", "markdown"], in: folder)
        #expect(reversed.output.contains("**Contrast**: 6 pairs moved, 6 now below their minimum")
                && reversed.output.contains("| `color.ink` over `color.accent` | light | 6.43:1 | 3.91:1 | **below 4.5** |"), "\(reversed.output)")

        // The other design tokens, mode by mode, and the strings of a bundle, localization by localization.
        try write(##"{"space": {"$type": "dimension", "gap": {"$value": {"value": 4, "unit": "px"}}}}"##, "before/app/s.tokens.json")
        try write(##"{"space": {"$type": "dimension", "gap": {"$value": {"value": 8, "unit": "px"}}}}"##, "after/app/s.tokens.json")
        for (side, hello) in [("before", "Bonjour"), ("after", "Salut")] {
            try write("\"greeting\" = \"Hello\";\n", "\(side)/app/App.bundle/en.lproj/Localizable.strings")
            try write("\"greeting\" = \"\(hello)\";\n", "\(side)/app/App.bundle/fr.lproj/Localizable.strings")
        }
        try write("\"greeting\" = \"Hello\";\n\"farewell\" = \"Bye\";\n", "after/app/App.bundle/en.lproj/Localizable.strings")
        let content = try DaemonTests.run(["diff", "before/app", "after/app"], in: folder)
        #expect(content.status == 1, "\(content.output) \(content.errors)")
        #expect(content.output.contains(#"token: space.gap every mode {"value":4,"unit":"px"} -> {"value":8,"unit":"px"}"#), "\(content.output)")
        #expect(content.output.contains("string: Localizable/greeting fr Bonjour -> Salut\n"), "\(content.output)")
        #expect(content.output.contains("string: Localizable/farewell en - -> Bye\n") && !content.output.contains("greeting en"), "\(content.output)")
        let contentMarkdown = try DaemonTests.run(["diff", "before/app", "after/app", "--format", "markdown"], in: folder)
        #expect(contentMarkdown.output.contains("**design tokens**: 0 added, 0 removed, 1 changed")
                && contentMarkdown.output.contains("| `Localizable/greeting` | fr | `Bonjour` | `Salut` |"), "\(contentMarkdown.output)")
        #expect(try DaemonTests.run(["diff", "before/app", "before/app"], in: folder).status == 0)
    }

    /// A Figma file's variables as the REST API answers: a colour scheme over primitives.
    static let figmaVariables = ##"""
        {"status": 200, "error": false, "meta": {
          "variableCollections": {
            "C:1": {"id": "C:1", "name": "Primitives", "modes": [{"modeId": "1:0", "name": "Value"}], "defaultModeId": "1:0", "remote": false},
            "C:2": {"id": "C:2", "name": "Scheme", "modes": [{"modeId": "2:0", "name": "Light"}, {"modeId": "2:1", "name": "Dark"}], "defaultModeId": "2:0", "remote": false}},
          "variables": {
            "V:1": {"id": "V:1", "name": "white", "variableCollectionId": "C:1", "resolvedType": "COLOR", "valuesByMode": {"1:0": {"r": 1, "g": 1, "b": 1, "a": 1}}, "scopes": ["ALL_SCOPES"]},
            "V:2": {"id": "V:2", "name": "ink", "variableCollectionId": "C:1", "resolvedType": "COLOR", "valuesByMode": {"1:0": {"r": 0.1, "g": 0.1, "b": 0.1, "a": 1}}, "scopes": ["ALL_SCOPES"]},
            "V:3": {"id": "V:3", "name": "color/background", "variableCollectionId": "C:2", "resolvedType": "COLOR",
                    "valuesByMode": {"2:0": {"type": "VARIABLE_ALIAS", "id": "V:1"}, "2:1": {"type": "VARIABLE_ALIAS", "id": "V:2"}}, "scopes": ["FRAME_FILL"]},
            "V:4": {"id": "V:4", "name": "radius/card", "variableCollectionId": "C:2", "resolvedType": "FLOAT", "valuesByMode": {"2:0": 12, "2:1": 12}, "scopes": ["CORNER_RADIUS"]}}}}
        """##

    @Test("import figma writes a folder the server reads clean, --check says whether it is in sync, a truncated file changes nothing")
    func importFigma() throws {
        let folder = try DaemonTests.scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data(Self.figmaVariables.utf8).write(to: URL(fileURLWithPath: folder + "/variables.json"))

        let imported = try DaemonTests.run(["import", "figma", "variables.json", "-o", "themes/brand"], in: folder)
        #expect(imported.status == 0 && imported.output == "wrote 4 files to themes/brand\n", "\(imported.output) \(imported.errors)")
        let dark = try String(contentsOfFile: folder + "/themes/brand/scheme/dark.tokens.json", encoding: .utf8)
        #expect(dark.contains(#""$value" : "{ink}""#), "\(dark)")
        let checked = try DaemonTests.run(["check", "themes/brand", "--strict"], in: folder)
        #expect(checked.status == 0 && checked.output.hasSuffix("brand: 0 errors, 0 warnings\n"), "\(checked.output) \(checked.errors)")

        let inSync = try DaemonTests.run(["import", "figma", "variables.json", "--check", "themes/brand"], in: folder)
        #expect(inSync.status == 0 && inSync.output.contains("in sync"), "\(inSync.output) \(inSync.errors)")
        try Data(dark.replacingOccurrences(of: "{ink}", with: "{white}").utf8).write(to: URL(fileURLWithPath: folder + "/themes/brand/scheme/dark.tokens.json"))
        let edited = try DaemonTests.run(["import", "figma", "variables.json", "--check", "themes/brand"], in: folder)
        #expect(edited.status == 1 && edited.output == "differs: scheme/dark.tokens.json\n", "\(edited.output) \(edited.errors)")

        let before = try FileManager.default.subpathsOfDirectory(atPath: folder + "/themes/brand").sorted()
        try Data(Self.figmaVariables.prefix(700).utf8).write(to: URL(fileURLWithPath: folder + "/cut.json"))
        let truncated = try DaemonTests.run(["import", "figma", "cut.json", "-o", "themes/brand"], in: folder)
        #expect(truncated.status == 2 && truncated.errors.contains("themed import figma: cut.json: not JSON"), "\(truncated.errors)")
        #expect(try FileManager.default.subpathsOfDirectory(atPath: folder + "/themes/brand").sorted() == before)
        #expect(try String(contentsOfFile: folder + "/themes/brand/scheme/dark.tokens.json", encoding: .utf8).contains("{white}"), "the folder is as it was")

        let neither = try DaemonTests.run(["import", "figma", "variables.json"], in: folder)
        #expect(neither.status == 64 && neither.errors.contains("give -o FOLDER to write, or --check FOLDER to compare"), "\(neither.status) \(neither.errors)")
    }

    @Test("diff of a parent lists what reaches each theme beside it that inherits it")
    func diffReachesChildren() throws {
        let folder = try DaemonTests.scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for side in ["before", "after"] {
            let link = side == "before" ? "{primitive.ink}" : "{primitive.brand}"
            try Self.write(##"{"primitive": {"$type": "color", "brand": {"$value": "#777777"}, "ink": {"$value": "#111111"}}, "semantic": {"$type": "color", "link": {"$value": "\##(link)"}}}"##,
                           to: "\(side)/base/base.tokens.json", in: folder)
            try Self.write(#"{"parent": "base"}"#, to: "\(side)/acme/theme.json", in: folder)
            try Self.write(##"{"primitive": {"brand": {"$type": "color", "$value": "#ff6600"}}}"##, to: "\(side)/acme/acme.tokens.json", in: folder)
            try Self.write(##"{"other": {"$type": "color", "$value": "#000000"}}"##, to: "\(side)/unrelated/u.tokens.json", in: folder)
        }
        let run = try DaemonTests.run(["diff", "before/base", "after/base"], in: folder)
        #expect(run.status == 1 && run.output.contains("changed: semantic.link every mode #111111FF -> #777777FF\n"), "\(run.output) \(run.errors)")
        #expect(run.output.contains("acme: changed: semantic.link every mode #111111FF -> #FF6600FF\n"), "the brand sees its own primitive: \(run.output)")
        #expect(!run.output.contains("unrelated"))
        let markdown = try DaemonTests.run(["diff", "before/base", "after/base", "--format", "markdown"], in: folder)
        #expect(markdown.output.contains("### Through `acme`, which inherits it"), "\(markdown.output)")
    }

    @Test("check against a baseline file: only a new problem is reported and fails; a baseline that is not one is exit 2")
    func checkBaseline() throws {
        let folder = try DaemonTests.scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let tokens = ##"{"color": {"$type": "color", "gray": {"900": {"$value": "#111111"}}, "old": {"$value": "{color.nowhere}"}}}"##
        try Self.write(tokens, to: "design/brand/brand.tokens.json", in: folder)
        let written = try DaemonTests.run(["check", "design/brand", "--write-baseline", "baseline.json"], in: folder)
        #expect(written.status == 0 && written.output.contains("1 error and 1 warning of brand as its baseline"), "\(written.output) \(written.errors)")
        let same = try DaemonTests.run(["check", "design/brand", "--baseline", "baseline.json"], in: folder)
        #expect(same.status == 0 && same.output.hasSuffix("brand: 0 errors, 0 warnings new (2 known)\n"), "\(same.output)")
        // One new broken alias among the known ones: it alone is reported, on its line for GitHub.
        try Self.write(##"""
        {"color": {"$type": "color", "gray": {"900": {"$value": "#111111"}}, "old": {"$value": "{color.nowhere}"},
                   "text": {"$value": "{color.grey.900}"}}}
        """##, to: "design/brand/brand.tokens.json", in: folder)
        let new = try DaemonTests.run(["check", "design/brand", "--baseline", "baseline.json", "--format", "github"], in: folder)
        #expect(new.status == 1, "\(new.output)")
        #expect(new.output.hasPrefix("::error file=design/brand/brand.tokens.json,line=2,title=themed check::brand.tokens.json#/color/text: alias {color.grey.900} names no token; did you mean {color.gray.900}?\n"), "\(new.output)")
        #expect(!new.output.contains("color/old"), "the known error is not said again")
        try Self.write("{}", to: "not-a-baseline.json", in: folder)
        let refused = try DaemonTests.run(["check", "design/brand", "--baseline", "not-a-baseline.json"], in: folder)
        #expect(refused.status == 2 && refused.errors.contains("not a themed check baseline"), "\(refused.errors)")
    }

    @Test("check --since a git ref: the problems the theme had there are known; a ref git does not know is exit 2",
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/git"), "needs git (apt-get install git)"))
    func checkSince() throws {
        let folder = try DaemonTests.scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        func git(_ arguments: String...) throws {
            let run = try DaemonTests.run(["-C", folder, "-c", "user.name=ci", "-c", "user.email=ci@example.com"] + arguments, in: folder, command: "/usr/bin/git")
            #expect(run.status == 0, "git \(arguments): \(run.errors)")
        }
        try git("init", "-q", "-b", "main")
        try Self.write(##"{"color": {"$type": "color", "base": {"$value": {"colorSpace": "srgb", "components": [0, 0, 0]}}, "gray": {"$value": "{color.base}"}}}"##,
                       to: "design/base/base.tokens.json", in: folder)
        try Self.write(#"{"parent": "base"}"#, to: "design/brand/theme.json", in: folder)
        try Self.write(##"{"color": {"$type": "color", "old": {"$value": "{color.nowhere}"}}}"##, to: "design/brand/brand.tokens.json", in: folder)
        try git("add", "-A")
        try git("commit", "-q", "-m", "base")
        try Self.write(##"{"color": {"$type": "color", "old": {"$value": "{color.nowhere}"}, "text": {"$value": "{color.grey}"}}}"##,
                       to: "design/brand/brand.tokens.json", in: folder)
        let since = try DaemonTests.run(["check", "design/brand", "--since", "main"], in: folder)
        #expect(since.status == 1 && since.output.contains("color/text: alias {color.grey} names no token") && !since.output.contains("color/old"), "\(since.output) \(since.errors)")
        #expect(since.output.hasSuffix("brand: 1 error, 0 warnings new (1 known)\n"), "its parent was read at the ref too: \(since.output)")
        let unknown = try DaemonTests.run(["check", "design/brand", "--since", "no-such-branch"], in: folder)
        #expect(unknown.status == 2 && unknown.errors.contains("git knows no such commit"), "\(unknown.errors)")
        // A theme the ref does not have had nothing: all it has is new.
        try Self.write(##"{"color": {"$type": "color", "x": {"$value": "{color.y}"}}}"##, to: "design/fresh/fresh.tokens.json", in: folder)
        #expect(try DaemonTests.run(["check", "design/fresh", "--since", "main"], in: folder).status == 1)
    }

    @Test("docs/REVIEW.md's pre-commit hook and pull-request step on a repository of their own: a new problem stops the commit and fails the step, on its line; old ones pass",
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/git"), "needs git (apt-get install git)"))
    func reviewHooks() throws {
        let folder = try DaemonTests.scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let review = DaemonTests.root.appendingPathComponent("config/review").path
        // git and sh with themed on the PATH, as a team's machine and runner have it.
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] = URL(fileURLWithPath: DaemonTests.executable).deletingLastPathComponent().path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        func git(_ arguments: String...) throws -> DaemonTests.Run {
            try DaemonTests.run(["-C", folder, "-c", "user.name=ci", "-c", "user.email=ci@example.com"] + arguments, in: folder,
                                command: "/usr/bin/git", environment: environment)
        }
        #expect(try git("init", "-q", "-b", "main").status == 0)
        try Self.write(##"{"color": {"$type": "color", "gray": {"900": {"$value": "#111111"}}, "old": {"$value": "{color.nowhere}"}}}"##,
                       to: "themes/brand/brand.tokens.json", in: folder)
        #expect(try git("add", "-A").status == 0 && git("commit", "-q", "-m", "a theme with a problem it lives with").status == 0)
        for hook in ["pre-commit", "check-changed.sh"] {
            try FileManager.default.copyItem(atPath: "\(review)/\(hook)", toPath: "\(folder)/.git/hooks/\(hook)")
        }
        // A change that keeps the old problem: the hook lets it through.
        try Self.write(##"{"color": {"$type": "color", "gray": {"900": {"$value": "#222222"}}, "old": {"$value": "{color.nowhere}"}}}"##,
                       to: "themes/brand/brand.tokens.json", in: folder)
        _ = try git("add", "-A")
        let kept = try git("commit", "-q", "-m", "a darker gray")
        #expect(kept.status == 0, "\(kept.output) \(kept.errors)")
        // A new broken alias: the commit is stopped, naming it.
        try Self.write(##"{"color": {"$type": "color", "gray": {"900": {"$value": "#222222"}}, "old": {"$value": "{color.nowhere}"}, "text": {"$value": "{color.grey.900}"}}}"##,
                       to: "themes/brand/brand.tokens.json", in: folder)
        _ = try git("add", "-A")
        let stopped = try git("commit", "-q", "-m", "a typo")
        #expect(stopped.status != 0 && (stopped.output + stopped.errors).contains("alias {color.grey.900} names no token"), "\(stopped.output) \(stopped.errors)")
        // The pull request's step (what themed-review.yml runs) on a branch with that commit.
        #expect(try git("checkout", "-q", "-b", "feature").status == 0 && git("commit", "-q", "--no-verify", "-m", "a typo").status == 0)
        let workflow = try String(contentsOfFile: "\(review)/themed-review.yml", encoding: .utf8)
        #expect(workflow.contains(#"run: sh config/review/check-changed.sh "origin/$GITHUB_BASE_REF" --format github"#), "the step below is the workflow's")
        let step = try DaemonTests.run(["\(review)/check-changed.sh", "main", "--format", "github"], in: folder, command: "/bin/sh", environment: environment)
        let printed = step.output
        #expect(step.status == 1, "\(printed) \(step.errors)")
        #expect(printed.contains("::error file=themes/brand/brand.tokens.json,line=1,title=themed check::brand.tokens.json#/color/text: alias {color.grey.900}"), "\(printed)")
        #expect(!printed.contains("color/old"), "the problem main has is not the pull request's")
    }

    @Test("check reads a theme as the server does: errors are exit 1, warnings exit 1 with --strict, a clean theme 0; its parent comes from beside it")
    func check() throws {
        let folder = try DaemonTests.scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let write = { (text: String, path: String) in try Self.write(text, to: path, in: folder) }
        try write(#"{"color": {"$type": "color", "base": {"$value": {"colorSpace": "srgb", "components": [0, 0.4, 0.8]}}}}"#, "design/base/base.tokens.json")
        // A brand over the base (its parent is read from the folder beside it).
        try write(#"{"parent": "base"}"#, "design/brand/theme.json")
        try write(##"{"color": {"$type": "color", "accent": {"$value": "#ff6600"}, "broken": {"$value": "{color.nowhere}"}}}"##, "design/brand/brand.tokens.json")
        // Something beside them that is no theme of theirs is never read.
        try write("not json", "design/node_modules/junk.tokens.json")

        let clean = try DaemonTests.run(["check", "design/base", "--strict"], in: folder)
        #expect(clean.status == 0 && clean.output.hasSuffix("base: 0 errors, 0 warnings\n"), "\(clean.output) \(clean.errors)")

        let broken = try DaemonTests.run(["check", "design/brand"], in: folder)
        #expect(broken.status == 1, "\(broken.output) \(broken.errors)")
        #expect(broken.output.contains("error: brand.tokens.json#/color/broken: alias {color.nowhere} names no token"), "\(broken.output)")
        #expect(broken.output.contains("warning: brand.tokens.json#/color/accent: \"#ff6600\" read as an sRGB colour (draft-form)"), "\(broken.output)")

        let json = try DaemonTests.run(["check", "design/brand", "--format", "json"], in: folder)
        let document = try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any]
        #expect(json.status == 1 && document?["status"] as? String == "degraded" && (document?["errors"] as? [String])?.count == 1, "\(json.output)")

        try write(##"{"color": {"$type": "color", "accent": {"$value": "#ff6600"}, "link": {"$value": "{color.accent}"}}}"##, "design/brand/brand.tokens.json")
        let warned = try DaemonTests.run(["check", "design/brand"], in: folder)
        #expect(warned.status == 0 && warned.output.hasSuffix("brand: 0 errors, 1 warning\n"), "its parent was found beside it: \(warned.output)")
        #expect(try DaemonTests.run(["check", "design/brand", "--strict"], in: folder).status == 1, "with --strict a warning fails as an error does")
        // A Tokens Studio folder is read whole: its sets are found through the link a check makes.
        try write(#"{"tokenSetOrder": ["core"]}"#, "design/studio/$metadata.json")
        try write(##"{"ink": {"value": "#111111", "type": "color"}, "bad": {"value": "{nowhere}", "type": "color"}}"##, "design/studio/core.json")
        let studio = try DaemonTests.run(["check", "design/studio"], in: folder)
        #expect(studio.status == 1 && studio.output.contains("error: core.json#/bad: alias {nowhere} names no token"), "\(studio.output)")
        #expect(!studio.output.contains("studio-folder"), "no set is missing: \(studio.output)")
        let missing = try DaemonTests.run(["check", "design/nothing"], in: folder)
        #expect(missing.status == 2 && missing.errors.contains("no such theme folder"), "\(missing.errors)")

        // compile and index refuse a theme with errors unless asked not to.
        try write(##"{"color": {"$type": "color", "ok": {"$value": "#000000"}, "broken": {"$value": "{color.nowhere}"}}}"##, "tokens/broken/b.tokens.json")
        let refused = try DaemonTests.run(["compile", "tokens/broken", "-o", "broken.car"], in: folder)
        #expect(refused.status == 1 && !FileManager.default.fileExists(atPath: folder + "/broken.car"), "\(refused.errors)")
        #expect(try DaemonTests.run(["compile", "tokens/broken", "-o", "broken.car", "--allow-errors"], in: folder).status == 0)
        #expect(FileManager.default.fileExists(atPath: folder + "/broken.car"))
        let indexed = try DaemonTests.run(["index", "--themes", "tokens", "--db", "index.sqlite"], in: folder)
        #expect(indexed.status == 1 && indexed.errors.contains("broken have errors"), "\(indexed.errors)")
        #expect(try DaemonTests.run(["index", "--themes", "tokens", "--db", "index.sqlite", "--allow-errors"], in: folder).status == 0)
    }

    @Test("serve answers, watch prints the palette it serves, and a proxy-looking setup is warned about")
    func serveAndWatch() throws {
        let folder = try DaemonTests.scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data(#"{"watch": false}"#.utf8).write(to: URL(fileURLWithPath: folder + "/themed.json"))
        // Blobs in a one-letter folder that does not exist yet, named relative to the working
        // directory (Foundation's path functions trapped on it).
        let server = try ServeProcess(executable: DaemonTests.executable, arguments: ["--config", "themed.json", "--themes", DaemonTests.themes, "--blobs", "b"], in: folder)
        defer { server.stop() }
        #expect(try HTTP.get("/themes/dark/colors/primary", port: server.port).status == 200)
        #expect(FileManager.default.fileExists(atPath: folder + "/b"))

        let watch = try Running(["watch", "http://127.0.0.1:\(server.port)", "--theme", "dark", "--json"], in: folder)
        defer { watch.stop() }
        #expect(watch.waitForOutput(containing: "primary"), "watch printed: \(watch.output)")

        // Loopback is the operator (no token, no cluster store) and purgeURLs names a cache in
        // front: every client such a cache forwards would look local.
        try Data(#"{"purgeURLs": ["http://127.0.0.1:6081"]}"#.utf8).write(to: URL(fileURLWithPath: folder + "/proxied.json"))
        let warned = try DaemonTests.run(["config", "check", "proxied.json", "--themes", DaemonTests.themes], in: folder)
        #expect(warned.status == 0 && warned.errors.contains("operatorLoopback: loopback clients may change"), "\(warned.errors)")
        let strict = try DaemonTests.run(["config", "check", "proxied.json", "--themes", DaemonTests.themes, "--strict"], in: folder)
        #expect(strict.status == 2)
        try Data(#"{"purgeURLs": ["http://127.0.0.1:6081"], "activeToken": "an-operator-token"}"#.utf8).write(to: URL(fileURLWithPath: folder + "/tokened.json"))
        let quiet = try DaemonTests.run(["config", "check", "tokened.json", "--themes", DaemonTests.themes, "--strict"], in: folder)
        #expect(quiet.status == 0 && !quiet.errors.contains("operatorLoopback"), "a token: no warning: \(quiet.errors)")
    }

    @Test("a theme refused while the command connects to the store exits 2 with the reason, every time (it once aborted in libpq's teardown, 1 run in 60)", .needsPostgres)
    func refusedWhileConnecting() throws {
        let postgres = try PostgresServer()
        defer { withExtendedLifetime(postgres) {} }
        let folder = try DaemonTests.scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data("not a catalog".utf8).write(to: URL(fileURLWithPath: folder + "/Broken.car"))
        for _ in 0..<40 {
            let refused = try DaemonTests.run(["publish", "--cluster", postgres.url, "dark", "Broken.car"], in: folder)
            #expect(refused.status == 2 && refused.errors.hasPrefix("themed publish: Broken.car is not an asset catalog"), "\(refused.status): \(refused.errors)")
            if refused.status != 2 { break }
        }
    }

    @Test("publish, token create/list/revoke, releases, rollback, policy set/show and retire against a cluster store", .needsPostgres)
    func clusterCommands() throws {
        let postgres = try PostgresServer()
        defer { withExtendedLifetime(postgres) {} }
        let folder = try DaemonTests.scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = postgres.url

        let published = try DaemonTests.run(["publish", "--cluster", store, "dark", DaemonTests.themes + "/dark"], in: folder)
        #expect(published.status == 0, "\(published.errors)")
        #expect(published.output.contains("generation"), "\(published.output)")

        let created = try DaemonTests.run(["token", "create", "--cluster", store, "--name", "ci", "--themes", "dark", "--can", "publish"], in: folder)
        #expect(created.status == 0, "\(created.errors)")
        let token = created.output.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(token.hasPrefix("themed_"), "\(created.output)")
        let listed = try DaemonTests.run(["token", "list", "--cluster", store], in: folder)
        #expect(listed.status == 0 && listed.output.contains("ci"), "\(listed.output) \(listed.errors)")

        try Data(#"{"watch": false}"#.utf8).write(to: URL(fileURLWithPath: folder + "/themed.json"))
        let server = try ServeProcess(executable: DaemonTests.executable, arguments: ["--config", "themed.json", "--cluster", store, "--themes", "themes",
                                                                          "--db", "index.sqlite", "--blobs", "blobs"], in: folder)
        defer { server.stop() }
        let url = "http://127.0.0.1:\(server.port)"
        #expect(waitUntil { (try? HTTP.get("/themes/dark/colors/primary", port: server.port).status) == 200 }, "the replica follows the store")

        let again = try DaemonTests.run(["publish", "--server", url, "--token", token, "dark", DaemonTests.themes + "/light"], in: folder)
        #expect(again.status == 0, "\(again.output) \(again.errors)")
        let releases = try DaemonTests.run(["releases", "--server", url, "--token", token, "dark"], in: folder)
        #expect(releases.status == 0, "\(releases.errors)")
        let generations = releases.output.split(separator: "\n").compactMap { line in line.split(separator: " ").first.flatMap { Int($0) } }
        #expect(generations.count == 2, "two releases, newest first: \(releases.output)")

        let first = try #require(generations.last)
        let rolledBack = try DaemonTests.run(["rollback", "--server", url, "--token", token, "dark", String(first)], in: folder)
        #expect(rolledBack.status == 0, "\(rolledBack.output) \(rolledBack.errors)")
        let history = try DaemonTests.run(["releases", "--server", url, "--token", token, "dark"], in: folder)
        #expect(history.output.split(separator: "\n").filter { $0.first?.isNumber == true }.count == 3, "\(history.output)")

        let token2 = try DaemonTests.run(["token", "create", "--cluster", store, "--name", "ci2", "--themes", "dark", "--can", "publish"], in: folder)
            .output.trimmingCharacters(in: .whitespacesAndNewlines)
        let revoked = try DaemonTests.run(["token", "revoke", "--cluster", store, "ci"], in: folder)
        #expect(revoked.status == 0, "\(revoked.errors)")
        let refused = try DaemonTests.run(["rollback", "--server", url, "--token", token, "dark", String(first)], in: folder)
        #expect(refused.status != 0 && refused.errors.contains("not known"), "a revoked token is refused: \(refused.output) \(refused.errors)")

        // A policy of one approval: a publish with a token is then a draft (202), nothing served.
        let policy = try DaemonTests.run(["policy", "set", "--cluster", store, "dark", "--require-approval", "1"], in: folder)
        #expect(policy.status == 0 && policy.output.contains("needs 1 approval"), "\(policy.output) \(policy.errors)")
        let shown = try DaemonTests.run(["policy", "show", "--cluster", store, "dark"], in: folder)
        #expect(shown.status == 0 && shown.output.contains("require approval 1"), "\(shown.output) \(shown.errors)")
        #expect(try DaemonTests.run(["policy", "set", "--cluster", store, "dark", "--require-approval", "-1"], in: folder).status != 0)
        let held = try DaemonTests.run(["publish", "--server", url, "--token", token2, "dark", DaemonTests.themes + "/light"], in: folder)
        #expect(held.status == 0 && held.output.contains(#""state":"open""#), "a publish under the policy is a draft: \(held.output) \(held.errors)")
        let asked = try DaemonTests.run(["publish", "--server", url, "--token", token2, "--draft", "dark", DaemonTests.themes + "/dark"], in: folder)
        #expect(asked.status == 0 && asked.output.contains(#""state":"open""#), "\(asked.output) \(asked.errors)")
        #expect(try DaemonTests.run(["publish", "--cluster", store, "--draft", "dark", DaemonTests.themes + "/dark"], in: folder).status == 2)

        let retired = try DaemonTests.run(["retire", "--cluster", store, "dark"], in: folder)
        #expect(retired.status == 0 && retired.output.contains("retired dark at generation") && retired.output.contains("served by 1 replica"),
                "\(retired.output) \(retired.errors)")
        #expect(try HTTP.get("/themes/dark", port: server.port).status == 404, "no replica serves it as the command returns")
    }
}

/// A command that keeps running (`watch`), its standard output collected as it comes.
final class Running: @unchecked Sendable {
    let process = Process()
    private let lock = NSLock()
    private var received = Data()

    var output: String { lock.withLock { String(decoding: received, as: UTF8.self) } }

    init(_ arguments: [String], in folder: String) throws {
        process.executableURL = URL(fileURLWithPath: DaemonTests.executable)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: folder)
        let pipe = Pipe()
        (process.standardOutput, process.standardError) = (pipe, FileHandle.nullDevice)
        pipe.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            self?.lock.withLock { self?.received.append(data) }
        }
        try process.run()
    }

    func waitForOutput(containing text: String) -> Bool {
        waitUntil { self.output.contains(text) }
    }

    func stop() {
        if process.isRunning { process.terminate(); process.waitUntilExit() }
    }
}

extension CommandLineTests {
    @Test("themed export --context MODIFIER=CONTEXT exports the brand it names, and --format ts, js and scss write their files; an unknown context is refused naming the valid ones")
    func exportContextsAndWebFormats() throws {
        let folder = NSTemporaryDirectory() + "themed-export-context-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let files = [
            "themes/ds/base.tokens.json": ##"{"color": {"$type": "color", "white": {"$value": "#ffffff"}}}"##,
            "themes/ds/brands/main.json": ##"{"color": {"accent": {"$type": "color", "$value": "#0066ff"}}}"##,
            "themes/ds/brands/portal.json": ##"{"color": {"accent": {"$type": "color", "$value": "#ff6600"}}}"##,
            "themes/ds/ds.resolver.json": #"""
                {"version": "2025.10", "sets": {"base": {"sources": [{"$ref": "base.tokens.json"}]}},
                 "modifiers": {"brand": {"contexts": {"main": [{"$ref": "brands/main.json"}], "portal": [{"$ref": "brands/portal.json"}]}, "default": "main"}},
                 "resolutionOrder": [{"$ref": "#/sets/base"}, {"$ref": "#/modifiers/brand"}]}
                """#,
        ]
        for (path, text) in files {
            try FileManager.default.createDirectory(atPath: ((folder + "/" + path) as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try Data(text.utf8).write(to: URL(fileURLWithPath: folder + "/" + path))
        }
        let portal = try DaemonTests.run(["export", "ds", "--format", "css", "--context", "brand=portal", "-o", "portal", "--themes", "themes"], in: folder)
        #expect(portal.status == 0, "\(portal.errors)")
        let css = (try? String(contentsOfFile: folder + "/portal/colors.css", encoding: .utf8)) ?? ""
        #expect(css.contains("rgb(255 102 0") && !css.contains("rgb(0 102 255"), "\(css.prefix(400))")
        let unknown = try DaemonTests.run(["export", "ds", "--format", "css", "--context", "brand=intranet", "-o", "x", "--themes", "themes"], in: folder)
        #expect(unknown.status != 0 && unknown.errors.contains("its contexts are main, portal"), "\(unknown.errors)")
        for (format, written) in [("ts", ["colors.ts"]), ("js", ["colors.js", "colors.d.ts"]), ("scss", ["_colors.scss"])] {
            let run = try DaemonTests.run(["export", "ds", "--format", format, "-o", format, "--themes", "themes"], in: folder)
            #expect(run.status == 0, "\(format): \(run.errors)")
            for file in written {
                let text = (try? String(contentsOfFile: "\(folder)/\(format)/\(file)", encoding: .utf8)) ?? ""
                #expect(text.contains("\"color.accent\"") && (file.hasSuffix(".d.ts") || text.contains("rgb(0 102 255 / 1)")), "\(format)/\(file): \(text.prefix(300))")
            }
        }
    }
}
