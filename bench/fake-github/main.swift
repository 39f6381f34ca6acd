// A GitHub API on 127.0.0.1 for benchmarks: the same fake the tests use (Tests/TestSupport),
// as a process. Prints its base URL, then serves until stdin closes.
//
//   fake-github --own N --others M [--owners K] [--private-others] [--issues K] [--delay MS] [--data NAME] [--commits K]
//
// The others' repositories belong to K owners (10 by default), `other0/lib-0000`...; with
// --private-others they are private (no owner's listing shows them: they are read by id).
// --issues K opens K issues in each repository. --data NAME adds the signed-in user's private
// repository NAME, for `remote init` (its files in git objects). --commits K gives the first K own
// repositories a first commit in git objects, for `repo share`. GitHub's secondary rate limits
// are on (on the real clock). Extra endpoints:
// GET /_stats -> {"requests", "rateLimitUsed", "bytesSent" (request bodies), "bytesAnswered" (answer
// bodies), and of them those of the --data repository: "remoteRequests", "remoteBytesSent",
// "remoteBytesAnswered"; and the Git Data requests to other repositories, "gitRequests" and
// "gitWrites" (not GETs)};
// GET /_remoteSize -> {"bytes", "files"} of the --data repository's branch;
// GET /_delay?ms=N sets the delay added to every answer; GET /_touch?count=N changes the
// description of the first N repositories; GET /_limits?on=0 (or 1) switches the secondary rate
// limits off (or on), and /_stats reports "secondaryRefusals" and "requestsWhileLimited" too;
// GET /_publicURL?url=U names U (a proxy in front) in links, redirects and urls.
import DoogitSupport
import Foundation
import TestSupport

var own = 0
var others = 0
var delay = 0
var issues = 0
var data: String?
var owners = 10
var privateOthers = false
var commits = 0
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let argument = arguments.next() {
    switch argument {
    case "--own": own = Int(arguments.next() ?? "") ?? 0
    case "--others": others = Int(arguments.next() ?? "") ?? 0
    case "--delay": delay = Int(arguments.next() ?? "") ?? 0
    case "--issues": issues = Int(arguments.next() ?? "") ?? 0
    case "--data": data = arguments.next()
    case "--owners": owners = max(1, Int(arguments.next() ?? "") ?? 10)
    case "--private-others": privateOthers = true
    case "--commits": commits = Int(arguments.next() ?? "") ?? 0
    default:
        FileHandle.standardError.write(Data(("usage: fake-github --own N --others M [--owners K] [--private-others] [--issues K] "
            + "[--delay MS] [--data NAME]\n").utf8))
        exit(2)
    }
}

let github = try FakeGitHub()
for index in 0..<own {
    github.addRepository(id: Int64(1_000_000 + index), name: String(format: "own-%04d", index), description: "own \(index)")
}
for index in 0..<others {
    github.addRepository(id: Int64(2_000_000 + index), owner: "other\(index % owners)", name: String(format: "lib-%04d", index),
                         description: "lib \(index)", isPrivate: privateOthers)
}
for index in 0..<min(commits, own) {
    github.contents.commitFiles("\(github.login)/" + String(format: "own-%04d", index), ["README.md": "# own \(index)\n"])
}
if let data { github.addRepository(id: 3_000_000, name: data, description: "doogit's todos", isPrivate: true) }
github.setDelay(milliseconds: delay)
let ids = (0..<own).map { Int64(1_000_000 + $0) } + (0..<others).map { Int64(2_000_000 + $0) }
for id in ids {
    for index in 0..<issues { github.activity.addIssue(repository: id, title: "Issue \(index + 1) of \(id)", author: github.login) }
}
let remoteName = data.map { "\(github.login)/\($0)" }
let remotePrefix = remoteName.map { "/repos/\($0)/" }
github.script { request in
    switch request.path {
    case "/_stats":
        // doogit's requests: not the bench's own (`/_stats` before a command, for its connections).
        let requests = github.requests.filter { !$0.path.hasPrefix("/_") }
        let remote = { (request: ReceivedRequest) in remotePrefix.map { request.path.hasPrefix($0) } ?? false }
        let stats = JSONValue.object([JSONMember("requests", .int(requests.count)),
                                      JSONMember("rateLimitUsed", .int(github.rateLimitUsed)),
                                      JSONMember("connections", .int(github.connectionsOpened)),
                                      JSONMember("bytesSent", .int(requests.reduce(0) { $0 + $1.body.count })),
                                      JSONMember("remoteRequests", .int(requests.filter(remote).count)),
                                      JSONMember("remoteBytesSent", .int(requests.filter(remote).reduce(0) { $0 + $1.body.count })),
                                      JSONMember("remoteBytesAnswered", .int(github.bytesSent(where: remote))),
                                      JSONMember("bytesAnswered", .int(github.bytesSent)),
                                      JSONMember("gitRequests", .int(requests.filter { !remote($0) && $0.path.contains("/git/") }.count)),
                                      JSONMember("gitWrites", .int(requests.filter { !remote($0) && $0.path.contains("/git/") && $0.method != "GET" }.count)),
                                      JSONMember("secondaryRefusals", .int(github.secondaryLimits.refusals)),
                                      JSONMember("requestsWhileLimited", .int(github.secondaryLimits.requestsWhileLimited))])
        return .json(200, JSONWriter.write(stats))
    case "/_remoteSize":
        let files = remoteName.map { github.contents.files($0) } ?? [:]
        let size = files.values.reduce(0) { $0 + $1.utf8.count }
        return .json(200, JSONWriter.write(.object([JSONMember("bytes", .int(size)), JSONMember("files", .int(files.count))])))
    case "/_reset":
        github.resetCounters()
        return .json(200, "{}")
    case "/_limits":
        github.secondaryLimits.enabled = request.query["on"] != "0"
        return .json(200, "{}")
    case "/_publicURL":
        github.publicURL = request.query["url"]
        return .json(200, "{}")
    case "/_delay":
        github.setDelay(milliseconds: Int(request.query["ms"] ?? "0") ?? 0)
        return .json(200, "{}")
    case "/_touch":
        let count = Int(request.query["count"] ?? "0") ?? 0
        for id in ids.prefix(count) { github.update(id) { $0.description = ($0.description ?? "") + "!" } }
        return .json(200, "{}")
    default:
        return nil
    }
}
FileHandle.standardOutput.write(Data((github.apiURL + "\n").utf8))
while readLine() != nil {}
github.stop()
