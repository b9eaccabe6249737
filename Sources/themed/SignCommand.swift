import ArgumentParser
import Foundation
import ThemeServer

/// `themed sign PATH`: the path with the `sig=` that lets a server with `"imageTransforms": "signed"`
/// make the transform it asks (signed with the first of `imageSigningKeys`).
struct Sign: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sign",
        abstract: "Print an image path with its sig= (imageTransforms \"signed\").",
        discussion: "Example: themed sign --config config/themed.json '/themes/brand/images/logo?w=300&format=webp'")

    @Option(help: "JSON settings file whose imageSigningKeys sign.") var config: String?
    @Argument(help: "The path and query, as a client will send them.") var path: String

    func run() throws {
        let settings = try SettingOptions.settings(configFile: config)
        guard let key = settings.imageSigningKeys.first else {
            throw Startup.failure("imageSigningKeys is empty in \(config ?? "the settings"): nothing to sign with")
        }
        guard path.hasPrefix("/") else { throw Startup.failure("\(path): a path starts with /, as in /themes/brand/images/logo?w=300") }
        print(ImageSignature.sign(path, key: key))
    }
}
