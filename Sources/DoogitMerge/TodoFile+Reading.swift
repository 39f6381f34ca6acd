import DoogitSupport

extension TodoFile {
    /// A file as read: the replica, what an export adds, the major version it was written in,
    /// and how many of its values had no stamp of their own (written by hand).
    public struct Contents: Equatable, Sendable {
        public var replica: Replica
        public var annotations: ReplicaAnnotations
        public var majorVersion: Int
        /// Values read without a (valid) stamp, given `handEdit`'s; the file needs writing back.
        public var handEdits: Int
    }

    /// Reads a file written by `encode` (or by a doogit of version 1, or of a newer minor version).
    /// With `handEdit`, a value without its stamp (the file was edited by hand, say in GitHub's web
    /// editor) is read as written at that stamp, and `done` and `doneAt` that disagree are read by
    /// `done`; without it, either is a bad line. A `piece` of the remote (one repository's todos)
    /// holds todos whose repositories have their lines elsewhere.
    public static func decode(_ bytes: [UInt8], handEdit: HybridTimestamp? = nil, piece: Bool = false)
        throws(TodoFileError) -> Contents {
        var reader = LineReader(handEdit: handEdit)
        var replica = Replica()
        var annotations = ReplicaAnnotations()
        var todoLines: [String: Int] = [:]
        // Made to size at once (a line a todo at most): a file of thousands is not copied at every growth.
        let lines = bytes.reduce(into: 1) { count, byte in if byte == 0x0A { count += 1 } }
        replica.todos.reserveCapacity(lines)
        todoLines.reserveCapacity(lines)
        var major: Int?
        var lineNumber = 0
        var start = 0
        while start < bytes.count {
            var end = start
            while end < bytes.count && bytes[end] != 0x0A { end += 1 }
            lineNumber += 1
            var lineEnd = end
            if lineEnd > start && bytes[lineEnd - 1] == 0x0D { lineEnd -= 1 }
            let line = Array(bytes[start..<lineEnd])
            start = end + 1
            if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue }
            let json: JSONValue
            do { json = try JSONParser.parse(line) } catch {
                throw .badLine(line: lineNumber, reason: "not a JSON object")
            }
            guard case .object(let members) = json else { throw .badLine(line: lineNumber, reason: "not a JSON object") }
            if major == nil {
                major = try readHeader(members, into: &replica, line: lineNumber)
                reader.legacy = major == 1
                continue
            }
            do {
                switch json["type"] {
                case .string("repository")?:
                    let (entry, details) = try reader.repository(members)
                    guard replica.repositories[entry.id] == nil else { throw LineProblem("repository \(entry.id) appears twice") }
                    replica.repositories[entry.id] = entry
                    if let details { annotations.repositories[entry.id] = details }
                case .string("todo")?:
                    let (entry, localID) = try reader.todo(members)
                    guard replica.todos[entry.uuid] == nil else { throw LineProblem("todo \(entry.uuid) appears twice") }
                    replica.todos[entry.uuid] = entry
                    todoLines[entry.uuid] = lineNumber
                    if let localID { annotations.localIDs[entry.uuid] = localID }
                case .string?:
                    // A kind of line from a newer minor version: kept as it is.
                    var stream = JSONStream(indented: false)
                    stream.value(json)
                    replica.unknownLines.insert(String(decoding: stream.bytes, as: UTF8.self))
                default:
                    throw LineProblem("no \"type\"")
                }
            } catch let problem as LineProblem {
                throw .badLine(line: lineNumber, reason: problem.reason)
            } catch let error as JSONError {
                throw .badLine(line: lineNumber, reason: TodoFile.describe(error))
            } catch {
                throw .badLine(line: lineNumber, reason: "\(error)")
            }
        }
        guard let major else { throw .badLine(line: 1, reason: "empty file: no header") }
        for (uuid, entry) in replica.todos where !piece && replica.repositories[entry.repository.value] == nil {
            throw .badLine(line: todoLines[uuid] ?? 0, reason: "repository \(entry.repository.value) has no line of its own")
        }
        return Contents(replica: replica, annotations: annotations, majorVersion: major, handEdits: reader.handEdits)
    }

    struct LineProblem: Error {
        var reason: String
        init(_ reason: String) { self.reason = reason }
    }

    /// The header's major version (1 or this doogit's); its minor and unknown keys go into `replica`.
    static func readHeader(_ members: [JSONMember], into replica: inout Replica, line: Int) throws(TodoFileError) -> Int {
        let header = JSONValue.object(members)
        guard header["format"] == .string(formatName), case .string(let version)? = header["version"] else {
            throw .badLine(line: line, reason: "not a doogit file: the first line must be {\"format\":\"doogit\",\"version\":\"\(majorVersion).\(minorVersion)\"}")
        }
        let parts = version.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, let major = Int(parts[0]), let minor = Int(parts[1]), major >= 1, minor >= 0 else {
            throw .badLine(line: line, reason: "version \"\(version)\" is not MAJOR.MINOR")
        }
        guard major <= majorVersion else { throw .newerVersion(version) }
        // An older version's minor says nothing of this one: it is written back as this version's .0.
        replica.formatMinor = major == majorVersion ? minor : 0
        for member in members where member.key != "format" && member.key != "version" {
            replica.headerUnknown[member.key] = UnknownFields.Field(value: member.value, stamp: nil)
        }
        return major
    }
}

/// Reads the lines of one file: version 2's, or version 1's (whose `issue` held the issue's state,
/// read now as seen under the link), stamping values written by hand with `handEdit`.
private struct LineReader {
    let handEdit: HybridTimestamp?
    var legacy = false
    var handEdits = 0

    typealias LineProblem = TodoFile.LineProblem

    mutating func repository(_ members: [JSONMember]) throws -> (RepositoryEntry, RepositoryDetails?) {
        let json = JSONValue.object(members)
        let id = try json.int64("id")
        guard id > 0 else { throw LineProblem("repository id \(id) is not positive") }
        let fullName = try json.string("fullName")
        // It goes into API paths: a name GitHub would not give (`../user`, `a/b?x=`) is refused here.
        guard GitHubNames.isValidFullName(fullName) else { throw LineProblem("\"\(fullName)\" is not OWNER/NAME of GitHub's names") }
        let clock = try clockObject(json)
        var settings = Register(SharedSettings.defaults, at: .zero)
        if json["settings"] != nil { settings = Register(try readSettings(try json.field("settings")), at: try stamp(clock, "settings")) }
        let entry = RepositoryEntry(
            id: id,
            name: Register(RepositoryName(fullName: fullName, url: try json.string("url")), at: try stamp(clock, "name")),
            tracked: Register(try json.bool("tracked"), at: try stamp(clock, "tracked")), settings: settings,
            unknown: try unknownFields(members, known: Self.repositoryKeys, clock: clock, knownStamps: Self.repositoryStamps))
        var details: RepositoryDetails?
        if json["archived"] != nil {
            details = RepositoryDetails(description: try json.optionalString("description"),
                                        isPrivate: try json.optionalBool("private") ?? false,
                                        archived: try json.bool("archived"), gone: try json.optionalBool("gone") ?? false)
        }
        return (entry, details)
    }

    mutating func todo(_ members: [JSONMember]) throws -> (TodoEntry, Int64?) {
        let json = JSONValue.object(members)
        let uuid = try json.string("uuid")
        guard UUIDv4.isValid(uuid) else { throw LineProblem("\"\(uuid)\" is not a lowercase UUID") }
        let repository = try json.int64("repository")
        let text = try json.string("text")
        guard !text.allSatisfy(\.isWhitespace) else { throw LineProblem("the text is empty") }
        let done = try json.bool("done")
        var doneAt = try json.optionalString("doneAt").map { text throws -> Timestamp in
            guard let time = Timestamp(rfc3339: text) else { throw LineProblem("doneAt \"\(text)\" is not an RFC 3339 time") }
            return time
        }
        if done != (doneAt != nil) {
            // Flipped by hand without its time: `done` says which.
            guard let handEdit else { throw LineProblem("\"done\" and \"doneAt\" disagree") }
            doneAt = done ? handEdit.timestamp : nil
        }
        let createdText = try json.string("createdAt")
        guard let createdAt = Timestamp(rfc3339: createdText) else {
            throw LineProblem("createdAt \"\(createdText)\" is not an RFC 3339 time")
        }
        let clock = try clockObject(json)
        var removed = Register(false, at: .zero)
        if let flag = try json.optionalBool("removed") { removed = Register(flag, at: try stamp(clock, "removed")) }
        var issue = Register<LinkedIssue?>(nil, at: .zero)
        var seen = Register<IssueObservation?>(nil, at: .zero)
        if let value = json["issue"] {
            let linkStamp = try stamp(clock, "issue")
            let (link, state) = try readLink(value)
            issue = Register(link, at: linkStamp)
            // Version 1 kept the state seen in the link: it is the observation under that link.
            if legacy, let link, let state {
                seen = Register(IssueObservation(number: link.number, state: state, title: nil, url: link.url, updatedAt: nil),
                                at: linkStamp)
            }
        }
        if !legacy, let value = json["issueSeen"] { seen = Register(try readObservation(value), at: try stamp(clock, "issueSeen")) }
        var commits: Set<String> = []
        if !legacy, json["commits"] != nil {
            for element in try json.array("commits") {
                guard case .string(let sha) = element, !sha.isEmpty, sha.utf8.count <= 64,
                      sha.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) })
                else { throw LineProblem("\"commits\" holds something that is not a commit sha") }
                commits.insert(sha)
            }
        }
        let details = legacy ? TodoDetails()
            : try TodoFile.readDetails(json, stamp: { name in try stamp(clock, name) }, tagStamp: { key in try tagStamp(clock, key) })
        var localID: Int64?
        if json["localID"] != nil { localID = try json.int64("localID") }
        let entry = TodoEntry(
            uuid: uuid, createdAt: createdAt, repository: Register(repository, at: try stamp(clock, "repository")),
            text: Register(text, at: try stamp(clock, "text")),
            done: Register(DoneState(doneAt: doneAt), at: try stamp(clock, "done")), removed: removed, issue: issue,
            seen: seen, commits: commits, details: details,
            unknown: try unknownFields(members, known: legacy ? Self.legacyTodoKeys : Self.todoKeys, clock: clock,
                                       knownStamps: legacy ? Self.legacyTodoStamps : Self.todoStamps))
        return (entry, localID)
    }

    static let repositoryKeys: Set<String> = ["type", "id", "fullName", "url", "tracked", "settings", "clock",
                                              "description", "private", "archived", "gone"]
    static let repositoryStamps: Set<String> = ["name", "tracked", "settings"]
    static let todoKeys: Set<String> = ["type", "uuid", "repository", "text", "done", "doneAt", "createdAt",
                                        "removed", "issue", "issueSeen", "commits", "localID", "clock",
                                        "due", "priority", "tags", "note"]
    static let todoStamps: Set<String> = ["repository", "text", "done", "removed", "issue", "issueSeen",
                                          "due", "priority", "tags", "note"]
    static let legacyTodoKeys: Set<String> = ["type", "uuid", "repository", "text", "done", "doneAt", "createdAt",
                                              "removed", "issue", "localID", "clock"]
    static let legacyTodoStamps: Set<String> = ["repository", "text", "done", "removed", "issue"]

    /// `"issue": null` (unlinked) or `{"number", "url", "repository"}` (version 1 adds `"state"`).
    private func readLink(_ value: JSONValue) throws -> (LinkedIssue?, String?) {
        if value == .null { return (nil, nil) }
        guard case .object = value else { throw LineProblem("\"issue\" is not an object or null") }
        let number = try value.int64("number"), repository = try value.int64("repository")
        guard number > 0, repository > 0 else { throw LineProblem("issue \(number) of repository \(repository) is not positive") }
        var state: String?
        if legacy {
            let seen = try value.string("state")
            guard IssueObservation.states.contains(seen) else { throw LineProblem("issue state \"\(seen)\" is not open or closed") }
            state = seen
        }
        return (LinkedIssue(number: number, repository: repository, url: try value.string("url")), state)
    }

    /// `"issueSeen": null` or `{"number", "state", "title", "url", "updatedAt", "seenAt"}`.
    private func readObservation(_ value: JSONValue) throws -> IssueObservation? {
        if value == .null { return nil }
        guard case .object = value else { throw LineProblem("\"issueSeen\" is not an object or null") }
        let number = try value.int64("number")
        guard number > 0 else { throw LineProblem("issue \(number) is not positive") }
        let state = try value.string("state")
        guard IssueObservation.states.contains(state) else { throw LineProblem("issue state \"\(state)\" is not open or closed") }
        var updatedAt: Timestamp?
        if let text = try value.optionalString("updatedAt") {
            guard let time = Timestamp(rfc3339: text) else { throw LineProblem("updatedAt \"\(text)\" is not an RFC 3339 time") }
            updatedAt = time
        }
        var seenAt: HybridTimestamp?
        if let text = try value.optionalString("seenAt") {
            guard let stamp = HybridTimestamp(text: text) else { throw LineProblem("seenAt \"\(text)\" is not a stamp") }
            seenAt = stamp
        }
        return IssueObservation(number: number, state: state, title: try value.optionalString("title"),
                                url: try value.string("url"), updatedAt: updatedAt, seenAt: seenAt,
                                labels: try TodoFile.readLabels(value["labels"]))
    }

    /// `{"pushIssues", "importIssues", "scanCommits"}`.
    private func readSettings(_ value: JSONValue) throws -> SharedSettings {
        guard case .object = value else { throw LineProblem("\"settings\" is not an object") }
        let importIssues = try value.string("importIssues")
        guard SharedSettings.importModes.contains(importIssues) else {
            throw LineProblem("importIssues \"\(importIssues)\" is not off, assigned or all")
        }
        return SharedSettings(pushIssues: try value.bool("pushIssues"), importIssues: importIssues,
                              scanCommits: try value.bool("scanCommits"))
    }

    /// The line's `clock`; a line written by hand may have none.
    private func clockObject(_ json: JSONValue) throws -> JSONValue {
        if json["clock"] == nil, handEdit != nil { return .object([]) }
        let clock = try json.field("clock")
        guard case .object = clock else { throw LineProblem("\"clock\" is not an object") }
        return clock
    }

    /// A field's stamp; a missing or mangled one is the hand edit's, when hand edits are read.
    private mutating func stamp(_ clock: JSONValue, _ name: String) throws -> HybridTimestamp {
        if case .string(let text)? = clock[name], let stamp = HybridTimestamp(text: text) { return stamp }
        if let handEdit {
            handEdits += 1
            return handEdit
        }
        guard case .string(let text)? = clock[name] else { throw LineProblem("clock \"\(name)\" is missing") }
        throw LineProblem("clock \"\(name)\" is not a stamp: \"\(text)\"")
    }

    /// A tag's stamp in `clock.tags` (by its folded name), as `stamp` reads a field's; nil when
    /// `clock.tags` is one stamp (format 3).
    private mutating func tagStamp(_ clock: JSONValue, _ key: String) throws -> HybridTimestamp? {
        guard case .object = clock["tags"] ?? .object([]) else { return nil }
        if case .string(let text)? = clock["tags"]?[key], let stamp = HybridTimestamp(text: text) { return stamp }
        if let handEdit {
            handEdits += 1
            return handEdit
        }
        throw LineProblem("clock \"tags\" has no valid stamp for \"\(key)\"")
    }

    private mutating func unknownFields(_ members: [JSONMember], known: Set<String>, clock: JSONValue,
                                        knownStamps: Set<String>) throws -> UnknownFields {
        var unknown = UnknownFields()
        guard case .object(let stamps) = clock else { throw LineProblem("\"clock\" is not an object") }
        var stamped: [String: HybridTimestamp] = [:]
        for member in stamps where !knownStamps.contains(member.key) {
            stamped[member.key] = try stamp(clock, member.key)
        }
        for member in members where !known.contains(member.key) {
            unknown[member.key] = UnknownFields.Field(value: member.value, stamp: stamped.removeValue(forKey: member.key))
        }
        for (name, stamp) in stamped { unknown[name] = UnknownFields.Field(value: nil, stamp: stamp) }
        return unknown
    }
}
