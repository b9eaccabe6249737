/// Which refused tokens are the cause and which only follow from it: an edit that breaks one
/// primitive refuses every alias of it, and what a team needs to read is the one line that says
/// what to fix (`tokens.json#/color/brand: ..., and 12 aliases of it`).
public enum RootCauses {
    /// The problems that are not an alias of another refused token, each with how many refused
    /// aliases lead to it (directly or through others), in the order they came.
    public static func of(_ problems: [TokenProblem]) -> [(cause: TokenProblem, aliases: Int)] {
        let byPointer = Dictionary(problems.map { ($0.location.pointer, $0) }, uniquingKeysWith: { first, _ in first })
        /// The alias a consequence names (`alias {a.b} names a token that cannot be resolved`).
        func target(of problem: TokenProblem) -> String? {
            guard problem.reason.contains("names a token that cannot be resolved"),
                  let open = problem.reason.firstIndex(of: "{"), let close = problem.reason[open...].firstIndex(of: "}"),
                  let path = TokenPath(alias: String(problem.reason[open...close])) else { return nil }
            return path.pointer
        }
        func root(of problem: TokenProblem) -> TokenProblem {
            var current = problem
            var seen: Set<String> = [problem.location.pointer]
            while let next = target(of: current).flatMap({ byPointer[$0] }), seen.insert(next.location.pointer).inserted { current = next }
            return current
        }
        var counts: [TokenProblem: Int] = [:]
        var order: [TokenProblem] = []
        for problem in problems {
            let cause = root(of: problem)
            if counts[cause] == nil { order.append(cause); counts[cause] = 0 }
            if cause != problem { counts[cause, default: 0] += 1 }
        }
        return order.map { ($0, counts[$0] ?? 0) }
    }

    /// One line: the first cause, its aliases, and how many other causes there are.
    public static func summary(of problems: [TokenProblem]) -> String? {
        let causes = of(problems)
        guard let first = causes.first else { return nil }
        var line = first.cause.description
        if first.aliases > 0 { line += ", and \(first.aliases) alias\(first.aliases == 1 ? "" : "es") of it" }
        if causes.count > 1 { line += " (and \(causes.count - 1) other token\(causes.count == 2 ? "" : "s") refused)" }
        return line
    }
}
