import DoogitSupport

extension TodoFile {
    /// Reads the lines of one file: version 2's, or version 1's (whose `issue` held the issue's state,
    /// read now as seen under the link), stamping values written by hand with `handEdit`.
    struct LineReader {
        let handEdit: HybridTimestamp?
        var legacy = false
        var handEdits = 0

        mutating func repository(_ members: [JSONMember]) throws -> (RepositoryEntry, RepositoryDetails?) {
            let json = JSONValue.object(members)
            let id = try json.int64("id")
            guard id > 0 else { throw LineProblem("repository id \(id) is not positive") }
            let fullName = try json.string("fullName")
            // It goes into API paths: a name GitHub would not give (`../user`, `a/b?x=`) is refused here.
            guard GitHubNames.isValidFullName(fullName) else {
                throw LineProblem("\"\(fullName)\" is not OWNER/NAME of GitHub's names")
            }
            let clock = try clockObject(json)
            var settings = Register(SharedSettings.defaults, at: .zero)
            if json["settings"] != nil {
                settings = Register(try readSettings(try json.field("settings")), at: try stamp(clock, "settings"))
            }
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
            if !legacy, let value = json["issueSeen"] {
                seen = Register(try readObservation(value), at: try stamp(clock, "issueSeen"))
            }
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
                                            "due", "priority", "tags", "note", "author", "finishedBy", "assignee", "private"]
        static let todoStamps: Set<String> = ["repository", "text", "done", "removed", "issue", "issueSeen",
                                              "due", "priority", "tags", "note", "author", "finishedBy", "assignee", "private"]
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
}
