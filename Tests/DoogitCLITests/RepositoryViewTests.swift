@testable import DoogitCLI
import DoogitTerminal
import Testing

/// The repository screen without a terminal: the search as `repo search` matches, the moves, and
/// what Enter, Esc and a click ask for.
struct RepositoryViewTests {
    static let entries = [
        RepositoryView.Entry(id: 1, fullName: "octocat/Hello-World", description: "My first repository", isPrivate: false,
                             archived: false, tracked: true),
        RepositoryView.Entry(id: 2, fullName: "octocat/linguist", description: "Language savant", isPrivate: false,
                             archived: false, tracked: false),
        RepositoryView.Entry(id: 3, fullName: "github/octo-tools", description: nil, isPrivate: true, archived: false,
                             tracked: false),
    ]

    func view() -> RepositoryView {
        var view = RepositoryView(width: 80, height: 24)
        view.show(Self.entries)
        return view
    }

    func type(_ text: String, into view: inout RepositoryView) {
        for character in text { _ = view.handle(.key(.character(character), alt: false)) }
    }

    @Test func typedWordsMatchOwnerNameOrDescriptionAsRepoSearchDoes() {
        var view = view()
        type("octo", into: &view)
        #expect(view.matches == [0, 1, 2], "the owner counts")
        type(" tools", into: &view)
        #expect(view.matches == [2], "every word must match")
        _ = view.handle(.key(.control("u"), alt: false))
        type("SAVANT", into: &view)
        #expect(view.matches == [1], "the description, without case")
        #expect(view.selected?.id == 2)
    }

    @Test func enterTracksOrStopsTrackingAndEscClearsThenGoesBack() {
        var view = view()
        #expect(view.handle(.key(.enter, alt: false)) == [.untrack(Self.entries[0], confirmed: false)])
        _ = view.handle(.key(.down, alt: false))
        #expect(view.handle(.key(.enter, alt: false)) == [.track(Self.entries[1])])
        type("zz", into: &view)
        #expect(view.matches.isEmpty)
        #expect(view.handle(.key(.enter, alt: false)).isEmpty, "nothing selected, nothing asked")
        #expect(view.handle(.key(.escape, alt: false)).isEmpty)
        #expect(view.matches.count == 3)
        #expect(view.handle(.key(.escape, alt: false)) == [.back])
    }

    @Test func untrackingARepositoryWithTodosWaitsForAYes() {
        var view = view()
        view.confirming = (Self.entries[0], 4)
        #expect(RepositoryScreen.frame(view, style: Style(color: false, unicode: true)).rows[22]
                == "Stop tracking octocat/Hello-World and remove its 4 todos? y/n")
        #expect(view.handle(.key(.character("y"), alt: false)) == [.untrack(Self.entries[0], confirmed: true)])
        // The release of the click that asked does not answer.
        view.confirming = (Self.entries[0], 4)
        #expect(view.handle(.mouse(MouseEvent(action: .release, button: 0, column: 5, row: 1))).isEmpty)
        #expect(view.confirming != nil)
        #expect(view.handle(.key(.character("n"), alt: false)).isEmpty)
        #expect(view.message == "Still tracking octocat/Hello-World")
    }

    @Test func aClickOnARowTracksIt() {
        var view = view()
        #expect(view.handle(.mouse(MouseEvent(action: .press, button: 0, column: 5, row: 2))) == [.track(Self.entries[1])])
        #expect(view.handle(.mouse(MouseEvent(action: .press, button: 0, column: 5, row: 10))).isEmpty, "below the list")
    }

    @Test func theFrameMarksTrackedOnesAndTheCursor() {
        let frame = RepositoryScreen.frame(view(), style: Style(color: false, unicode: true))
        #expect(frame.rows[0] == "Search your repositories: ")
        #expect(frame.rows[1].hasPrefix("›✓ octocat/Hello-World"))
        #expect(frame.rows[2].hasPrefix("   octocat/linguist"))
        #expect(frame.rows[3].contains("private"))
        #expect(frame.rows[22] == "3 of 3 repositories")
        #expect(frame.cursor == Frame.Cursor(row: 0, column: 26))
    }
}
