import Testing
@testable import DoogitCLI
import DoogitStore
import DoogitSync

/// The exit code and line of each refusal and failure of linking todos to issues.
@Suite struct IssueErrorReportTests {
    @Test func eachIssueErrorHasItsExitCodeAndAdvice() {
        let other = ErrorReporter.report(IssueLinkError.otherRepository(issue: "someone/lib#3", todoRepository: "octocat/app"),
                                         databasePath: nil)
        #expect(other.code == .failure && other.message.contains("someone/lib#3 is not an issue of octocat/app"))
        let pull = ErrorReporter.report(IssueLinkError.pullRequest(repository: "octocat/app", number: 5), databasePath: nil)
        #expect(pull.code == .failure && pull.message.contains("octocat/app#5 is a pull request"))
        let lost = ErrorReporter.report(IssueLinkError.creationUnknown(todoID: 4, repository: "octocat/app",
                                                                       request: "POST /repos/octocat/app/issues",
                                                                       reason: "it timed out"), databasePath: nil)
        #expect(lost.code == .temporaryFailure)
        #expect(lost.message.contains("'doogit todo promote 4'") && lost.message.contains("will not be created twice"))
        let linked = ErrorReporter.report(StoreError.todoAlreadyLinked(todo: 3, issue: 12), databasePath: nil)
        #expect(linked.code == .failure && linked.message.contains("'doogit todo unlink 3'"))
        let taken = ErrorReporter.report(StoreError.issueAlreadyLinked(issue: 12, todo: 3), databasePath: nil)
        #expect(taken.code == .failure && taken.message.contains("issue #12 is linked to todo 3"))
        #expect(ErrorReporter.report(StoreError.todoNotLinked(3), databasePath: nil).code == .failure)
    }
}
