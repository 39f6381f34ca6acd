import DoogitSupport

/// The file `todos.jsonl` on GitHub, and doogit's export: one JSON object per line. A header
/// line names the format and its version; then one line per repository, by GitHub id; then one
/// line per todo, by UUID. Keys come in a fixed order and stamps sit together in each line's
/// `clock` at its end, so one replica always gives the same bytes (an unchanged merge writes
/// nothing) and a diff of the file shows the fields that changed:
///
///     {"format":"doogit","version":"1.0"}
///     {"type":"repository","id":1296269,"fullName":"octocat/Hello-World","url":"https://github.com/octocat/Hello-World","tracked":true,"clock":{"name":"…","tracked":"…"}}
///     {"type":"todo","uuid":"…","repository":1296269,"text":"write the release notes","done":false,"doneAt":null,"createdAt":"2026-11-29T21:23:15.123Z","clock":{"repository":"…","text":"…","done":"…"}}
///
/// A linked todo adds `"issue":{"number","state","url","repository"}` (`null` once unlinked) and a
/// configured repository `"settings":{"pushIssues","importIssues","scanCommits"}`, each with its
/// stamp in `clock`; a todo never linked and a repository never configured have neither.
///
/// Unknown keys, stamps and kinds of line (a newer minor version's) are kept and written back; a
/// file of a newer major version is refused. Local IDs never appear in the file on GitHub; an
/// export adds them (`localID`), and what this machine knows of each repository from GitHub.
public enum TodoFile {
    public static let formatName = "doogit"
    public static let majorVersion = 1
    public static let minorVersion = 0
    public static let fileName = "todos.jsonl"

    /// What an export adds to the lines, and import reads back.
    public struct Annotations: Equatable, Sendable {
        /// Local IDs by UUID.
        public var localIDs: [String: Int64]
        public var repositories: [Int64: RepositoryDetails]

        public init(localIDs: [String: Int64] = [:], repositories: [Int64: RepositoryDetails] = [:]) {
            self.localIDs = localIDs
            self.repositories = repositories
        }
    }

    /// A repository as this machine last saw it on GitHub.
    public struct RepositoryDetails: Equatable, Sendable {
        public var description: String?
        public var isPrivate: Bool
        public var archived: Bool
        public var gone: Bool

        public init(description: String?, isPrivate: Bool, archived: Bool, gone: Bool) {
            self.description = description
            self.isPrivate = isPrivate
            self.archived = archived
            self.gone = gone
        }
    }

    // MARK: Writing

    public static func encode(_ replica: Replica, annotations: Annotations? = nil) -> [UInt8] {
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
                json.key("state"); json.string(issue.state)
                json.key("url"); json.string(issue.url)
                json.key("repository"); json.int(issue.repository)
                json.endObject()
            } else {
                json.null()
            }
        }
        if let localID { json.key("localID"); json.int(localID) }
        writeUnknown(entry.unknown, into: &json)
        json.key("clock")
        json.beginObject()
        json.key("repository"); json.string(entry.repository.stamp.text)
        json.key("text"); json.string(entry.text.stamp.text)
        json.key("done"); json.string(entry.done.stamp.text)
        if everRemoved { json.key("removed"); json.string(entry.removed.stamp.text) }
        if everLinked { json.key("issue"); json.string(entry.issue.stamp.text) }
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

    // MARK: Reading

    /// Reads a file written by `encode` (or by a newer doogit of the same major version).
    public static func decode(_ bytes: [UInt8]) throws(TodoFileError) -> (replica: Replica, annotations: Annotations) {
        var replica = Replica()
        var annotations = Annotations()
        var todoLines: [String: Int] = [:]
        var sawHeader = false
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
            if !sawHeader {
                try readHeader(members, into: &replica, line: lineNumber)
                sawHeader = true
                continue
            }
            do {
                switch json["type"] {
                case .string("repository")?:
                    let (entry, details) = try readRepository(members)
                    guard replica.repositories[entry.id] == nil else { throw LineProblem("repository \(entry.id) appears twice") }
                    replica.repositories[entry.id] = entry
                    if let details { annotations.repositories[entry.id] = details }
                case .string("todo")?:
                    let (entry, localID) = try readTodo(members)
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
                throw .badLine(line: lineNumber, reason: describe(error))
            } catch {
                throw .badLine(line: lineNumber, reason: "\(error)")
            }
        }
        guard sawHeader else { throw .badLine(line: 1, reason: "empty file: no header") }
        for (uuid, entry) in replica.todos where replica.repositories[entry.repository.value] == nil {
            throw .badLine(line: todoLines[uuid] ?? 0, reason: "repository \(entry.repository.value) has no line of its own")
        }
        return (replica, annotations)
    }

    /// Whether the bytes start like a doogit file (for telling formats apart on import).
    public static func looksLikeDoogit(_ bytes: [UInt8]) -> Bool {
        let prefix = bytes.prefix(while: { $0 != 0x0A })
        guard let json = try? JSONParser.parse(Array(prefix)) else { return false }
        return json["format"] == .string(formatName)
    }

    private struct LineProblem: Error {
        var reason: String
        init(_ reason: String) { self.reason = reason }
    }

    private static func readHeader(_ members: [JSONMember], into replica: inout Replica, line: Int) throws(TodoFileError) {
        let header = JSONValue.object(members)
        guard header["format"] == .string(formatName), case .string(let version)? = header["version"] else {
            throw .badLine(line: line, reason: "not a doogit file: the first line must be {\"format\":\"doogit\",\"version\":\"1.0\"}")
        }
        let parts = version.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, let major = Int(parts[0]), let minor = Int(parts[1]), major >= 1, minor >= 0 else {
            throw .badLine(line: line, reason: "version \"\(version)\" is not MAJOR.MINOR")
        }
        guard major == majorVersion else { throw .newerVersion(version) }
        replica.formatMinor = minor
        for member in members where member.key != "format" && member.key != "version" {
            replica.headerUnknown[member.key] = UnknownFields.Field(value: member.value, stamp: nil)
        }
    }

    private static func readRepository(_ members: [JSONMember]) throws -> (RepositoryEntry, RepositoryDetails?) {
        let json = JSONValue.object(members)
        let id = try json.int64("id")
        guard id > 0 else { throw LineProblem("repository id \(id) is not positive") }
        let fullName = try json.string("fullName")
        let parts = fullName.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else { throw LineProblem("\"\(fullName)\" is not OWNER/NAME") }
        let clock = try json.field("clock")
        var settings = Register(SharedSettings.defaults, at: .zero)
        if json["settings"] != nil { settings = Register(try readSettings(try json.field("settings")), at: try stamp(clock, "settings")) }
        let entry = RepositoryEntry(
            id: id,
            name: Register(RepositoryName(fullName: fullName, url: try json.string("url")), at: try stamp(clock, "name")),
            tracked: Register(try json.bool("tracked"), at: try stamp(clock, "tracked")), settings: settings,
            unknown: try unknownFields(members, known: knownRepositoryKeys, clock: clock, knownStamps: knownRepositoryStamps))
        var details: RepositoryDetails?
        if json["archived"] != nil {
            details = RepositoryDetails(description: try json.optionalString("description"),
                                        isPrivate: try json.optionalBool("private") ?? false,
                                        archived: try json.bool("archived"), gone: try json.optionalBool("gone") ?? false)
        }
        return (entry, details)
    }

    private static func readTodo(_ members: [JSONMember]) throws -> (TodoEntry, Int64?) {
        let json = JSONValue.object(members)
        let uuid = try json.string("uuid")
        guard UUIDv4.isValid(uuid) else { throw LineProblem("\"\(uuid)\" is not a lowercase UUID") }
        let repository = try json.int64("repository")
        let text = try json.string("text")
        guard !text.allSatisfy(\.isWhitespace) else { throw LineProblem("the text is empty") }
        let done = try json.bool("done")
        let doneAt = try json.optionalString("doneAt").map { text throws -> Timestamp in
            guard let time = Timestamp(rfc3339: text) else { throw LineProblem("doneAt \"\(text)\" is not an RFC 3339 time") }
            return time
        }
        guard done == (doneAt != nil) else { throw LineProblem("\"done\" and \"doneAt\" disagree") }
        let createdText = try json.string("createdAt")
        guard let createdAt = Timestamp(rfc3339: createdText) else {
            throw LineProblem("createdAt \"\(createdText)\" is not an RFC 3339 time")
        }
        let clock = try json.field("clock")
        var removed = Register(false, at: .zero)
        if let flag = try json.optionalBool("removed") { removed = Register(flag, at: try stamp(clock, "removed")) }
        var issue = Register<LinkedIssue?>(nil, at: .zero)
        if let value = json["issue"] { issue = Register(try readIssue(value), at: try stamp(clock, "issue")) }
        var localID: Int64?
        if json["localID"] != nil {
            localID = try json.int64("localID")
        }
        let entry = TodoEntry(
            uuid: uuid, createdAt: createdAt, repository: Register(repository, at: try stamp(clock, "repository")),
            text: Register(text, at: try stamp(clock, "text")),
            done: Register(DoneState(doneAt: doneAt), at: try stamp(clock, "done")), removed: removed, issue: issue,
            unknown: try unknownFields(members, known: knownTodoKeys, clock: clock, knownStamps: knownTodoStamps))
        return (entry, localID)
    }

    private static let knownRepositoryKeys: Set<String> = ["type", "id", "fullName", "url", "tracked", "settings", "clock",
                                                           "description", "private", "archived", "gone"]
    private static let knownRepositoryStamps: Set<String> = ["name", "tracked", "settings"]
    private static let knownTodoKeys: Set<String> = ["type", "uuid", "repository", "text", "done", "doneAt", "createdAt",
                                                     "removed", "issue", "localID", "clock"]
    private static let knownTodoStamps: Set<String> = ["repository", "text", "done", "removed", "issue"]

    /// `"issue": null` (unlinked) or `{"number", "state", "url", "repository"}`.
    private static func readIssue(_ value: JSONValue) throws -> LinkedIssue? {
        if value == .null { return nil }
        guard case .object = value else { throw LineProblem("\"issue\" is not an object or null") }
        let number = try value.int64("number"), repository = try value.int64("repository")
        guard number > 0, repository > 0 else { throw LineProblem("issue \(number) of repository \(repository) is not positive") }
        let state = try value.string("state")
        guard LinkedIssue.states.contains(state) else { throw LineProblem("issue state \"\(state)\" is not open or closed") }
        return LinkedIssue(number: number, repository: repository, state: state, url: try value.string("url"))
    }

    /// `{"pushIssues", "importIssues", "scanCommits"}`.
    private static func readSettings(_ value: JSONValue) throws -> SharedSettings {
        guard case .object = value else { throw LineProblem("\"settings\" is not an object") }
        let importIssues = try value.string("importIssues")
        guard SharedSettings.importModes.contains(importIssues) else {
            throw LineProblem("importIssues \"\(importIssues)\" is not off, assigned or all")
        }
        return SharedSettings(pushIssues: try value.bool("pushIssues"), importIssues: importIssues,
                              scanCommits: try value.bool("scanCommits"))
    }

    private static func stamp(_ clock: JSONValue, _ name: String) throws -> HybridTimestamp {
        let text = try clock.string(name)
        guard let stamp = HybridTimestamp(text: text) else { throw LineProblem("clock \"\(name)\" is not a stamp: \"\(text)\"") }
        return stamp
    }

    private static func unknownFields(_ members: [JSONMember], known: Set<String>, clock: JSONValue,
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

/// Why a todo file could not be read.
public enum TodoFileError: Error, Equatable, Sendable {
    /// The first line that is not what the format allows (1-based), and why.
    case badLine(line: Int, reason: String)
    /// The file is of a newer major version than this doogit writes: it is left as it is.
    case newerVersion(String)
}

private func describe(_ error: JSONError) -> String {
    switch error {
    case .syntax(let offset, let reason): return "invalid JSON at byte \(offset): \(reason)"
    case .tooDeep: return "JSON nested too deeply"
    case .missing(let field): return "\"\(field)\" is missing"
    case .wrongType(let field, let expected): return "\"\(field)\" is not \(expected)"
    }
}
