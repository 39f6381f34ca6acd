import DoogitSupport
import Testing
@testable import DoogitCLI

/// The help text, pinned at the default width of 80 columns (stdout not a terminal).
@Suite struct HelpTextTests {
    static let globalOptions = """
        Global options:
              --db PATH     the database file (default: $DOOGIT_DB, else
                            $XDG_DATA_HOME/doogit/doogit.sqlite3)
              --json        machine-readable output on stdout
              --color WHEN  colour: auto (default), always or never
          -q, --quiet       print nothing but errors and requested data
          -v, --verbose     print more on stderr (requests to GitHub, timings)
          -h, --help        show help for the command
              --version     print doogit's version
              --ascii       use ASCII markers: [ ] and [x] for ○ and ●
        """

    /// The exit-code sentence is wrapped like every other paragraph: the top-level help, too,
    /// fits 80 columns.
    static let topLevel = """
        doogit: a todo list for each of your GitHub repositories

        Usage: doogit [OPTIONS] COMMAND [SUBCOMMAND] [ARGS]

        Commands:
          todo add TEXT...        Add a todo
          todo list [REPO...]     Show todos, one section per repository
          todo show ID            Show everything about a todo
          todo done ID...         Mark todos done
          todo undo ID...         Mark todos open again
          todo edit ID [TEXT...]  Change a todo's text, due date, priority, tags or note
          todo assign ID LOGIN    Assign todos to a GitHub user
          todo unassign ID...     Assign todos to nobody
          todo move ID...         Move todos to another repository
          todo rm ID...           Delete todos
          todo restore ID...      Bring back removed todos
          todo clear [REPO]       Remove the done todos of a repository
          todo promote ID         Create a GitHub issue for a todo and link the two
          todo link ID ISSUE      Link a todo to an existing GitHub issue
          todo unlink ID          Forget a todo's issue (the issue is untouched)
          repo add REPO...        Fetch repositories from GitHub and track them
          repo list               List tracked repositories with their todo counts
          repo remove REPO...     Stop tracking repositories
          repo search [QUERY...]  Search your repositories on GitHub
          repo set REPO...        Choose what sync does with issues and commits
          repo share REPO         Share a repository's todos with its readers
          repo unshare REPO       Stop sharing a repository's todos from here
          next                    Show the most urgent open todos across all
                                  repositories
          ui [REPO...]            Browse and change the todo list in a full-screen view
          sync                    Bring tracked repositories up to date with GitHub
          remote init [REPO]      Keep the todos in a private repository of yours
          remote status           Show the remote, changes waiting, the machines
          remote forget MACHINE   Stop waiting for a machine that no longer syncs
          remote set              Choose how long removals wait for machines
          remote remove           Stop exchanging the todos (the files on GitHub stay)
          board                   Your todos as a task list on github.com and in the
                                  GitHub app
          board on                Keep the board, on every machine of the remote
          board off               Stop keeping the board (its issues are closed, not
                                  deleted)
          export                  Write everything: repositories, todos, links, settings
          import FILE|-           Add todos from a doogit, Taskwarrior or todo.txt file
          auth status             Show which token is used and whether GitHub accepts it
          auth login              Save a token for doogit to use
          auth logout             Forget the token saved for the API's origin
          completion SHELL        Print a shell completion script
          help [COMMAND...]       Show help for a command

        Short forms: 'doogit' alone is 'doogit todo list'; doogit ls, add, show, done,
        undo, edit, move, rm, restore and clear are the todo commands ('doogit add TEXT'
        is 'doogit todo add TEXT').

        Global options (before or after the command):
              --db PATH     the database file (default: $DOOGIT_DB, else
                            $XDG_DATA_HOME/doogit/doogit.sqlite3)
              --json        machine-readable output on stdout
              --color WHEN  colour: auto (default), always or never
          -q, --quiet       print nothing but errors and requested data
          -v, --verbose     print more on stderr (requests to GitHub, timings)
          -h, --help        show help for the command
              --version     print doogit's version
              --ascii       use ASCII markers: [ ] and [x] for ○ and ●

        Environment:
          GH_TOKEN, GITHUB_TOKEN       the GitHub token (else the one saved by 'doogit
                                       auth login', else 'gh auth token')
          GH_REPO                      the repository for 'todo add' without -R
          GH_HOST                      a GitHub Enterprise Server host
          DOOGIT_API_URL               the REST API base URL (default
                                       https://api.github.com)
          SSL_CERT_FILE, SSL_CERT_DIR  the certificates to trust instead of the system's
                                       (a private CA, a TLS-inspecting proxy)
          DOOGIT_DB                    the database file
          XDG_DATA_HOME                where the database lives (default ~/.local/share)
          XDG_CONFIG_HOME              where a saved token lives (default ~/.config)
          NO_COLOR, CLICOLOR_FORCE     never or always colour, unless --color says
                                       otherwise
          LC_ALL, LC_CTYPE, LANG       the first one set decides between ○ ● and [ ] [x]

        Exit codes: 0 success, 1 failure, 2 usage error, 4 authentication needed, 75 try
        again later.
        Run 'doogit help COMMAND' for more about a command.
        """

    static let todoGroup = """
        doogit todo: Add, list, complete, edit and remove todos

        Usage: doogit todo COMMAND [ARGS] [OPTIONS]

        Todos live under tracked repositories. IDs are small numbers, stable for the
        life of a todo and never reused; where IDs are taken, '3 4', '3,4', '1-3' and
        '#3' all work. The short forms 'doogit ls', 'doogit add', 'doogit done' and so
        on are these commands, and 'doogit' alone is 'doogit todo list'.

        Commands:
          add TEXT...        Add a todo
          list [REPO...]     Show todos, one section per repository (also: ls)
          show ID            Show everything about a todo
          done ID...         Mark todos done
          undo ID...         Mark todos open again
          edit ID [TEXT...]  Change a todo's text, due date, priority, tags or note
          assign ID LOGIN    Assign todos to a GitHub user
          unassign ID...     Assign todos to nobody
          move ID...         Move todos to another repository (also: mv)
          rm ID...           Delete todos (also: remove)
          restore ID...      Bring back removed todos
          clear [REPO]       Remove the done todos of a repository
          promote ID         Create a GitHub issue for a todo and link the two
          link ID ISSUE      Link a todo to an existing GitHub issue
          unlink ID          Forget a todo's issue (the issue is untouched)

        Run 'doogit help todo COMMAND' for more about a command.
        """

    static let todoAdd = """
        doogit todo add: Add a todo

        Usage: doogit todo add TEXT... [OPTIONS]

        The words of TEXT are joined with spaces, so quotes are optional; TEXT '-' reads
        todos from standard input instead, one per non-empty line, all added or none,
        each line as it is (no fields), with --due, --priority, --tag, --note and
        --note-file FILE for every line. The repository is -R/--repo, else GH_REPO, else
        the one the current directory's git checkout points at, read as git reads it
        (url.<base>.insteadOf, SSH host aliases from ~/.ssh/config): the first tracked
        one of its GitHub remotes, 'origin' first, then 'upstream' (so a fork's checkout
        finds the tracked original), then the others. It must be tracked: see 'doogit
        repo add'. With --issue the todo's GitHub issue is created too, as with 'doogit
        todo promote': its body is the note, unless --body or --body-file gives one.
        --note-file reads the note from FILE ('-': standard input); a note keeps its
        lines, without control characters, and has the text's limit of 10,000
        characters. In TEXT, a word '+tag' is a tag, 'due:WHEN' the due date and 'pri:H'
        (or 'priority:H') the priority, as Taskwarrior takes them; --raw keeps every
        word as text. WHEN is YYYY-MM-DD, today, tomorrow, a weekday (mon, friday), +3d
        or +2w: a weekday is its next one after today, and dates are the local
        calendar's (TZ), in the years 1970 to 9999. Two different due dates or
        priorities in one command are refused, naming both.

        Options:
          -R, --repo REPO       the repository (default: $GH_REPO, else the current
                                checkout's GitHub remote)
              --issue           also create its GitHub issue (no todo is added if GitHub
                                refuses)
              --body TEXT       the issue's body (default: the todo's note)
              --body-file FILE  read the issue's body from FILE ('-': standard input)
              --label NAME      add a label (repeat it, or separate names with commas)
              --due WHEN        the date to do it by: YYYY-MM-DD, today, tomorrow, a
                                weekday (mon, friday), +3d or +2w
              --priority H|M|L  how pressing it is: H (high), M or L
              --tag TAG         a tag (repeat it for several)
              --note TEXT       a note (several lines allowed)
              --note-file FILE  the note from FILE ('-': standard input)
              --raw             keep every word as text: no +tag, due: or pri: fields
              --assignee LOGIN  the GitHub login it is assigned to (@me: yours)
              --private         keep it yours: never shared, though its repository's
                                todos are

        Global options:
              --db PATH     the database file (default: $DOOGIT_DB, else
                            $XDG_DATA_HOME/doogit/doogit.sqlite3)
              --json        machine-readable output on stdout
              --color WHEN  colour: auto (default), always or never
          -q, --quiet       print nothing but errors and requested data
          -v, --verbose     print more on stderr (requests to GitHub, timings)
          -h, --help        show help for the command
              --version     print doogit's version
              --ascii       use ASCII markers: [ ] and [x] for ○ and ●

        Examples:
          doogit todo add write the release notes
          doogit todo add -R octocat/Hello-World "fix CI"
          doogit add fix the build +ci due:fri pri:H
          doogit add --raw email +someone about the launch
          grep -h TODO *.swift | doogit todo add -R octocat/Hello-World -
          doogit todo add --issue --label bug crash on empty config
        """

    static let todoList = """
        doogit todo list: Show todos, one section per repository

        Usage: doogit todo list [REPO...] [OPTIONS]
        Also: doogit todo ls

        Each section has a header with the repository's full name (flagged [archived] or
        [gone] when GitHub says so) and its description, then one line per todo: a
        marker (○ open, ● done; [ ] and [x] where the locale is not UTF-8 or with
        --ascii), the ID and the text. Open todos come first: overdue and due ones
        first, earliest first, then by priority (H, M, L, none), then as they arrived,
        the same order every day; a todo shows its priority as (H), and after two spaces
        (dimmed in colour) its due date relative to today (overdue in red; only open
        todos are ever overdue, a done one shows the date), its +tags and a linked
        todo's labels, and ✎ ([note] in ASCII) when it has a note; a todo that is
        someone else's shows @LOGIN, its assignee's (or, assigned to nobody, its
        author's) GitHub login. --mine shows only yours: assigned to you, or added by
        you (or before authors were kept) and assigned to nobody. --tag (a tag or a
        label, without case), --priority and --due pick todos (all kinds must hold; a
        repeated --tag means all of them, a repeated --priority or --due any); --due
        takes overdue, today (due by today), week (by 6 days from today) or a date. REPO
        (or -R REPO) is OWNER/NAME, NAME when one tracked repository has it, a name the
        repository had before, id:ID (GitHub's numeric id), or '.' for the repository of
        the current directory's git checkout; several show several sections. --grep
        matches are highlighted when colour is on. --long adds each todo's age (3d:
        created three days ago) before its text, and its note under it. --removed lists
        removed todos instead, most recently removed first, each with the ID that
        'doogit todo restore' takes.

        Options:
          -R, --repo REPO       only this repository (may be given several times)
              --grep TEXT       only todos whose text contains TEXT (ignoring case)
              --open            only open todos
              --done            only done todos
          -l, --long            also show each todo's age and the state of its issue
              --all-repos       also show tracked repositories that have no todos to
                                show
              --removed         the removed todos that can be restored here, whichever
                                machine removed them
              --tag TAG         only todos with this tag or label, without case
                                (repeated: with all of them)
              --priority H|M|L  only todos of this priority (repeated: of any of them)
              --due WHEN        only todos due by then: overdue, today, week or a date
                                (repeated: any)
              --mine            only your todos: assigned to you, or assigned to nobody
                                and added by you (or by nobody known)

        Global options:
              --db PATH     the database file (default: $DOOGIT_DB, else
                            $XDG_DATA_HOME/doogit/doogit.sqlite3)
              --json        machine-readable output on stdout
              --color WHEN  colour: auto (default), always or never
          -q, --quiet       print nothing but errors and requested data
          -v, --verbose     print more on stderr (requests to GitHub, timings)
          -h, --help        show help for the command
              --version     print doogit's version
              --ascii       use ASCII markers: [ ] and [x] for ○ and ●

        Examples:
          doogit todo list
          doogit ls . --open
          doogit ls Hello-World Spoon-Knife --grep release -l
          doogit todo list --removed
          doogit todo list --json
        """

    static let helpHelp = """
        doogit help: Show help for a command

        Usage: doogit help [COMMAND...]

        Shows what a command does, its arguments and options, and examples; without a
        COMMAND, the list of commands. 'doogit COMMAND --help' (or -h) shows the same.

        Examples:
          doogit help
          doogit help todo add
          doogit add --help
        """

    static let repoRemove = """
        doogit repo remove: Stop tracking repositories

        Usage: doogit repo remove REPO... [OPTIONS]
        Also: doogit repo rm

        Refuses while a repository has any todos, open or done, unless --force, which
        removes the repository and all its todos. Every REPO is checked first; nothing
        changes unless all can go. REPO may be id:ID (GitHub's numeric id, shown by
        'doogit repo list --json'), which tells apart two tracked repositories with one
        name. With a remote set, the repository and its todos leave every machine at its
        next sync; the todos stay restorable ('doogit todo list --removed') once the
        repository is tracked again.

        Options:
          -f, --force  also remove the repository's todos, open and done

        \(globalOptions)

        Examples:
          doogit repo remove octocat/Hello-World
          doogit repo remove Hello-World --force
        """

    static let sync = """
        doogit sync: Bring tracked repositories up to date with GitHub

        Usage: doogit sync [OPTIONS]

        Renames and transfers are followed (todos stay with the repository),
        descriptions and flags are refreshed, and a repository GitHub no longer returns
        is flagged [gone] with its todos kept. Linked issues and their todos are kept in
        step, and commits on the default branch with a 'Doogit-Done:' trailer finish
        their todos (see 'doogit help repo set'); a change seen on GitHub is dated by
        GitHub's time of it, so a change you made later wins. Prints nothing unless
        something changed, so cron mails only news. Only one sync runs at a time per
        database: a second one exits 0 at once (or waits with --wait). Exit 75 means try
        again later (network, GitHub down, rate limit); what was done is kept. When
        every repository and GitHub's /user answer 404, nothing is flagged gone and the
        exit is 1: check DOOGIT_API_URL or GH_HOST. With a remote set ('doogit remote
        init'), sync also merges the todos with the files there, at its start and, when
        it changed something itself, at its end: every field keeps its latest change, a
        removal wins over an edit made meanwhile, and what other machines added,
        finished, edited, removed, linked to issues or set with 'repo set' arrives here.
        Only the files that changed are read and written, in one commit; an unchanged
        remote costs one conditional request. A write that loses a race with another
        machine is merged and tried again (5 times at most, then exit 75 with nothing
        lost). Removals leave the remote once every machine has merged them (see 'doogit
        help remote forget'). Each repository shared with 'doogit repo share' is
        exchanged the same way with its doogit-todos branch, and says what it received
        and sent. When the exchange fails (a file, the repository or GitHub), the rest
        of the sync goes on and the changes wait; the exit code and message say what
        failed and what to do.

        Options:
              --wait     wait for a sync already running instead of exiting
          -n, --dry-run  show what would change without changing anything

        Global options:
              --db PATH     the database file (default: $DOOGIT_DB, else
                            $XDG_DATA_HOME/doogit/doogit.sqlite3)
              --json        machine-readable output on stdout
              --color WHEN  colour: auto (default), always or never
          -q, --quiet       print nothing but errors and requested data
          -v, --verbose     print more on stderr (requests to GitHub, timings)
          -h, --help        show help for the command
              --version     print doogit's version
              --ascii       use ASCII markers: [ ] and [x] for ○ and ●

        Examples:
          doogit sync
          */15 * * * * doogit sync --quiet   # crontab
        """

    static let repoSet = """
        doogit repo set: Choose what sync does with issues and commits

        Usage: doogit repo set REPO... [OPTIONS]

        'doogit sync' always pulls the state of linked issues: an issue closed on GitHub
        marks its todo done, reopened makes it open, a new title becomes its text (when
        both sides changed, the later change wins). Nothing is written to GitHub unless
        --push-issues is on. Imported issues never come back once their todo is removed
        or done; pull requests are never imported. A commit that reaches the default
        branch with a trailer 'Doogit-Done: <first 8 or more hex digits of the todo's
        UUID>' (see 'doogit todo show') marks that todo done. 'doogit repo list' shows
        the settings that are not the default. With a remote set ('doogit remote init'),
        the settings reach your other machines; each pushes its own changes, and two
        machines importing one issue make one todo.

        Options:
              --push-issues on|off          push todo changes to linked issues: done
                                            closes, undo reopens, edit retitles (default
                                            off)
              --import-issues off|assigned|all
                                            turn open issues (assigned to you, or all)
                                            into todos, each once (default off)
              --commits on|off              mark todos done from 'Doogit-Done:' trailers
                                            on the default branch (default on)

        \(globalOptions)

        Examples:
          doogit repo set octocat/Hello-World --push-issues on
          doogit repo set Hello-World --import-issues assigned --commits off
        """

    func help(_ arguments: String...) -> RunResult {
        CLIHarness().run(arguments)
    }

    /// Compares line by line first, so a failure names the line that differs.
    func expectText(_ actual: String, _ expected: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let actualLines = actual.split(separator: "\n", omittingEmptySubsequences: false)
        let expectedLines = (expected + "\n").split(separator: "\n", omittingEmptySubsequences: false)
        for (index, (got, want)) in zip(actualLines, expectedLines).enumerated() where got != want {
            Issue.record("line \(index + 1): got \(got.debugDescription), expected \(want.debugDescription)",
                         sourceLocation: sourceLocation)
            break
        }
        #expect(actual == expected + "\n", sourceLocation: sourceLocation)
    }

    @Test func topLevelHelp() {
        let result = help("help")
        #expect(result.code == 0)
        expectText(result.stdout, Self.topLevel)
    }

    @Test func topLevelHelpIsTheSameEveryWay() {
        let reference = help("help").stdout
        #expect(help("-h").stdout == reference)
        #expect(help("--help").stdout == reference)
    }

    @Test func todoGroupHelp() {
        let result = help("help", "todo")
        #expect(result.code == 0)
        expectText(result.stdout, Self.todoGroup)
        #expect(help("todo").stdout == result.stdout)
        #expect(help("todo", "-h").stdout == result.stdout)
    }

    @Test func todoAddHelp() {
        let result = help("help", "todo", "add")
        #expect(result.code == 0)
        expectText(result.stdout, Self.todoAdd)
        #expect(help("todo", "add", "--help").stdout == result.stdout)
        #expect(help("todo", "add", "some", "words", "-h").stdout == result.stdout)
        #expect(help("todo", "add", "-h", "-R").stdout == result.stdout, "help wins over a missing value")
    }

    @Test func todoListHelp() {
        let result = help("help", "todo", "list")
        #expect(result.code == 0)
        expectText(result.stdout, Self.todoList)
        #expect(help("help", "ls").stdout == result.stdout, "a short form's help is its command's")
        #expect(help("ls", "-h").stdout == result.stdout)
    }

    @Test func helpOnHelp() {
        let result = help("help", "help")
        #expect(result.code == 0)
        #expect(result.stderr.isEmpty)
        expectText(result.stdout, Self.helpHelp)
    }

    @Test func repoRemoveHelp() {
        let result = help("help", "repo", "remove")
        #expect(result.code == 0)
        expectText(result.stdout, Self.repoRemove)
        #expect(help("help", "repo", "rm").stdout == result.stdout)
        #expect(help("repo", "rm", "-h").stdout == result.stdout)
    }

    @Test func repoSetHelp() {
        expectText(help("help", "repo", "set").stdout, Self.repoSet)
    }

    @Test func syncHelp() {
        let result = help("help", "sync")
        #expect(result.code == 0)
        expectText(result.stdout, Self.sync)
        #expect(help("sync", "--help").stdout == result.stdout)
    }

    /// Every node of the command tree, the top level included; hidden plumbing left out.
    static let allPaths: [[String]] = {
        var paths: [[String]] = [[]]
        func walk(_ node: CommandSpec, _ path: [String]) {
            for sub in node.subcommands where !sub.hidden {
                paths.append(path + [sub.name])
                walk(sub, path + [sub.name])
            }
        }
        walk(Doogit.tree, [])
        return paths
    }()

    @Test func theTreeHasEveryCommandOfTheContract() {
        for path in [["todo", "add"], ["todo", "list"], ["todo", "done"], ["todo", "undo"], ["todo", "edit"],
                     ["todo", "rm"], ["todo", "show"], ["todo", "move"], ["todo", "restore"], ["todo", "clear"],
                     ["repo", "add"], ["repo", "list"], ["repo", "remove"], ["repo", "search"], ["sync"], ["auth", "status"],
                     ["todo", "promote"], ["todo", "link"], ["todo", "unlink"], ["repo", "set"], ["remote", "init"],
                     ["remote", "status"], ["remote", "remove"], ["export"], ["import"]] {
            #expect(Self.allPaths.contains(path), "missing \(path)")
        }
    }

    @Test(arguments: allPaths)
    func everyCommandHasHelpWithAUsageLine(path: [String]) {
        let result = CLIHarness().run(["help"] + path)
        #expect(result.code == 0)
        #expect(result.stderr.isEmpty)
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        let name = (["doogit"] + path).joined(separator: " ")
        #expect(lines.contains { $0.hasPrefix("Usage: \(name)") }, "no usage line for \(name)")
        #expect(lines.first?.hasPrefix(path.isEmpty ? "doogit: " : "\(name): ") == true)
        // -h after the command gives the same text.
        #expect(CLIHarness().run(path + ["-h"]).stdout == result.stdout)
    }

    @Test(arguments: allPaths)
    func everyHelpFitsEightyColumns(path: [String]) {
        let result = CLIHarness().run(["help"] + path)
        for line in result.stdout.split(separator: "\n") {
            #expect(DisplayWidth.of(line) <= 80, "\(line.count) columns in help \(path): \(line)")
            #expect(!line.hasSuffix(" "), "trailing space in help \(path): \(line.debugDescription)")
        }
    }

    @Test func everyCommandOfTheTreeIsListedInTheTopLevelHelp() {
        let text = help("help").stdout
        for path in Self.allPaths where path.count == 2 || (path.count == 1 && path != ["todo"] && path != ["repo"] && path != ["auth"]) {
            #expect(text.contains("  " + path.joined(separator: " ")), "\(path) is not in 'doogit help'")
        }
    }

    @Test func everyGlobalOptionIsInEveryCommandsHelp() {
        for path in Self.allPaths where !path.isEmpty {
            let node = path.reduce(Doogit.tree) { $0.subcommand(named: $1)! }
            guard node.subcommands.isEmpty else { continue }
            let text = CLIHarness().run(["help"] + path).stdout
            for option in GlobalOptions.specs {
                #expect(text.contains("--" + option.long), "help \(path) lacks --\(option.long)")
            }
            for option in node.options {
                #expect(text.contains("--" + option.long), "help \(path) lacks --\(option.long)")
            }
        }
    }
}
