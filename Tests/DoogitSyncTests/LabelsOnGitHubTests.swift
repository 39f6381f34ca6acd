import DoogitStore
import DoogitSupport
@testable import DoogitSync
import Testing
import TestSupport

/// Tags pushed as labels against a GitHub that treats labels as GitHub does: names without
/// case, and other people labelling the issue between doogit's read and its write. A linked
/// todo's labels are kept apart from its tags, compared without case, and its tags' changes go
/// as changes (`POST .../labels`, `DELETE .../labels/NAME`), each once.
@Suite(.serialized)
struct LabelsOnGitHubTests {
    /// A linked todo, tagged after it was linked, with pushing on.
    func tagged(_ tag: String, _ world: IssueWorld) throws -> (todo: TodoRecord, number: Int64) {
        try world.setPush(true)
        let (todo, number) = try world.linkedTodo("crash on start")
        _ = try world.store.editDetails(id: todo.id, DetailsEdit(addTags: [tag]), at: .now())
        return (todo, number)
    }

    @Test func aTagInAnotherCaseThanTheRepositorysLabelIsPushedOnce() throws {
        let world = try IssueWorld()
        world.activity.addLabel(repository: IssueWorld.app, name: "bug")
        let (_, number) = try tagged("BUG", world)
        #expect(try world.sync().issues.pushed == 1)
        #expect(world.activity.issue(repository: IssueWorld.app, number: number)?.labels == ["bug"],
                "GitHub gives the issue the label it has")
        #expect(try world.sync().issues.pushed == 0, "pushed once, whatever the case")
        #expect(try world.store.todo(id: 1).labels == ["bug"], "the label as GitHub answered, seen")
    }

    @Test func aLabelAddedOnGitHubBetweenTheReadAndThePushStays() throws {
        let world = try IssueWorld()
        let (_, number) = try tagged("ci", world)
        world.activity.relabelAfterNextRead(repository: IssueWorld.app, number: number, adding: ["urgent"])
        #expect(try world.sync().issues.pushed == 1)
        let labels = world.activity.issue(repository: IssueWorld.app, number: number)?.labels ?? []
        #expect(labels.contains("ci"))
        #expect(labels.contains("urgent"), "their label stays: the push added one, it did not set them all")
    }
}
