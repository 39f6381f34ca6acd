import Foundation
import Testing
import TestSupport
@testable import DoogitCLI

/// The help, docs/commands.md and the man page list the same commands: all read from the command
/// tree, so a command added to the tree fails here until it is documented.
@Suite(.serialized) struct DocsMatchTreeTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path
    static let manPagePath = repository + "/docs/doogit.1"

    static func read(_ relative: String) throws -> String {
        try String(contentsOfFile: repository + "/" + relative, encoding: .utf8)
    }

    /// Every command of the tree (not the groups) as typed: its canonical path, and the path with
    /// each of its aliases; hidden plumbing left out. `help` is answered by the parser itself.
    static var commandPaths: [[String]] {
        var paths: [[String]] = [[HelpFormatter.helpCommand.name]]
        func walk(_ node: CommandSpec, _ path: [String]) {
            for sub in node.subcommands where !sub.hidden {
                if sub.subcommands.isEmpty {
                    paths += ([sub.name] + sub.aliases).map { path + [$0] }
                }
                walk(sub, path + [sub.name])
            }
        }
        walk(Doogit.tree, [])
        return paths
    }

    /// The command a code span of the docs names (`doogit todo add TEXT...` names `todo add`:
    /// the words after a command are its arguments), and whether the tree has it. Nil for a span
    /// that starts with no command word (`--json`, `id:ID`).
    static func documentedCommand(_ span: String) -> (path: [String], known: Bool)? {
        var tokens = span.split(separator: " ").map(String.init)
        if tokens.first == "doogit" { tokens.removeFirst() }
        let words = tokens.prefix { token in
            token.first?.isLetter == true && token.allSatisfy { ($0.isLowercase && $0.isASCII) || $0.isNumber || $0 == "-" }
        }
        guard let first = words.first else { return nil }
        if first == HelpFormatter.helpCommand.name { return ([first], true) }
        var node = Doogit.tree
        var path: [String] = []
        for word in words where !node.subcommands.isEmpty {
            guard let next = node.subcommand(named: word), !next.hidden else { return (path + [word], false) }
            node = next
            path.append(word)
        }
        return (path, true)
    }

    /// The code spans of docs/commands.md that name commands: in headings (`### \`doogit todo
    /// add\``, `(also \`todo ls\`)`), and in the first cell of a table row when they start
    /// with `doogit `.
    static func documentedSpans() throws -> [String] {
        var spans: [String] = []
        for line in try read("docs/commands.md").split(separator: "\n") {
            let pieces = line.split(separator: "`", omittingEmptySubsequences: false).map(String.init)
            let code = stride(from: 1, to: pieces.count, by: 2).map { pieces[$0] }
            if line.hasPrefix("#") {
                spans += code
            } else if line.hasPrefix("|"), let cell = line.dropFirst().split(separator: "|").first {
                let cellPieces = cell.split(separator: "`", omittingEmptySubsequences: false).map(String.init)
                spans += stride(from: 1, to: cellPieces.count, by: 2).map { cellPieces[$0] }.filter { $0.hasPrefix("doogit ") }
            }
        }
        return spans
    }

    @Test func everyCommandIsInCommandsMarkdown() throws {
        let documented = Set(try Self.documentedSpans().compactMap { Self.documentedCommand($0)?.path })
        for path in Self.commandPaths {
            #expect(documented.contains(path),
                    "'doogit \(path.joined(separator: " "))' has no ### heading (or '(also ...)' in one, or table row) in docs/commands.md")
        }
    }

    @Test func everyCommandOfCommandsMarkdownIsInTheTree() throws {
        for span in try Self.documentedSpans() {
            guard let found = Self.documentedCommand(span) else { continue }
            #expect(found.known, "docs/commands.md documents '\(span)', which 'doogit help' does not know")
        }
    }

    @Test func everyCommandIsInTheManPage() throws {
        let page = try Self.read("docs/doogit.1").replacingOccurrences(of: "\\-", with: "-")
        for path in Self.commandPaths {
            let name = "doogit " + path.joined(separator: " ")
            #expect(page.contains(name + " ") || page.contains(name + "\\fR") || page.contains(name + "\"") || page.contains(name + "\n"),
                    "docs/doogit.1 lacks '\(name)'")
        }
    }

    @Test func everyCommandIsInTheHelp() {
        let topLevel = HelpFormatter(root: Doogit.tree, width: 80).help(for: [])
        for path in Self.commandPaths {
            let parent = HelpFormatter(root: Doogit.tree, width: 80).help(for: Array(path.dropLast()))
            let command = HelpFormatter(root: Doogit.tree, width: 80).help(for: path)
            let name = path.joined(separator: " ")
            // A command is listed at the top (groups two deep) and in its group; an alias in its
            // group's list and in the command's own help.
            #expect(topLevel.contains("  " + name + " ") || topLevel.contains("  " + name + "\n")
                        || parent.contains(" " + (path.last ?? "")),
                    "'doogit help' does not list '\(name)'")
            #expect(command.contains("doogit " + name), "'doogit help \(name)' does not name it")
        }
    }

    /// Docs cannot drift: the committed page is what the tree generates.
    @Test func committedManPageIsGeneratedFromTheTree() throws {
        let generated = ManPage(root: Doogit.tree).render()
        let committed = try Self.read("docs/doogit.1")
        #expect(committed == generated, "docs/doogit.1 differs from the command tree's page: run scripts/generate-manpage")
    }

    @Test func manPageEscapesWhatRoffWouldRead() {
        #expect(ManPage.text(".start") == "\\&.start")
        #expect(ManPage.text("'quote") == "\\&'quote")
        #expect(ManPage.text("a\\b --x") == "a\\eb \\-\\-x")
        #expect(ManPage.text("○ ● …") == "\\[u25CB] \\[u25CF] \\[u2026]")
        let page = ManPage(root: Doogit.tree).render()
        #expect(page.contains(".if !c\\[u25CF] .char \\[u25CF] *\n"), "a fallback for every character beyond ASCII")
        #expect(page.unicodeScalars.allSatisfy { $0.isASCII })
    }

    static let groff = ["/usr/bin/groff", "/usr/local/bin/groff", "/opt/homebrew/bin/groff"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }

    /// `man ./docs/doogit.1` renders without a warning, in a UTF-8 and in an ASCII locale.
    @Test(.enabled(if: groff != nil, "groff is not installed (scripts/install-dependencies installs groff-base)"),
          arguments: ["utf8", "ascii"])
    func manPageRendersWithoutWarnings(device: String) throws {
        let result = ChildProcess.run(try #require(Self.groff), ["-man", "-ww", "-T", device, Self.manPagePath],
                                      environment: ProcessInfo.processInfo.environment)
        #expect(result.status == 0 && !result.timedOut)
        #expect(result.stderr.isEmpty, "groff: \(result.stderr)")
        #expect(result.stdout.utf8.count > 10_000)
    }
}
