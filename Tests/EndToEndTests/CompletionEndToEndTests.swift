import Foundation
import Testing
import TestSupport

/// Completion in real shells: the script `doogit completion SHELL` prints, loaded into bash, zsh
/// and fish, completing through the built binary against a sandbox's database.
@Suite(.serialized)
struct CompletionEndToEndTests {
    static func installed(_ shell: String) -> String? {
        ["/bin/", "/usr/bin/", "/usr/local/bin/", "/opt/homebrew/bin/"].map { $0 + shell }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    static let bash = installed("bash")
    static let zsh = installed("zsh")
    static let fish = installed("fish")

    /// A sandbox tracking octocat/Hello-World and octocat/Spoon-Knife, with an open todo (1) and
    /// a done one (2), and the built doogit first on PATH.
    static func trackingSandbox() throws -> Sandbox {
        let sandbox = try Sandbox()
        sandbox.github.addRepository(id: 1296269, owner: "octocat", name: "Hello-World", description: "My first repository on GitHub!")
        sandbox.github.addRepository(id: 42, owner: "octocat", name: "Spoon-Knife")
        #expect(sandbox.run("repo", "add", "octocat/Hello-World", "octocat/Spoon-Knife").status == 0)
        #expect(sandbox.run("todo", "add", "-R", "Hello-World", "write the release notes").status == 0)
        #expect(sandbox.run("todo", "add", "-R", "Hello-World", "set up CI").status == 0)
        #expect(sandbox.run("todo", "done", "2").status == 0)
        sandbox.github.resetCounters()
        sandbox.environment["PATH"] = URL(fileURLWithPath: DoogitBinary.path).deletingLastPathComponent().path + ":/usr/bin:/bin"
        return sandbox
    }

    /// COMPREPLY of bash's completion function for `words` (the last being completed), as bash
    /// sets COMP_WORDS: `--color=al` arrives as `--color`, `=`, `al`.
    static func bashCompletes(_ sandbox: Sandbox, _ words: String...) throws -> [String] {
        let script = """
            eval "$(doogit completion bash)"
            COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
            COMPREPLY=()
            _doogit
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        return lines(of: ChildProcess.run(try #require(bash), ["--norc", "--noprofile", "-c", script, "bash"] + words,
                                              environment: sandbox.environment, timeoutSeconds: 30))
    }

    static func lines(of result: ProcessResult) -> [String] {
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result)")
        return result.stdout.split(separator: "\n").map(String.init)
    }

    @Test(.enabled(if: bash != nil, "bash is not installed"))
    func bashCompletesRepositoriesCommandsAndTodoIDs() throws {
        let sandbox = try Self.trackingSandbox()
        #expect(try Self.bashCompletes(sandbox, "doogit", "todo", "add", "-R", "oc") == ["octocat/Hello-World", "octocat/Spoon-Knife"])
        #expect(try Self.bashCompletes(sandbox, "doogit", "todo", "add", "-R", "octocat/S") == ["octocat/Spoon-Knife"])
        #expect(try Self.bashCompletes(sandbox, "doogit", "todo", "list", "Sp") == ["Spoon-Knife"])
        #expect(try Self.bashCompletes(sandbox, "doogit", "todo", "a") == ["add", "assign"])
        #expect(try Self.bashCompletes(sandbox, "doogit", "rep") == ["repo"])
        #expect(try Self.bashCompletes(sandbox, "doogit", "re") == ["repo", "remote", "restore"], "the short forms too")
        #expect(try Self.bashCompletes(sandbox, "doogit", "todo", "done", "") == ["1"], "open todos only")
        #expect(try Self.bashCompletes(sandbox, "doogit", "todo", "undo", "") == ["2"])
        #expect(try Self.bashCompletes(sandbox, "doogit", "--color", "=", "al") == ["always"])
        #expect(try Self.bashCompletes(sandbox, "doogit", "--color", "=", "") == ["auto", "always", "never"])
        #expect(try Self.bashCompletes(sandbox, "doogit", "todo", "list", "--al") == ["--all-repos"])
        let files = try Self.bashCompletes(sandbox, "doogit", "--db", sandbox.home.path + "/.local/share/doogit/doogit.sq")
        #expect(files.contains(sandbox.databasePath), "\(files)")
        // Completion reads the database only: GitHub hears nothing.
        #expect(sandbox.github.requests.isEmpty)
    }

    /// zsh's completion system needs an interactive shell; here its functions are stand-ins that
    /// print what the script hands them (`value:description`, as _describe takes it).
    @Test(.enabled(if: zsh != nil, "zsh is not installed (apt-get install zsh)"))
    func zshCompletesRepositoriesAndTodoIDs() throws {
        let sandbox = try Self.trackingSandbox()
        func complete(_ words: String...) throws -> [String] {
            let script = """
                compdef() { : }
                compset() { return 1 }
                _describe() { print -rl -- "${(@P)4}" }
                _files() { print -r -- ":files" }
                eval "$(doogit completion zsh)"
                words=("$@"); CURRENT=$#
                _doogit
                """
            return Self.lines(of: ChildProcess.run(try #require(Self.zsh), ["-f", "-c", script, "zsh"] + words,
                                                   environment: sandbox.environment, timeoutSeconds: 30))
        }
        #expect(try complete("doogit", "todo", "add", "-R", "oc") == ["octocat/Hello-World", "octocat/Spoon-Knife"])
        #expect(try complete("doogit", "todo", "done", "") == ["1:write the release notes"])
        #expect(try complete("doogit", "todo", "a") == ["add:Add a todo", "assign:Assign todos to a GitHub user"])
        #expect(try complete("doogit", "--db", "") == [":files"])
    }

    @Test(.enabled(if: fish != nil, "fish is not installed (apt-get install fish)"))
    func fishCompletesRepositoriesAndTodoIDs() throws {
        let sandbox = try Self.trackingSandbox()
        func complete(_ line: String) throws -> [String] {
            let script = "doogit completion fish | source; complete -C $argv[1]"
            return Self.lines(of: ChildProcess.run(try #require(Self.fish), ["--no-config", "-c", script, "--", line],
                                                   environment: sandbox.environment, timeoutSeconds: 30))
        }
        #expect(try complete("doogit todo add -R oc") == ["octocat/Hello-World", "octocat/Spoon-Knife"])
        #expect(try complete("doogit todo done ") == ["1\twrite the release notes"])
        #expect(try complete("doogit todo a") == ["add\tAdd a todo", "assign\tAssign todos to a GitHub user"])
    }

    /// `SHELL -n` reads the script `doogit completion SHELL` prints without running it.
    static func checkSyntax(_ shell: String) throws {
        let sandbox = try Sandbox()
        let script = sandbox.run("completion", shell)
        #expect(script.status == 0 && script.stderr.isEmpty)
        let file = sandbox.home.path + "/doogit." + shell
        try script.stdout.write(toFile: file, atomically: true, encoding: .utf8)
        let checked = ChildProcess.run(try #require(installed(shell)), ["-n", file], environment: sandbox.environment,
                                       timeoutSeconds: 30)
        #expect(checked.status == 0 && checked.stderr.isEmpty, "\(shell) -n: \(checked.stderr)")
        #expect(!FileManager.default.fileExists(atPath: sandbox.databasePath), "printing a script opens no database")
    }

    @Test(.enabled(if: bash != nil, "bash is not installed"))
    func bashScriptIsValidSyntax() throws { try Self.checkSyntax("bash") }

    @Test(.enabled(if: zsh != nil, "zsh is not installed (apt-get install zsh)"))
    func zshScriptIsValidSyntax() throws { try Self.checkSyntax("zsh") }

    @Test(.enabled(if: fish != nil, "fish is not installed (apt-get install fish)"))
    func fishScriptIsValidSyntax() throws { try Self.checkSyntax("fish") }

    @Test func withoutADatabaseNothingIsOfferedAndNoneIsCreated() throws {
        let sandbox = try Sandbox()
        for words in [["todo", "done", ""], ["todo", "add", "-R", "oc"], ["repo", "remove", ""]] {
            let result = sandbox.run(["__complete", "--"] + words)
            #expect(result.status == 0 && result.stdout.isEmpty && result.stderr.isEmpty, "\(words): \(result)")
        }
        #expect(sandbox.run("__complete", "--", "sy").stdout == "sync\tBring tracked repositories up to date with GitHub\n")
        #expect(!FileManager.default.fileExists(atPath: sandbox.databasePath))
        #expect(!FileManager.default.fileExists(atPath: sandbox.home.path + "/.local"))
        #expect(sandbox.github.requests.isEmpty)
    }
}
