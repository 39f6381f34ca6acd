/// The command line was not understood: exit 2, with the help topic to point to.
struct UsageError: Error, Equatable {
    var message: String
    /// The command whose help the hint names (`["todo", "add"]`); empty for the top level.
    var topic: [String]
}

/// A command that was understood but could not be done, with its exit code and a hint.
struct CommandFailure: Error, Equatable {
    var message: String
    var hint: String?
    var exitCode: ExitCode = .failure
}
