@testable import DoogitCLI

/// What the suites on the parser share: argv in, a ParsedCommandLine or a UsageError out.
protocol ArgumentParserSuite {}

private struct NotARun: Error {}

extension ArgumentParserSuite {
    var parser: ArgumentParser { ArgumentParser(root: Doogit.tree) }

    func invocation(_ arguments: [String]) throws -> Invocation {
        guard case .run(let invocation) = try parser.parse(arguments) else { throw NotARun() }
        return invocation
    }

    func usageError(_ arguments: [String]) -> UsageError? {
        do {
            _ = try parser.parse(arguments)
            return nil
        } catch {
            return error
        }
    }

    /// The help path the arguments ask for, or nil when they do not ask for help.
    func helpPath(_ arguments: [String]) throws -> [String]? {
        if case .help(let path, _) = try parser.parse(arguments) { return path }
        return nil
    }
}
