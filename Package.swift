// swift-tools-version:6.2
// 6.2: the tests use Swift Testing's exit tests (#expect(processExitsWith:)), new in Swift 6.2.
import PackageDescription

// Dependencies point one way:
// doogit -> DoogitCLI -> DoogitSync -> {DoogitStore -> {CSQLite, DoogitMerge}, DoogitGitHub -> CCurl},
// and every module may use DoogitSupport (JSON, time, terminal text), which depends on nothing.
// DoogitCLI -> DoogitTerminal (raw mode, keys and mouse from bytes, a one-line editor, redrawing
// only the rows that changed), for the full-screen view; it knows nothing of todos.
// DoogitTerminal -> CTerminalRestore (the terminal given back from a signal handler).
// DoogitMerge (the merge of copies of the todo list, and its file) is pure: no I/O at all.
let package = Package(
    name: "doogit",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "doogit", targets: ["doogit"]),
    ],
    targets: [
        .systemLibrary(
            name: "CSQLite",
            path: "Sources/CSQLite",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
        ),
        // libcurl is opened with dlopen on first network use, so local commands never load it.
        .target(
            name: "CCurl",
            path: "Sources/CCurl",
            linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux]))]
        ),
        // The terminal given back from a signal handler (a stop from outside, SIGQUIT, a crash):
        // C, since a handler may only call async-signal-safe functions on memory prepared before.
        .target(name: "CTerminalRestore", path: "Sources/CTerminalRestore"),
        .target(name: "DoogitSupport"),
        .target(name: "DoogitMerge", dependencies: ["DoogitSupport"]),
        .target(name: "DoogitTerminal", dependencies: ["CTerminalRestore", "DoogitSupport"]),
        .target(
            name: "DoogitStore",
            dependencies: ["CSQLite", "DoogitMerge", "DoogitSupport"],
            resources: [.embedInCode("migrations")]
        ),
        .target(name: "DoogitGitHub", dependencies: ["CCurl", "DoogitSupport"]),
        .target(name: "DoogitSync", dependencies: ["DoogitStore", "DoogitGitHub", "DoogitMerge", "DoogitSupport"]),
        .target(name: "DoogitCLI", dependencies: ["DoogitSync", "DoogitStore", "DoogitGitHub", "DoogitMerge", "DoogitTerminal", "DoogitSupport"]),
        .executableTarget(name: "doogit", dependencies: ["DoogitCLI"]),

        // Shared by the test targets: a GitHub API server on 127.0.0.1 and temp-directory helpers.
        .target(name: "TestSupport", dependencies: ["DoogitSupport"], path: "Tests/TestSupport"),
        // The same fake GitHub as a process, for bench/.
        .executableTarget(name: "fake-github", dependencies: ["TestSupport", "DoogitSupport"], path: "bench/fake-github"),
        .testTarget(name: "DoogitSupportTests", dependencies: ["DoogitSupport", "TestSupport"]),
        .testTarget(name: "DoogitTerminalTests", dependencies: ["DoogitTerminal", "DoogitSupport"]),
        .testTarget(name: "DoogitMergeTests", dependencies: ["DoogitMerge", "DoogitSupport", "TestSupport"]),
        .testTarget(name: "DoogitStoreTests", dependencies: ["DoogitStore", "DoogitMerge", "TestSupport"]),
        .testTarget(name: "DoogitGitHubTests", dependencies: ["DoogitGitHub", "DoogitSupport", "TestSupport"]),
        .testTarget(name: "DoogitSyncTests", dependencies: ["DoogitSync", "DoogitStore", "DoogitGitHub", "DoogitMerge", "DoogitSupport", "TestSupport"]),
        .testTarget(name: "DoogitCLITests", dependencies: ["DoogitCLI", "DoogitTerminal", "TestSupport"]),
        .testTarget(name: "EndToEndTests", dependencies: ["doogit", "TestSupport", "DoogitSupport", "DoogitStore", "DoogitMerge", "DoogitGitHub"]),
    ],
    swiftLanguageModes: [.v6]
)
