import Testing
import TestSupport

/// Hostile answers from "GitHub" for the decoders: mutated and malformed JSON, fields of the
/// wrong type, documents deep and huge. Nothing may trap or hang.
///
/// The generated batches run in child processes (exit tests), so that a trap fails the test
/// with the seed and the input that caused it rather than ending the whole test run. Every case
/// is a function of (seed, case number) alone.
struct FuzzResponseDecoderTests {
    static let decoderSeeds: [UInt64] = [0xD0C0_DE01, 0xD0C0_DE02]

    @Test func everyFixtureIsThere() {
        for name in JSONFuzzer.fixtureNames {
            #expect(!Fixtures.text(name).isEmpty, "missing fixture \(name)")
        }
    }

    @Test(arguments: decoderSeeds)
    func mutatedFixturesNeverTrapTheDecoders(seed: UInt64) async {
        let scratch = TemporaryDirectory()
        let progress = scratch.file("progress.log")
        let finished = await #expect(processExitsWith: .success,
                                     "the decoder batch of seed \(FuzzText.hex(seed)) must end without a trap") {
            [seed = seed as UInt64, progress = progress as String] in
            JSONFuzzer.runMutations(seed: seed, progressPath: progress)
        }
        recordUnfinished(finished, "FuzzResponse decoders seed \(FuzzText.hex(seed))", progressPath: progress)
        withExtendedLifetime(scratch) {}
    }

    @Test func truncatedFixturesAreSyntaxErrors() async {
        let scratch = TemporaryDirectory()
        let progress = scratch.file("progress.log")
        let finished = await #expect(processExitsWith: .success, "truncated documents must not trap the decoders") {
            [progress = progress as String] in
            JSONFuzzer.runTruncations(progressPath: progress)
        }
        recordUnfinished(finished, "FuzzResponse truncations", progressPath: progress)
        withExtendedLifetime(scratch) {}
    }

    @Test func wrongTypesForEveryFieldAreDecodingErrors() async {
        let scratch = TemporaryDirectory()
        let progress = scratch.file("progress.log")
        let finished = await #expect(processExitsWith: .success, "wrong-typed fields must not trap the decoders") {
            [progress = progress as String] in
            JSONFuzzer.runWrongTypes(progressPath: progress)
        }
        recordUnfinished(finished, "FuzzResponse wrong types", progressPath: progress)
        withExtendedLifetime(scratch) {}
    }

    @Test func hostileDocumentsAreRejectedOrReadWhole() async {
        let scratch = TemporaryDirectory()
        let progress = scratch.file("progress.log")
        let finished = await #expect(processExitsWith: .success, "hostile documents must not trap the parser") {
            [progress = progress as String] in
            JSONFuzzer.runHostileDocuments(progressPath: progress)
        }
        recordUnfinished(finished, "FuzzResponse hostile documents", progressPath: progress)
        withExtendedLifetime(scratch) {}
    }
}
