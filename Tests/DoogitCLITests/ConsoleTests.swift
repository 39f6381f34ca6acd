import Foundation
import Testing
@testable import DoogitCLI

/// Standard output that cannot be written is noticed, so the command can fail instead of
/// exiting 0 with truncated output.
@Suite struct ConsoleTests {
    @Test func aFullDiskIsRemembered() throws {
        let descriptor = open("/dev/full", O_WRONLY)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        let sink = FileDescriptorSink(descriptor: descriptor)
        sink.write("[\n]\n")
        #expect(sink.writeFailure == nil, "nothing is written before a flush")
        sink.flush()
        #expect(sink.writeFailure == ENOSPC)
        sink.write("more")
        sink.flush()
        #expect(sink.writeFailure == ENOSPC, "the first failure is kept")
    }

    /// Stdout closed (`>&-`) fails with EBADF; so does one open for reading only. (A number closed
    /// here could be reopened at once by a test running beside this one, which would then get the
    /// text in its file or socket.)
    @Test func aDescriptorThatCannotBeWrittenIsAFailure() throws {
        let descriptor = open("/dev/null", O_RDONLY)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        let sink = FileDescriptorSink(descriptor: descriptor)
        sink.write("text")
        sink.flush()
        #expect(sink.writeFailure == EBADF)
    }

    @Test func aWorkingDescriptorHasNoFailure() throws {
        let descriptor = open("/dev/null", O_WRONLY)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        let sink = FileDescriptorSink(descriptor: descriptor)
        sink.write(String(repeating: "x", count: 200_000))
        sink.flush()
        #expect(sink.writeFailure == nil)
    }

    @Test func theReportIsExitOneWithTheReason() {
        let report = ErrorReporter.report(OutputWriteError(code: ENOSPC), databasePath: nil)
        #expect(report.code == .failure)
        #expect(report.message.hasPrefix("cannot write the output (No space left on device); "))
    }
}
