import DoogitSupport
import DoogitStore
import Foundation
import Testing
import TestSupport

/// `doogit ui` in a real terminal (tmux): what it draws, what keys and clicks do (the commands'
/// changes, seen by the commands), a sync inside it, another process's change showing up, a
/// resize, and the terminal given back as it was however the view ends.
@Suite(.serialized, .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux"),
                             "tmux is not installed (scripts/install-dependencies --for-tests installs it)"))
struct InteractiveViewTests {
    /// A user with two tracked repositories and three todos.
    func sandbox() throws -> Sandbox {
        let sandbox = try Sandbox()
        sandbox.github.addRepository(id: 1, name: "Hello-World", description: "My first repository on GitHub!")
        sandbox.github.addRepository(id: 2, name: "Spoon-Knife", description: "This repo is for demonstration purposes only.")
        #expect(sandbox.run("repo", "add", "Hello-World", "Spoon-Knife").status == 0)
        #expect(sandbox.run("todo", "add", "-R", "Hello-World", "set up CI").status == 0)
        #expect(sandbox.run("todo", "add", "-R", "Hello-World", "write the release notes").status == 0)
        #expect(sandbox.run("todo", "add", "-R", "Spoon-Knife", "fork it").status == 0)
        return sandbox
    }

    /// The view in a terminal, the shell around it recording the terminal's settings before and
    /// after, and how it ended.
    func open(_ sandbox: Sandbox, _ arguments: String = "", columns: Int = 80, rows: Int = 24) throws -> (TmuxTerminal, String) {
        let folder = sandbox.home.path
        let script = """
            stty -a > \(folder)/stty-before
            sh -c 'echo $$ > \(folder)/ui.pid; exec "$0" ui \(arguments)' '\(DoogitBinary.path)'
            status=$?
            echo "exit=$status"
            echo "$status" > \(folder)/ui.status
            stty -a > \(folder)/stty-after
            echo "shell is back"
            read line
            """
        return (try TmuxTerminal(script: script, environment: sandbox.environment, columns: columns, rows: rows), folder)
    }

    /// Waits until the view has ended and the shell is back, and returns how the view ended.
    func exitStatus(_ terminal: TmuxTerminal, _ folder: String) throws -> String {
        try terminal.waitFor("shell is back")
        return try String(contentsOfFile: folder + "/ui.status", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func json(_ sandbox: Sandbox) throws -> [JSONValue] {
        let result = sandbox.run("todo", "list", "--json")
        guard case .array(let sections) = try JSONParser.parse(result.stdout) else { return [] }
        return sections.flatMap { section -> [JSONValue] in
            if case .array(let todos)? = section["todos"] { return todos }
            return []
        }
    }

    func todo(_ sandbox: Sandbox, _ text: String) throws -> JSONValue? {
        try json(sandbox).first { $0["text"] == .string(text) }
    }

    @Test func theListIsTodoListsWithAStatusLineAndHints() throws {
        let sandbox = try sandbox()
        let (terminal, folder) = try open(sandbox)
        let screen = try terminal.waitFor("open, 0 done")
        // The sections and lines of `todo list`, the cursor's '›' on the first todo.
        #expect(screen[0].hasPrefix("octocat/Hello-World  My first repository on GitHub!"))
        #expect(screen[0].hasSuffix("[+]"))
        #expect(screen[1] == "› ○ 1  set up CI")
        #expect(screen[2] == "  ○ 2  write the release notes")
        #expect(screen[3] == "")
        #expect(screen[4].hasPrefix("octocat/Spoon-Knife  This repo is for demonstration purposes only."))
        #expect(screen[5] == "  ○ 3  fork it")
        #expect(screen[22].hasPrefix("3 open, 0 done in 2 repositories"))
        #expect(screen[23] == "j/k move  space done  a add  e edit  D remove  u undo  / filter  ? help  q quit")
        // The README's picture is this screen (its list rows, then the status line and hints).
        let readme = try String(contentsOfFile: #filePath.replacing("Tests/EndToEndTests/InteractiveViewTests.swift", with: "README.md"),
                                encoding: .utf8)
        let picture = readme.components(separatedBy: "`doogit ui` in an 80x24 terminal (captured with tmux):\n\n```\n").dropFirst().first?
            .components(separatedBy: "\n```").first
        #expect(picture == (Array(screen[0...5]) + [""] + Array(screen[22...23])).joined(separator: "\n"))
        // Keys typed after q in the same read are not carried out (D would remove todo 1).
        try terminal.type("qD")
        #expect(try exitStatus(terminal, folder) == "0")
        #expect(try String(contentsOfFile: folder + "/stty-before", encoding: .utf8)
                == String(contentsOfFile: folder + "/stty-after", encoding: .utf8))
        #expect(try todo(sandbox, "set up CI") != nil)
    }

    @Test func spaceAndClickFinishTodosAddAddsWithFieldsAndUTakesBack() throws {
        let sandbox = try sandbox()
        let (terminal, folder) = try open(sandbox)
        try terminal.waitFor("open, 0 done")
        // Space on the first todo: `todo done 1`, as the commands see it.
        try terminal.send("Space")
        try terminal.waitFor("2 open, 1 done")
        #expect(try todo(sandbox, "set up CI")?["done"] == .bool(true))
        // Done todos go after open ones: todo 2 is now on the second row. A click on its
        // circle (column 3, row 2, one-based).
        try terminal.waitFor("› ● 1  set up CI")
        #expect(try terminal.screen()[1] == "  ○ 2  write the release notes")
        try terminal.type("\u{1B}[<0;3;2M\u{1B}[<0;3;2m")
        try terminal.waitFor("1 open, 2 done")
        #expect(try todo(sandbox, "write the release notes")?["done"] == .bool(true))
        // u takes the click back.
        try terminal.send("u")
        try terminal.waitFor("2 open, 1 done")
        #expect(try todo(sandbox, "write the release notes")?["done"] == .bool(false))
        // a adds to the section under the cursor, with todo add's fields.
        try terminal.send("a")
        try terminal.waitFor("Add to octocat/Hello-World:")
        try terminal.type("ship it +release pri:H due:2030-01-31")
        try terminal.send("Enter")
        try terminal.waitFor("Added 4")
        let added = try #require(try todo(sandbox, "ship it"))
        #expect(added["priority"] == .string("H"))
        #expect(added["due"] == .string("2030-01-31"))
        #expect(added["tags"] == .array([.string("release")]))
        #expect(sandbox.run("todo", "list", "Hello-World", "--json").stdout.contains("ship it"), "in the section under the cursor")
        // u takes the add back: the todo is removed (and restorable).
        try terminal.send("u")
        try terminal.waitFor("Took back the add")
        #expect(try todo(sandbox, "ship it") == nil)
        try terminal.send("q")
        #expect(try exitStatus(terminal, folder) == "0")
    }

    @Test func editRemoveAndFilterAreTheCommandsChanges() throws {
        let sandbox = try sandbox()
        let (terminal, folder) = try open(sandbox)
        try terminal.waitFor("open, 0 done")
        // e edits the text: the words as typed, none taken as fields.
        try terminal.send("j", "e", "C-u")
        try terminal.type("write notes +not-a-tag")
        try terminal.send("Enter")
        try terminal.waitFor("Changed 2")
        #expect(try todo(sandbox, "write notes +not-a-tag")?["tags"] == .array([]))
        // t tags it, d dates it.
        try terminal.send("t")
        try terminal.type("docs")
        try terminal.send("Enter")
        try terminal.waitFor("+docs")
        #expect(try todo(sandbox, "write notes +not-a-tag")?["tags"] == .array([.string("docs")]))
        // u takes the tag back.
        try terminal.send("u")
        try terminal.waitFor("Took back the edit")
        #expect(try todo(sandbox, "write notes +not-a-tag")?["tags"] == .array([]))
        // A mistake is the command's message, changes nothing, and gives the typed text back.
        try terminal.send("d")
        try terminal.type("0001-01-01")
        try terminal.send("Enter")
        try terminal.waitFor("is not a date a todo can be due")
        #expect(try todo(sandbox, "write notes +not-a-tag")?["due"] == .null)
        try terminal.send("C-u")
        try terminal.type("2031-02-03")
        try terminal.send("Enter")
        try terminal.waitFor("Changed 2")
        #expect(try todo(sandbox, "write notes +not-a-tag")?["due"] == .string("2031-02-03"))
        // The prompt holds the date the todo has; an empty answer clears it.
        try terminal.send("d")
        try terminal.waitFor("the date in the prompt") { $0.contains("Due 2: 2031-02-03") }
        try terminal.send("C-u", "Enter")
        try terminal.waitFor("the prompt gone") { !$0.contains { $0.hasPrefix("Due 2:") } }
        #expect(try todo(sandbox, "write notes +not-a-tag")?["due"] == .null)
        // D removes; `todo list --removed` has it.
        try terminal.send("D")
        try terminal.waitFor("Removed 2")
        #expect(sandbox.run("todo", "list", "--removed").stdout.contains("write notes"))
        // / filters as you type; Esc clears it.
        try terminal.send("/")
        try terminal.type("fork")
        let filtered = try terminal.waitFor("only the match") { rows in !rows.contains { $0.contains("set up CI") } }
        #expect(filtered.contains { $0.contains("fork it") })
        try terminal.send("Enter", "Escape")
        try terminal.waitFor("set up CI")
        try terminal.send("q")
        #expect(try exitStatus(terminal, folder) == "0")
    }

    /// `@` assigns, as `todo assign` does: the prompt holds the assignee, a bad login is the
    /// command's message with the text kept, an empty answer assigns to nobody, `u` takes back.
    @Test func atAssignsTheTodoAsTheCommandDoes() throws {
        let sandbox = try sandbox()
        let (terminal, folder) = try open(sandbox)
        try terminal.waitFor("open, 0 done")
        try terminal.send("j", "@")
        try terminal.waitFor("the prompt") { $0.contains { $0.hasPrefix("Assign 2 to:") } }
        try terminal.type("hubot")
        try terminal.send("Enter")
        try terminal.waitFor("write the release notes  @hubot")
        #expect(try todo(sandbox, "write the release notes")?["assignee"] == .string("hubot"))
        try terminal.send("@")
        try terminal.waitFor("the login in the prompt") { $0.contains("Assign 2 to: hubot") }
        try terminal.send("C-u")
        try terminal.type("not/a/login")
        try terminal.send("Enter")
        try terminal.waitFor("is not a GitHub login")
        try terminal.waitFor("the text kept") { $0.contains("Assign 2 to: not/a/login") }
        #expect(try todo(sandbox, "write the release notes")?["assignee"] == .string("hubot"))
        try terminal.send("C-u", "Enter")
        try terminal.waitFor("nobody's") { rows in !rows.contains { $0.contains("@hubot") } && rows.contains { $0.contains("Changed 2") } }
        #expect(try todo(sandbox, "write the release notes")?["assignee"] == .null)
        try terminal.send("u")
        try terminal.waitFor("write the release notes  @hubot")
        #expect(try todo(sandbox, "write the release notes")?["assignee"] == .string("hubot"))
        try terminal.send("q")
        #expect(try exitStatus(terminal, folder) == "0")
    }

    @Test func anotherProcessesChangeShowsWithoutAKeyTheCursorOnItsTodo() throws {
        let sandbox = try sandbox()
        let (terminal, folder) = try open(sandbox)
        try terminal.waitFor("open, 0 done")
        try terminal.send("j")
        try terminal.waitFor("› ○ 2  write the release notes")
        // A todo added before the cursor's, by another process: the cursor stays on todo 2.
        #expect(sandbox.run("todo", "add", "-R", "Hello-World", "from another terminal", "pri:H").status == 0)
        let screen = try terminal.waitFor("from another terminal")
        #expect(screen.contains("› ○ 2  write the release notes"))
        try terminal.send("q")
        #expect(try exitStatus(terminal, folder) == "0")
    }

    @Test func aSyncRunsInsideTheViewAndItsChangesShow() throws {
        let sandbox = try sandbox()
        let (terminal, folder) = try open(sandbox)
        try terminal.waitFor("open, 0 done")
        sandbox.github.rename(2, to: "Spoon-Fork")
        try terminal.send("s")
        try terminal.waitFor("synced:")
        try terminal.waitFor("octocat/Spoon-Fork")
        try terminal.send("q")
        #expect(try exitStatus(terminal, folder) == "0")
    }

    @Test func aResizeRedrawsAndATinyWindowSaysSo() throws {
        let sandbox = try sandbox()
        let (terminal, folder) = try open(sandbox)
        try terminal.waitFor("open, 0 done")
        try terminal.resize(columns: 120, rows: 30)
        try terminal.waitFor("the status line at the new bottom") { rows in
            rows.count >= 30 && rows[28].hasPrefix("3 open, 0 done")
        }
        try terminal.resize(columns: 20, rows: 4)
        try terminal.waitFor("doogit ui needs")
        try terminal.resize(columns: 80, rows: 24)
        try terminal.waitFor("› ○ 1  set up CI")
        try terminal.send("q")
        #expect(try exitStatus(terminal, folder) == "0")
    }

    @Test(arguments: [("TERM", 143), ("HUP", 129), ("INT", 130)])
    func aSignalGivesTheTerminalBack(signal: String, status: Int) throws {
        let sandbox = try sandbox()
        let (terminal, folder) = try open(sandbox)
        try terminal.waitFor("open, 0 done")
        let pid = try String(contentsOfFile: folder + "/ui.pid", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(ChildProcess.run("/bin/kill", ["-\(signal)", pid], environment: ["PATH": "/usr/bin:/bin"]).status == 0)
        #expect(try exitStatus(terminal, folder) == String(status))
        #expect(try String(contentsOfFile: folder + "/stty-before", encoding: .utf8)
                == String(contentsOfFile: folder + "/stty-after", encoding: .utf8))
        // Back on the main screen: the list is not left on it.
        #expect(!(try terminal.screen().contains { $0.contains("j/k move") }))
    }

    @Test func theRepositoryScreenFindsByPartOfTheNameAndTracksAndStopsTracking() throws {
        let sandbox = try sandbox()
        sandbox.github.addRepository(id: 3, name: "linguist", description: "Language savant")
        sandbox.github.addRepository(id: 4, name: "octo-tools", description: nil)
        // The remote's own repository holds doogit's files, not work: it is not offered.
        let remote = sandbox.run("remote", "init", "octocat/doogit-data", "--create")
        #expect(remote.status == 0, "\(remote.stderr)")
        let (terminal, folder) = try open(sandbox)
        try terminal.waitFor("open, 0 done")
        try terminal.send("r")
        let listed = try terminal.waitFor("4 of 4 repositories")
        #expect(!listed.contains { $0.contains("doogit-data") })
        // Typed keys search at once: "savant" is in linguist's description only.
        try terminal.type("savant")
        let found = try terminal.waitFor("1 of 4 repositories")
        #expect(found.contains { $0.contains("octocat/linguist") && $0.contains("Language savant") })
        try terminal.send("Enter")
        try terminal.waitFor("Tracking octocat/linguist")
        try terminal.waitFor("✓ octocat/linguist")
        #expect(sandbox.run("repo", "list").stdout.contains("octocat/linguist"))
        // A repository with todos asks first; n keeps it.
        try terminal.send("C-u")
        try terminal.type("spoon")
        try terminal.waitFor("1 of 4 repositories")
        try terminal.send("Enter")
        try terminal.waitFor("Stop tracking octocat/Spoon-Knife and remove its 1 todo? y/n")
        try terminal.send("n")
        try terminal.waitFor("Still tracking octocat/Spoon-Knife")
        #expect(sandbox.run("repo", "list").stdout.contains("Spoon-Knife"))
        // Esc clears the search, and on an empty one goes back to the list, which has the new section.
        try terminal.send("Escape")
        try terminal.waitFor("4 of 4 repositories")
        try terminal.send("Escape")
        try terminal.waitFor("octocat/linguist  Language savant")
        // The listing was kept: the screen shows it at once the next time, and reads it again.
        #expect(FileManager.default.fileExists(atPath: folder + "/.cache/doogit/repositories.json"))
        try terminal.send("q")
        #expect(try exitStatus(terminal, folder) == "0")
    }

    @Test func nEditsTheNoteInTheEditorAndPromoteMakesTheIssueWithIt() throws {
        let sandbox = try sandbox()
        let editor = sandbox.home.path + "/editor.sh"
        try ChildProcess.writeExecutable("#!/bin/sh\nprintf 'first line\\nsecond line\\n' >> \"$1\"\n", to: editor)
        sandbox.environment["EDITOR"] = editor
        let browser = sandbox.home.path + "/browser.sh"
        try ChildProcess.writeExecutable("#!/bin/sh\necho \"$1\" > \"$HOME/opened\"\n", to: browser)
        sandbox.environment["BROWSER"] = browser
        let (terminal, folder) = try open(sandbox)
        try terminal.waitFor("open, 0 done")
        try terminal.send("n")
        try terminal.waitFor("Saved the note of 1")
        #expect(try todo(sandbox, "set up CI")?["note"] == .string("first line\nsecond line"))
        // The list marks a todo with a note.
        try terminal.waitFor("› ○ 1  set up CI  ✎")
        // P: `todo promote` in the background; the issue's body is the note.
        try terminal.send("P")
        try terminal.waitFor("Promoted 1")
        let issue = try #require(sandbox.github.activity.issues(repository: 1).first)
        #expect(issue.title == "set up CI")
        #expect(issue.body.contains("first line\nsecond line"))
        // u cannot take a promote back, and says so.
        try terminal.send("u")
        try terminal.waitFor("A promote cannot be taken back")
        // o opens the issue.
        try terminal.send("o")
        try terminal.waitFor("Opening https://")
        try terminal.waitFor("the browser's file") { _ in FileManager.default.fileExists(atPath: folder + "/opened") }
        #expect(try String(contentsOfFile: folder + "/opened", encoding: .utf8).contains("/issues/"))
        // A link that is not a page of GitHub (another machine's file can say anything) is not opened.
        try Database(path: sandbox.databasePath).run("UPDATE todos SET issue_url = 'file:///etc/passwd', seen_url = 'file:///etc/passwd', text = 'set up CI again' WHERE id = 1")
        try terminal.waitFor("set up CI again")
        try FileManager.default.removeItem(atPath: folder + "/opened")
        try terminal.send("o")
        try terminal.waitFor("Not opening file:///etc/passwd: not an https:// page of GitHub")
        #expect(!FileManager.default.fileExists(atPath: folder + "/opened"))
        try terminal.send("q")
        #expect(try exitStatus(terminal, folder) == "0")
    }

    /// Ctrl-Z gives the terminal back and stops; `fg` brings back a view that takes keys.
    @Test func ctrlZSuspendsWithTheTerminalGivenBackAndFgRedraws() throws {
        let sandbox = try sandbox()
        let folder = sandbox.home.path
        // A shell with job control, as a user's.
        let script = """
            exec /bin/bash -m -c '
            stty -a > \(folder)/stty-before
            sh -c "echo \\$\\$ > \(folder)/ui.pid; exec \\"\\$0\\" ui" "\(DoogitBinary.path)"
            stty -a > \(folder)/stty-suspended
            echo "suspended"
            read line
            fg
            echo "$?" > \(folder)/ui.status
            echo "shell is back"
            read line'
            """
        let terminal = try TmuxTerminal(script: script, environment: sandbox.environment)
        try terminal.waitFor("open, 0 done")
        try terminal.send("C-z")
        let suspended = try terminal.waitFor("suspended")
        #expect(!suspended.contains { $0.contains("j/k move") }, "off the alternate screen")
        #expect(try String(contentsOfFile: folder + "/stty-before", encoding: .utf8)
                == String(contentsOfFile: folder + "/stty-suspended", encoding: .utf8))
        try terminal.send("Enter")
        try terminal.waitFor("› ○ 1  set up CI")
        // Keys arrive one by one, without Enter: the terminal is raw again.
        try terminal.send("j", "Space")
        try terminal.waitFor("2 open, 1 done")
        try terminal.send("q")
        #expect(try exitStatus(terminal, folder) == "0")
    }

    /// The issue's "done when", as a new user would try it, at 200x50: nothing tracked, a
    /// repository found by part of its name and tracked, three todos added, one finished with a
    /// click and one with space, one taken back, a sync, a cron sync meanwhile, and the shell as
    /// it was.
    @Test func aNewUserFromNothingToASyncedList() throws {
        let sandbox = try Sandbox()
        sandbox.github.addRepository(id: 1, name: "Hello-World", description: "My first repository on GitHub!")
        sandbox.github.addRepository(id: 2, name: "Spoon-Knife", description: "demo")
        let (terminal, folder) = try open(sandbox, columns: 200, rows: 50)
        try terminal.waitFor("No todos. Press r to track a repository")
        try terminal.send("a")
        try terminal.waitFor("No repository to add to: track one with r")
        try terminal.send("r")
        try terminal.type("hello")
        try terminal.waitFor("1 of 2 repositories")
        try terminal.send("Enter")
        try terminal.waitFor("✓ octocat/Hello-World")
        try terminal.send("Escape")
        try terminal.waitFor("2 of 2 repositories")
        try terminal.send("Escape")
        try terminal.waitFor("j/k move")
        try terminal.waitFor("octocat/Hello-World  My first repository on GitHub!")
        for line in ["write the docs +docs due:2030-01-31", "tag the release +release pri:H", "tell everyone due:2030-02-01"] {
            try terminal.send("a")
            try terminal.waitFor("Add to octocat/Hello-World:")
            try terminal.type(line)
            try terminal.send("Enter")
            try terminal.waitFor("Added")
        }
        try terminal.waitFor("3 open, 0 done")
        // The first todo (due first) with space; the one on the next row with a click on its circle.
        try terminal.send("g", "j", "Space")
        try terminal.waitFor("2 open, 1 done")
        let screen = try terminal.screen()
        let row = try #require(screen.firstIndex { $0.hasPrefix("  ○") })
        try terminal.type("\u{1B}[<0;3;\(row + 1)M\u{1B}[<0;3;\(row + 1)m")
        try terminal.waitFor("1 open, 2 done")
        try terminal.send("u")
        try terminal.waitFor("2 open, 1 done")
        // A sync in the view, then one from cron meanwhile: both show without a key.
        try terminal.send("s")
        try terminal.waitFor("synced:")
        sandbox.github.update(1) { $0.description = "Renamed by someone" }
        #expect(sandbox.run("sync", "--quiet").status == 0)
        try terminal.waitFor("octocat/Hello-World  Renamed by someone")
        try terminal.send("q")
        #expect(try exitStatus(terminal, folder) == "0")
        #expect(try String(contentsOfFile: folder + "/stty-before", encoding: .utf8)
                == String(contentsOfFile: folder + "/stty-after", encoding: .utf8))
        #expect(sandbox.run("todo", "list", "--done").stdout.contains("write the docs"))
    }

    @Test func asciiMarkersAndNoColourHold() throws {
        let sandbox = try sandbox()
        sandbox.environment["NO_COLOR"] = "1"
        let (terminal, folder) = try open(sandbox, "--ascii")
        let screen = try terminal.waitFor("open, 0 done")
        #expect(screen[1] == "> [ ] 1  set up CI")
        #expect(!(try terminal.styledScreen().contains("\u{1B}[7m")), "no reverse video without colour")
        try terminal.send("q")
        #expect(try exitStatus(terminal, folder) == "0")
    }

    @Test func aDumbTerminalIsRefused() throws {
        let sandbox = try sandbox()
        let folder = sandbox.home.path
        let terminal = try TmuxTerminal(script: """
            TERM=dumb "\(DoogitBinary.path)" ui 2> \(folder)/stderr
            echo "$?" > \(folder)/ui.status
            echo "shell is back"
            read line
            """, environment: sandbox.environment)
        #expect(try exitStatus(terminal, folder) == "2")
        #expect(try String(contentsOfFile: folder + "/stderr", encoding: .utf8).contains("TERM is dumb"))
    }

    @Test func withoutATerminalItIsRefused() throws {
        let sandbox = try sandbox()
        let before = try sandbox.snapshot()
        let result = sandbox.run("ui")
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("doogit: error: 'doogit ui' needs a terminal on standard input and output"))
        #expect(try sandbox.snapshot() == before)
    }
}
