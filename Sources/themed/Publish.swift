import ArgumentParser
import Cluster
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Releases
import Synchronization
import ThemeIndex
import ThemeServer
import ThemeVocabulary

/// `themed publish`: checks a theme and stores it as a release in the cluster store, which every
/// replica following the store then serves.
struct Publish: ClusterChangeCommand {
    static let configuration = CommandConfiguration(
        commandName: "publish",
        abstract: "Check a theme (a folder or one .car) and publish it as a new release.",
        discussion: """
            With --server and --token, through a themed server's POST /themes/{theme}/releases (what teams use); \
            with --cluster, straight into the cluster store (operators). \
            A theme that does not parse is refused and nothing is stored (exit status 2). \
            The command returns once every ready replica serves the release and purged the caches in front (--wait, 10 s by default; \
            --no-wait returns at once); a replica that lags past the wait is named, with exit status 3: the release is stored.
            """)

    @Option(help: "PostgreSQL URL of the cluster store.") var cluster: String?
    @Option(help: "URL of a themed server (http://host:port) to publish through.") var server: String?
    @Option(help: "The token for --server (themed token create), or the THEMED_TOKEN environment variable.") var token: String?
    @Option(help: "With --cluster: releases kept per theme.") var keep = Release.defaultRetention
    @Option(help: "Send the release to this percentage of clients first (0-100; raise it with PUT /themes/{theme}/rollout).") var rollout: Double?
    @Flag(help: "With --server: store it as a draft that reviewers approve (POST /drafts/{id}/approve) instead of serving it.") var draft = false
    @OptionGroup var waiting: ServedWaitOptions
    @Argument(help: "The theme's name.") var theme: String
    @Argument(help: "A theme folder (.xcassets, bundles, .car files) or a single .car file.") var path: String

    func run() throws {
        guard Release.isPublishable(theme: theme) else { throw Self.refuse("\"\(theme)\" is not a theme name a release may take: \(Release.publishableRule)") }
        if let rollout, !(rollout.isFinite && (0...100).contains(rollout)) { throw Self.refuse("--rollout is a percentage from 0 to 100") }
        if draft, server == nil { throw Self.refuse("--draft goes through a themed server (--server): a draft waits for reviewers' tokens") }
        let wait = try waiting.served(command: "publish")
        switch (cluster, server) {
        case (let cluster?, nil):
            // The store is asked for its themes while the theme is checked, and the parent chain
            // checked against them after: on a saturated machine connecting waits for PostgreSQL
            // to start a backend, and the check for a share of a core. One connection serves the
            // whole command.
            let connecting = StoreConnecting(url: cluster, theme: theme)
            let files: [ThemeCheck.File]
            do {
                files = try checkedFiles()
            } catch {
                // The connection's thread ends first: a process that exits while it is inside
                // libpq (its Kerberos setup) aborts in the library's teardown instead of refusing.
                _ = try? connecting.result()
                throw error
            }
            let (store, current) = try connecting.result()
            do { try ThemeCheck.checkParentChain(of: path, theme: theme, among: current.parents) } catch { throw Self.refuse(error.description) }
            try publish(files, into: store, held: current.contents, waiting: wait)
        case (nil, let server?):
            // Through a server, the server checks the parent chain against its store.
            try upload(try checkedFiles(), to: server)
        default: throw Self.refuse("give one of --cluster (PostgreSQL) or --server (a themed server)")
        }
    }

    /// The theme's files, once they pass the check (its parent chain aside).
    private func checkedFiles() throws -> [ThemeCheck.File] {
        do {
            return try ThemeCheck.files(of: path, theme: theme, shownAs: shownPrefix, parents: .unchecked)
        } catch {
            throw Self.refuse(error.description)
        }
    }

    /// A connection to the cluster store and its current releases, opened on a thread of its own.
    private final class StoreConnecting: Sendable {
        private let outcome = Mutex<Result<(ClusterStore, ClusterStore.CurrentReleases), any Error>?>(nil)
        private let done = DispatchSemaphore(value: 0)

        init(url: String, theme: String) {
            Thread.detachNewThread { [self] in
                let result = Result { () throws -> (ClusterStore, ClusterStore.CurrentReleases) in
                    let store = try ClusterStore(url: url)
                    return (store, try store.currentReleases(publishing: theme))
                }
                outcome.withLock { $0 = result }
                done.signal()
            }
        }

        /// Waits for the connection; a store not reached is refused.
        func result() throws -> (ClusterStore, ClusterStore.CurrentReleases) {
            done.wait()
            guard let result = outcome.withLock({ $0 }) else { throw Publish.refuse("the cluster store: no answer") }
            do { return try result.get() } catch { throw Publish.refuse("the cluster store: \(error)") }
        }
    }

    /// Stores the release (sending only the contents the current releases do not use) and, unless
    /// told not to, waits for every ready replica to serve it.
    private func publish(_ files: [ThemeCheck.File], into store: ClusterStore, held: Set<String>, waiting wait: ServedWait?) throws {
        let (generation, served) = try Self.refusing(command: "publish") {
            let generation = try store.publish(theme: theme, paths: files.map(\.path), by: Release.operatorName, keep: keep, rollout: rollout,
                                               held: held) {
                try ThemeCheck.contents(of: files[$0])
            }
            // The connection closes with the command: it need not stop listening first.
            return (generation, try wait.map { try store.awaitServed(generation, timeout: $0.timeout, unlistening: false) })
        }
        print("published \(theme) generation \(generation) (\(files.count) files)" + (served.map(Self.servedLine) ?? ""))
        if let served, !served.isComplete { throw ServedWaitOptions.lagging(served.laggingDescription, generation: generation, command: "publish") }
    }

    /// What refusals put before a file's path in the release: the folder given, or the folder of
    /// the .car given, as typed.
    private var shownPrefix: String {
        let folder = pathIsFolder ? path : FilePaths.folder(of: path)
        return folder.isEmpty ? "" : folder.hasSuffix("/") ? folder : folder + "/"
    }

    /// Whether the theme given is a folder (else one .car).
    private var pathIsFolder: Bool {
        var isFolder: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) && isFolder.boolValue
    }

    /// POSTs the theme (a .car as it is, a folder as a gzip-compressed tar) and prints the answer.
    private func upload(_ files: [ThemeCheck.File], to server: String) throws {
        let body: Data
        let contentType: String
        if pathIsFolder {
            let archive = FileManager.default.temporaryDirectory.appendingPathComponent("themed-release-\(UUID().uuidString).tar.gz").path
            defer { try? FileManager.default.removeItem(atPath: archive) }
            do { try ReleaseArchive.pack(files, to: archive) } catch { throw Self.refuse("\(error)") }
            (body, contentType) = (FileManager.default.contents(atPath: archive) ?? Data(), "application/gzip")
        } else {
            (body, contentType) = (FileManager.default.contents(atPath: path) ?? Data(), "application/octet-stream")
        }
        let parameters = (rollout.map { ["rollout=\($0 == $0.rounded() ? String(Int($0)) : String($0))"] } ?? []) + (draft ? ["draft=1"] : [])
            + [try waiting.queryItem(command: "publish")]
        let query = "?" + parameters.joined(separator: "&")
        var request = try ServerOptions.request("POST", "/themes/\(theme)/releases\(query)", server: server, token: token, command: "publish")
        request.setValue(contentType, forHTTPHeaderField: "Content-Type")
        request.timeoutInterval = 300 + Double(waiting.wait)
        let answer = HTTPAnswer.of(request, body: body)
        guard answer.status == 201 || answer.status == 202 else { throw Self.refuse(answer.failure(from: server)) }
        print(String(decoding: answer.body, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
        if let lagging = ServedWaitOptions.lagging(in: answer.json) {
            let generation = ((answer.json as? [String: Any])?["generation"] as? NSNumber)?.int64Value ?? 0
            throw ServedWaitOptions.lagging(lagging, generation: generation, command: "publish")
        }
    }

    /// "; served by 3 replicas after 140 ms", or that no replica follows the store.
    static func servedLine(_ served: ReplicaReport) -> String {
        if served.serving.isEmpty && served.lagging.isEmpty { return "; no replica follows the store yet" }
        let count = served.serving.count
        return "; served by \(count) replica\(count == 1 ? "" : "s") after \(served.waitedMilliseconds) ms"
    }

    /// `body` on a connection to the cluster store at `url`; what it throws (the store not reached,
    /// a refusal) is `refuse`d, naming `command`.
    static func onStore<Result>(_ url: String, command: String, _ body: (ClusterStore) throws -> Result) throws -> Result {
        try refusing(command: command) { try body(ClusterStore(url: url)) }
    }

    /// `body`'s result; what it throws is `refuse`d, naming `command`.
    static func refusing<Result>(command: String, _ body: () throws -> Result) throws -> Result {
        do {
            return try body()
        } catch {
            throw refuse("\(error)", command: command)
        }
    }

    /// One line on standard error, naming the command, and exit status 2.
    static func refuse(_ message: String, command: String = "publish") -> ExitCode {
        FileHandle.standardError.write(Data("themed \(command): \(message)\n".utf8))
        return ExitCode(2)
    }
}

/// `themed retire`: removes a theme from every replica as a new generation.
struct Retire: ClusterChangeCommand {
    static let configuration = CommandConfiguration(
        commandName: "retire",
        abstract: "Retire a theme from the cluster store (every replica stops serving it).",
        discussion: """
            Refused while another theme inherits from it. As publish, it returns once every ready replica stopped serving the theme \
            and purged the caches in front (--wait, 10 s by default; --no-wait returns at once); a replica that lags past the wait \
            is named, with exit status 3: the retirement is stored.
            """)

    @Option(help: "PostgreSQL URL of the cluster store.") var cluster: String
    @Argument(help: "The theme's name.") var theme: String
    @OptionGroup var waiting: ServedWaitOptions

    func run() throws {
        let wait = try waiting.served(command: "retire")
        let (generation, served) = try Publish.onStore(cluster, command: "retire") { store in
            let generation = try store.retire(theme: theme)
            return (generation, try wait.map { try store.awaitServed(generation, timeout: $0.timeout, unlistening: false) })
        }
        print("retired \(theme) at generation \(generation)" + (served.map(Publish.servedLine) ?? ""))
        if let served, !served.isComplete { throw ServedWaitOptions.lagging(served.laggingDescription, generation: generation, command: "retire") }
    }
}

/// One request with URLSession, waited for.
struct HTTPAnswer {
    var status: Int?
    var body = Data()
    var error: String?
    /// The response's header fields, by lower-cased name.
    var headers: [String: String] = [:]

    static func of(_ request: URLRequest, body: Data? = nil) -> HTTPAnswer {
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var answer = HTTPAnswer()
        let finish: @Sendable (Data?, URLResponse?, (any Error)?) -> Void = { data, response, error in
            let http = response as? HTTPURLResponse
            var headers: [String: String] = [:]
            for (name, value) in http?.allHeaderFields ?? [:] { headers["\(name)".lowercased()] = "\(value)" }
            // The sentence (curl's, through Foundation), not the NSError's dump of its user info.
            answer = HTTPAnswer(status: http?.statusCode, body: data ?? Data(), error: error.map(\.localizedDescription), headers: headers)
            done.signal()
        }
        if let body {
            URLSession.shared.uploadTask(with: request, from: body, completionHandler: finish).resume()
        } else {
            URLSession.shared.dataTask(with: request, completionHandler: finish).resume()
        }
        done.wait()
        return answer
    }

    /// The JSON body, when themed answered it.
    var json: Any? { try? JSONSerialization.jsonObject(with: body) }

    /// Why the request failed, in a sentence: themed's own message when it answered (a JSON
    /// error), else what answered instead (a proxy's page, a cut connection), never the page itself.
    func failure(from server: String) -> String {
        guard let status else { return "\(server) did not answer: \(error ?? "no response")" }
        if let object = json as? [String: Any], let error = object["error"] as? [String: Any], let message = error["message"] as? String {
            return "\(server) refused it (\(status)): \(message)"
        }
        return "the front door answered \(status) without themed's answer (\(server) may be a proxy whose replicas are down or unready; "
            + "its /readyz and logs say more)"
    }
}
