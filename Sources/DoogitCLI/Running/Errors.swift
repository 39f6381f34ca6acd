/// The command line was not understood: exit 2, with the help topic to point to.
struct UsageError: Error, Equatable {
    var message: String
    /// The command whose help the hint names (`["todo", "add"]`); empty for the top level.
    var topic: [String]
}

/// A command that was understood but could not be done (exit 1), with a hint.
struct CommandFailure: Error, Equatable {
    var message: String
    var hint: String?
    /// 75 where trying again later may be all it takes.
    var temporary = false
}

/// A token that cannot be sent (spaces or control characters): an authentication problem, exit 4.
struct MalformedTokenError: Error, Equatable {
    var message: String
    var hint: String
}

/// Standard output could not be written (a full disk, /dev/full, an I/O error): what was shown
/// is incomplete, though anything the command saved stays saved.
struct OutputWriteError: Error, Equatable {
    /// The errno value of the failed write.
    var code: Int32
}

/// The helper asked for a token (`gh auth token`) did not answer in time and was stopped.
struct TokenHelperTimeout: Error, Equatable {
    var command: String
    var seconds: Int
}
