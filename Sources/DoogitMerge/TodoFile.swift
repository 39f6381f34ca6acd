import DoogitSupport

/// The file `todos.jsonl` on GitHub, and doogit's export: one JSON object per line. A header
/// line names the format and its version; then one line per repository, by GitHub id; then one
/// line per todo, by UUID. Keys come in a fixed order and stamps sit together in each line's
/// `clock` at its end, so one replica always gives the same bytes (an unchanged merge writes
/// nothing) and a diff of the file shows the fields that changed:
///
///     {"format":"doogit","version":"2.0"}
///     {"type":"repository","id":1296269,"fullName":"octocat/Hello-World","url":"https://github.com/octocat/Hello-World","tracked":true,"clock":{"name":"…","tracked":"…"}}
///     {"type":"todo","uuid":"…","repository":1296269,"text":"write the release notes","done":false,"doneAt":null,"createdAt":"2026-11-29T21:23:15.123Z","clock":{"repository":"…","text":"…","done":"…"}}
///
/// A linked todo adds `"issue":{"number","url","repository"}` (`null` once unlinked) and the issue
/// as last seen, `"issueSeen":{"number","state","title","url","updatedAt","seenAt","labels"}`; a todo finished by
/// commit trailers adds `"commits":[sha…]`; a configured repository adds
/// `"settings":{"pushIssues","importIssues","scanCommits"}`. Each register's stamp is in `clock`
/// (`commits` only grows, and needs none); a todo never linked and a repository never configured
/// have none of these keys.
///
/// Version 2 keeps what a machine saw on GitHub apart from what the user did; a file of version 1
/// is read (its issue's state as seen under the link) and written back as version 3, which a
/// doogit of version 1 refuses to write. Version 3 has the same lines, and splits the remote on
/// GitHub into files (`RemoteLayout`), which a doogit of version 2 must not write to. Unknown keys, stamps and kinds of line (a newer minor
/// version's) are kept and written back; a file of a newer major version is refused. Local IDs
/// never appear in the file on GitHub; an export adds them (`localID`), and what this machine
/// knows of each repository from GitHub.
public enum TodoFile {
    public static let formatName = "doogit"
    /// 4: tags are a set that merges tag by tag; a doogit of 3 merges them as one value, which
    /// would undo that, so it refuses to write files of 4.
    public static let majorVersion = 4
    /// 4.1: who added, finished and is assigned a todo (`author`, `finishedBy`, `assignee`),
    /// which a doogit of 4.0 keeps as fields it does not know.
    /// 4.2: whether a todo is kept private (`private`), never shared with its repository's team.
    public static let minorVersion = 2
    public static let fileName = "todos.jsonl"

    // MARK: Writing

    public static func encode(_ replica: Replica, annotations: ReplicaAnnotations? = nil) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(64 + replica.repositories.count * 200 + replica.todos.count * 320)
        var header = JSONStream(indented: false)
        header.beginObject()
        header.key("format"); header.string(formatName)
        header.key("version"); header.string("\(majorVersion).\(max(minorVersion, replica.formatMinor))")
        writeUnknown(replica.headerUnknown, into: &header)
        header.endObject()
        out += header.bytes
        out.append(0x0A)
        for id in replica.repositories.keys.sorted() {
            guard let entry = replica.repositories[id] else { continue }
            out += repositoryLine(entry, details: annotations?.repositories[id])
            out.append(0x0A)
        }
        for uuid in replica.todos.keys.sorted() {
            guard let entry = replica.todos[uuid] else { continue }
            out += todoLine(entry, localID: annotations?.localIDs[uuid])
            out.append(0x0A)
        }
        for line in replica.unknownLines.sorted() {
            out += Array(line.utf8)
            out.append(0x0A)
        }
        return out
    }

    static func repositoryLine(_ entry: RepositoryEntry, details: RepositoryDetails?) -> [UInt8] {
        var json = JSONStream(indented: false)
        json.beginObject()
        json.key("type"); json.string("repository")
        json.key("id"); json.int(entry.id)
        json.key("fullName"); json.string(entry.name.value.fullName)
        json.key("url"); json.string(entry.name.value.url)
        json.key("tracked"); json.bool(entry.tracked.value)
        let everSet = entry.settings.stamp != .zero
        if everSet {
            let settings = entry.settings.value
            json.key("settings")
            json.beginObject()
            json.key("pushIssues"); json.bool(settings.pushIssues)
            json.key("importIssues"); json.string(settings.importIssues)
            json.key("scanCommits"); json.bool(settings.scanCommits)
            json.endObject()
        }
        if let details {
            json.key("description"); json.string(details.description)
            json.key("private"); json.bool(details.isPrivate)
            json.key("archived"); json.bool(details.archived)
            json.key("gone"); json.bool(details.gone)
        }
        writeUnknown(entry.unknown, into: &json)
        json.key("clock")
        json.beginObject()
        json.key("name"); json.string(entry.name.stamp.text)
        json.key("tracked"); json.string(entry.tracked.stamp.text)
        if everSet { json.key("settings"); json.string(entry.settings.stamp.text) }
        writeUnknownStamps(entry.unknown, into: &json)
        json.endObject()
        json.endObject()
        return json.bytes
    }

    static func todoLine(_ entry: TodoEntry, localID: Int64?) -> [UInt8] {
        var json = JSONStream(indented: false)
        json.beginObject()
        json.key("type"); json.string("todo")
        json.key("uuid"); json.string(entry.uuid)
        json.key("repository"); json.int(entry.repository.value)
        json.key("text"); json.string(entry.text.value)
        json.key("done"); json.bool(entry.done.value.done)
        json.key("doneAt"); json.string(entry.done.value.doneAt?.rfc3339)
        json.key("createdAt"); json.string(entry.createdAt.rfc3339)
        let everRemoved = entry.removed.stamp != .zero
        if everRemoved { json.key("removed"); json.bool(entry.removed.value) }
        let everLinked = entry.issue.stamp != .zero
        if everLinked {
            json.key("issue")
            if let issue = entry.issue.value {
                json.beginObject()
                json.key("number"); json.int(issue.number)
                json.key("url"); json.string(issue.url)
                json.key("repository"); json.int(issue.repository)
                json.endObject()
            } else {
                json.null()
            }
        }
        let everSeen = entry.seen.stamp != .zero
        if everSeen {
            json.key("issueSeen")
            if let seen = entry.seen.value {
                json.beginObject()
                json.key("number"); json.int(seen.number)
                json.key("state"); json.string(seen.state)
                json.key("title"); json.string(seen.title)
                json.key("url"); json.string(seen.url)
                json.key("updatedAt"); json.string(seen.updatedAt?.rfc3339)
                json.key("seenAt"); json.string(seen.seenAt?.text)
                // Format 3.1: the labels seen (no key: not known).
                if let labels = seen.labels {
                    json.key("labels")
                    json.beginArray()
                    for label in labels { json.string(label) }
                    json.endArray()
                }
                json.endObject()
            } else {
                json.null()
            }
        }
        if !entry.commits.isEmpty {
            json.key("commits")
            json.beginArray()
            for sha in entry.commits.sorted() { json.string(sha) }
            json.endArray()
        }
        writeDetails(entry.details, into: &json)
        if let localID { json.key("localID"); json.int(localID) }
        writeUnknown(entry.unknown, into: &json)
        json.key("clock")
        json.beginObject()
        json.key("repository"); json.string(entry.repository.stamp.text)
        json.key("text"); json.string(entry.text.stamp.text)
        json.key("done"); json.string(entry.done.stamp.text)
        if everRemoved { json.key("removed"); json.string(entry.removed.stamp.text) }
        if everLinked { json.key("issue"); json.string(entry.issue.stamp.text) }
        if everSeen { json.key("issueSeen"); json.string(entry.seen.stamp.text) }
        writeDetailStamps(entry.details, into: &json)
        writeUnknownStamps(entry.unknown, into: &json)
        json.endObject()
        json.endObject()
        return json.bytes
    }

    private static func writeUnknown(_ unknown: UnknownFields, into json: inout JSONStream) {
        for name in unknown.names {
            guard let value = unknown[name]?.value else { continue }
            json.key(named: name)
            json.value(value)
        }
    }

    private static func writeUnknownStamps(_ unknown: UnknownFields, into json: inout JSONStream) {
        for name in unknown.names {
            guard let stamp = unknown[name]?.stamp else { continue }
            json.key(named: name)
            json.string(stamp.text)
        }
    }

    /// Whether the bytes start like a doogit file (for telling formats apart on import).
    public static func looksLikeDoogit(_ bytes: [UInt8]) -> Bool {
        let prefix = bytes.prefix(while: { $0 != 0x0A })
        guard let json = try? JSONParser.parse(Array(prefix)) else { return false }
        return json["format"] == .string(formatName)
    }
}

/// Why a todo file could not be read.
public enum TodoFileError: Error, Equatable, Sendable {
    /// The first line that is not what the format allows (1-based), and why.
    case badLine(line: Int, reason: String)
    /// The file is of a newer major version than this doogit writes: it is left as it is.
    case newerVersion(String)
}

extension TodoFile {
    static func describe(_ error: JSONError) -> String {
        switch error {
        case .syntax(let offset, let reason): return "invalid JSON at byte \(offset): \(reason)"
        case .tooDeep: return "JSON nested too deeply"
        case .missing(let field): return "\"\(field)\" is missing"
        case .wrongType(let field, let expected): return "\"\(field)\" is not \(expected)"
        }
    }
}
