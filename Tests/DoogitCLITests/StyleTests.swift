import Testing
@testable import DoogitCLI
@testable import DoogitStore

/// Colour and locale decisions of the contract.
@Suite struct StyleTests {
    struct ColorCase: Sendable, CustomTestStringConvertible {
        var option: GlobalOptions.ColorChoice?
        var environment: [String: String]
        var terminal: Bool
        var expected: Bool
        var testDescription: String {
            "--color=\(option.map { $0.rawValue } ?? "none") \(environment.sorted { $0.key < $1.key }) terminal=\(terminal) -> \(expected)"
        }
    }

    static let colorCases: [ColorCase] = [
        // The option decides first.
        ColorCase(option: .always, environment: [:], terminal: false, expected: true),
        ColorCase(option: .always, environment: ["NO_COLOR": "1"], terminal: false, expected: true),
        ColorCase(option: .always, environment: ["TERM": "dumb"], terminal: true, expected: true),
        ColorCase(option: .never, environment: [:], terminal: true, expected: false),
        ColorCase(option: .never, environment: ["CLICOLOR_FORCE": "1"], terminal: true, expected: false),
        // Then NO_COLOR, set and not empty.
        ColorCase(option: nil, environment: ["NO_COLOR": "1"], terminal: true, expected: false),
        ColorCase(option: nil, environment: ["NO_COLOR": "0"], terminal: true, expected: false),
        ColorCase(option: nil, environment: ["NO_COLOR": "1", "CLICOLOR_FORCE": "1"], terminal: false, expected: false),
        ColorCase(option: nil, environment: ["NO_COLOR": ""], terminal: true, expected: true),
        ColorCase(option: nil, environment: ["NO_COLOR": ""], terminal: false, expected: false),
        ColorCase(option: nil, environment: ["NO_COLOR": "", "CLICOLOR_FORCE": "1"], terminal: false, expected: true),
        // Then CLICOLOR_FORCE, set and not 0.
        ColorCase(option: nil, environment: ["CLICOLOR_FORCE": "1"], terminal: false, expected: true),
        ColorCase(option: nil, environment: ["CLICOLOR_FORCE": "yes"], terminal: false, expected: true),
        ColorCase(option: nil, environment: ["CLICOLOR_FORCE": "1", "TERM": "dumb"], terminal: false, expected: true),
        ColorCase(option: nil, environment: ["CLICOLOR_FORCE": "0"], terminal: false, expected: false),
        ColorCase(option: nil, environment: ["CLICOLOR_FORCE": "0"], terminal: true, expected: true),
        // Then auto: a terminal that is not dumb.
        ColorCase(option: nil, environment: [:], terminal: true, expected: true),
        ColorCase(option: nil, environment: ["TERM": "xterm-256color"], terminal: true, expected: true),
        ColorCase(option: nil, environment: [:], terminal: false, expected: false),
        ColorCase(option: nil, environment: ["TERM": "dumb"], terminal: true, expected: false),
        ColorCase(option: .auto, environment: [:], terminal: true, expected: true),
        ColorCase(option: .auto, environment: [:], terminal: false, expected: false),
        ColorCase(option: .auto, environment: ["TERM": "dumb"], terminal: true, expected: false),
    ]

    @Test(arguments: colorCases)
    func colorPrecedence(colorCase: ColorCase) {
        #expect(Style.colorEnabled(option: colorCase.option, environment: colorCase.environment,
                                   isTerminal: colorCase.terminal) == colorCase.expected)
    }

    @Test(arguments: [
        ([String: String](), false),
        (["LANG": "en_US.UTF-8"], true),
        (["LANG": "C.UTF-8"], true),
        (["LANG": "de_DE.utf8"], true),
        (["LANG": "C"], false),
        (["LANG": "POSIX"], false),
        (["LANG": "en_US.ISO-8859-1"], false),
        (["LC_ALL": "C", "LANG": "en_US.UTF-8"], false),
        (["LC_ALL": "en_US.UTF-8", "LANG": "C"], true),
        (["LC_CTYPE": "C", "LANG": "en_US.UTF-8"], false),
        (["LC_CTYPE": "en_US.UTF-8", "LANG": "C"], true),
        (["LC_ALL": "C", "LC_CTYPE": "en_US.UTF-8"], false),
        (["LC_ALL": "", "LC_CTYPE": "C.UTF-8", "LANG": "C"], true),
        (["LC_ALL": "", "LC_CTYPE": "", "LANG": "C.UTF-8"], true),
        (["LC_MESSAGES": "en_US.UTF-8"], false),
        (["LC_ALL": "", "LANG": ""], false),
    ])
    func utf8Locale(environment: [String: String], expected: Bool) {
        #expect(Style.localeIsUTF8(environment) == expected)
    }

    @Test func markers() {
        let unicode = Style(color: false, unicode: true)
        #expect(unicode.openMarker == "○")
        #expect(unicode.doneMarker == "●")
        let ascii = Style(color: false, unicode: false)
        #expect(ascii.openMarker == "[ ]")
        #expect(ascii.doneMarker == "[x]")
    }

    @Test func paintingOnlyWithColor() {
        #expect(Style(color: false, unicode: true).bold("x") == "x")
        #expect(Style(color: true, unicode: true).bold("x") == "\u{1B}[1mx\u{1B}[0m")
        #expect(Style(color: true, unicode: true).dim("") == "")
    }

    // MARK: In-process

    func preparedHarness(_ environment: [String: String]) throws -> CLIHarness {
        let harness = CLIHarness(environment: environment)
        let store = try harness.openStore()
        try store.saveRepository(Fixture.helloWorld)
        _ = try store.addTodo(repositoryID: Fixture.helloWorld.id, text: "write docs", at: Fixture.t0)
        return harness
    }

    @Test(arguments: [
        ([String](), [String: String](), true, true),
        ([], ["TERM": "dumb"], true, false),
        ([], ["NO_COLOR": "1"], true, false),
        (["--color", "never"], [:], true, false),
        ([], [:], false, false),
        ([], ["CLICOLOR_FORCE": "1"], false, true),
        (["--color=always"], [:], false, true),
        (["--color=never"], ["CLICOLOR_FORCE": "1"], false, false),
    ])
    func todoListColour(options: [String], environment: [String: String], terminal: Bool, coloured: Bool) throws {
        let harness = try preparedHarness(environment.merging(["LANG": "C.UTF-8"]) { $1 })
        let result = harness.run(["todo", "list"] + options, terminal: terminal, width: terminal ? 80 : nil)
        #expect(result.code == 0)
        #expect(result.stdout.contains("\u{1B}[") == coloured, "stdout: \(result.stdout.debugDescription)")
        #expect(visible(result.stdout) == "octocat/Hello-World  My first repository on GitHub!\n  ○ 1  write docs\n")
    }

    @Test(arguments: [
        (["LANG": "C.UTF-8"], [String](), "○"),
        (["LANG": "C"], [], "[ ]"),
        ([:], [], "[ ]"),
        (["LC_ALL": "C", "LANG": "en_US.UTF-8"], [], "[ ]"),
        (["LANG": "en_US.UTF-8"], ["--ascii"], "[ ]"),
    ])
    func todoListMarkers(environment: [String: String], options: [String], marker: String) throws {
        let harness = try preparedHarness(environment)
        let result = harness.run(["todo", "list"] + options)
        #expect(result.stdout.contains("  \(marker) 1  write docs\n"), "stdout: \(result.stdout)")
    }
}
