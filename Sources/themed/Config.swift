import ArgumentParser
import Settings

/// `themed config check FILE`: the effective configuration, each value with where it came from.
struct Config: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Work with configuration files.", subcommands: [Check.self])

    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Validate a config file and print the effective settings with the source of each value.",
            discussion: "Also checks the paths serve needs (the themes folder exists; the index and blob folders can be written). "
                + "Exit status 2, with one line naming the key or path, when something cannot be used.")

        @Argument(help: "The JSON config file.") var file: String
        @OptionGroup var options: SettingOptions

        func run() throws {
            let settings = try options.resolve(configFile: file)
            _ = try Startup.check(settings, creating: false)
            print(settings.report)
        }
    }
}
