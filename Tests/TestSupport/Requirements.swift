import Foundation
import Testing

/// What a test needs from the machine, as Swift Testing traits: where the need is missing the test
/// is reported as skipped with the reason (and `make test` fails on any skip but the corpus's),
/// never passed green.
extension Trait where Self == ConditionTrait {
    /// A PostgreSQL from Debian's package (`PostgresServer` starts a throwaway one).
    public static var needsPostgres: Self { requirement(PostgresServer.unavailableReason) }

    /// The shared corpus of real catalogs beside the repository.
    public static var needsCorpus: Self {
        requirement(Corpus.carDirectory == nil ? "no corpus: ../shared/corpus not found (set THEMED_CORPUS to its path)" : nil)
    }

    /// The shared oracle tools (Python with lzfse, numpy, Pillow).
    public static var needsReferenceTools: Self { requirement(ReferenceTools.unavailableReason) }

    /// Python modules the test's oracle imports.
    public static func needsPython(_ modules: [String]) -> Self { requirement(ReferenceTools.pythonUnavailableReason(modules: modules)) }

    /// A kernel whose fair scheduler takes a slice per thread (Linux 6.12 on) and shows it in /proc.
    public static var needsSchedulingSlices: Self { requirement(SchedulingSlices.unavailableReason) }

    /// A program in /usr/bin or /bin.
    public static func needsProgram(_ name: String, package: String) -> Self {
        requirement(["/usr/bin/\(name)", "/bin/\(name)"].contains(where: FileManager.default.isExecutableFile(atPath:))
            ? nil : "\(name) is not installed (apt-get install \(package); make deps installs it)")
    }

    private static func requirement(_ reason: @autoclosure @escaping @Sendable () -> String?) -> Self {
        .enabled(if: reason() == nil, Comment(rawValue: reason() ?? ""))
    }
}
