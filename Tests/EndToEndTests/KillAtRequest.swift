import Foundation
import TestSupport

/// Runs doogit with `arguments` on a machine and kills it with -9 while its `target`-th request
/// to GitHub is on the wire; returns whether it was killed (it may end before making that many).
/// Waits on events: the request's arrival, or the command's end.
func killAtRequest(_ target: Int, running arguments: [String], on machine: Sandbox, github: FakeGitHub) throws -> Bool {
    let seen = Counter(), arrived = Event(), release = Event()
    github.script { _ in
        if seen.next() == target {
            arrived.signal()
            _ = release.wait(seconds: 60)
        }
        return nil
    }
    defer {
        release.signal()
        github.script(nil)
    }
    let process = try ChildProcess.spawn(DoogitBinary.path, arguments, environment: machine.environment)
    let ended = Event()
    Thread {
        _ = process.finish()
        ended.signal()
        arrived.signal()
    }.start()
    _ = arrived.wait(seconds: 60)
    var killed = false
    if !ended.wait(seconds: 0) {
        process.kill()
        killed = true
    }
    release.signal()
    _ = ended.wait(seconds: 60)
    return killed
}
