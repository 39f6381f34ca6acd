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
