import DoogitSupport

/// A todo's details in a line of the file: `"due":"2026-12-24"`, `"priority":"H"`,
/// `"tags":["ci","Release"]`, `"note":"…"`, and (format 4.1) `"author"`, `"finishedBy"` and
/// `"assignee"`, GitHub logins, and (format 4.2) `"private"`, true or false, after `commits`.
/// Each but the tags has its stamp in `clock`
/// under the same name; tags have one stamp each, by the tag's name
/// folded, in `clock.tags` (`{"ci":"…","old":"…","release":"…"}`): a name there that `tags` does
/// not hold is a tag removed. A field never set has no key; one cleared is `null` (tags: `[]`).
/// Format 3 kept tags as one value, `clock.tags` one stamp: read as each tag added at it.
extension TodoFile {
    static func writeDetails(_ details: TodoDetails, into json: inout JSONStream) {
        if details.due.stamp != .zero { json.key("due"); json.string(details.due.value?.text) }
        if details.priority.stamp != .zero { json.key("priority"); json.string(details.priority.value?.rawValue) }
        if !details.tags.states.isEmpty {
            json.key("tags")
            json.beginArray()
            for tag in details.tags { json.string(tag) }
            json.endArray()
        }
        if details.note.stamp != .zero { json.key("note"); json.string(details.note.value) }
        for field in whoFields where details[keyPath: field.register].stamp != .zero {
            json.key(named: field.key); json.string(details[keyPath: field.register].value)
        }
        if details.keptPrivate.stamp != .zero { json.key("private"); json.bool(details.keptPrivate.value) }
    }

    /// Who added, finished and is assigned the todo: each register, by its key in the line.
    static let whoFields: [(key: String, register: any WritableKeyPath<TodoDetails, Register<String?>> & Sendable)] =
        [("author", \.author), ("finishedBy", \.finishedBy), ("assignee", \.assignee)]

    static func writeDetailStamps(_ details: TodoDetails, into json: inout JSONStream) {
        if details.due.stamp != .zero { json.key("due"); json.string(details.due.stamp.text) }
        if details.priority.stamp != .zero { json.key("priority"); json.string(details.priority.stamp.text) }
        if !details.tags.states.isEmpty {
            json.key("tags")
            json.beginObject()
            for (key, state) in details.tags.states.sorted(by: { $0.key < $1.key }) {
                json.key(named: key); json.string(state.stamp.text)
            }
            json.endObject()
        }
        if details.note.stamp != .zero { json.key("note"); json.string(details.note.stamp.text) }
        for field in whoFields where details[keyPath: field.register].stamp != .zero {
            json.key(named: field.key); json.string(details[keyPath: field.register].stamp.text)
        }
        if details.keptPrivate.stamp != .zero { json.key("private"); json.string(details.keptPrivate.stamp.text) }
    }

    /// `issueSeen.labels`: the names of the labels (nil: not known).
    static func readLabels(_ value: JSONValue?) throws -> [String]? {
        guard let value, value != .null else { return nil }
        guard case .array(let elements) = value else { throw LineProblem("\"issueSeen.labels\" is not an array") }
        return try elements.map { element throws -> String in
            guard case .string(let name) = element, !name.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F })
            else { throw LineProblem("\"issueSeen.labels\" holds something that is not a label's name") }
            return name
        }
    }

    /// The details of a todo's line; `stamp` reads a field's stamp from `clock`, `tagStamp` a
    /// tag's (by its folded name) from `clock.tags`, nil when a file of format 3 has one stamp
    /// for the whole set there.
    static func readDetails(_ json: JSONValue, stamp: (String) throws -> HybridTimestamp,
                            tagStamp: (String) throws -> HybridTimestamp?) throws -> TodoDetails {
        var details = TodoDetails()
        if let value = json["due"] {
            var due: CalendarDate?
            if value != .null {
                guard case .string(let text) = value, let date = CalendarDate(text: text) else {
                    throw LineProblem("\"due\" is not a date (YYYY-MM-DD) or null")
                }
                due = date
            }
            details.due = Register(due, at: try stamp("due"))
        }
        if let value = json["priority"] {
            var priority: Priority?
            if value != .null {
                guard case .string(let text) = value, let level = Priority(rawValue: text) else {
                    throw LineProblem("\"priority\" is not \"H\", \"M\", \"L\" or null")
                }
                priority = level
            }
            details.priority = Register(priority, at: try stamp("priority"))
        }
        if let value = json["tags"] {
            guard case .array(let elements) = value else { throw LineProblem("\"tags\" is not an array") }
            var tags: [String] = []
            for element in elements {
                guard case .string(let tag) = element, TagSet.isValid(tag) else {
                    throw LineProblem("\"tags\" holds something that is not a tag (a word without spaces or commas)")
                }
                tags.append(tag)
            }
            details.tags = try readTags(tags, clock: json["clock"]?["tags"], stamp: stamp, tagStamp: tagStamp)
        }
        if let value = json["note"] {
            var note: String?
            if value != .null {
                guard case .string(let text) = value else { throw LineProblem("\"note\" is not text or null") }
                note = text
            }
            details.note = Register(note, at: try stamp("note"))
        }
        for field in whoFields {
            guard let value = json[field.key] else { continue }
            var login: String?
            if value != .null {
                guard case .string(let text) = value, GitHubLogin.isValid(text) else {
                    throw LineProblem("\"\(field.key)\" is not a GitHub login or null")
                }
                login = text
            }
            details[keyPath: field.register] = Register(login, at: try stamp(field.key))
        }
        if let value = json["private"] {
            guard case .bool(let kept) = value else { throw LineProblem("\"private\" is not true or false") }
            details.keptPrivate = Register(kept, at: try stamp("private"))
        }
        return details
    }

    /// The tags of a line: those in `tags` on, each at its stamp in `clock.tags`; a name there
    /// that `tags` does not hold, off. Format 3: every tag on at the one stamp.
    private static func readTags(_ tags: [String], clock: JSONValue?, stamp: (String) throws -> HybridTimestamp,
                                 tagStamp: (String) throws -> HybridTimestamp?) throws -> TagSet {
        guard case .object(let stamps)? = clock else { return TagSet(tags, at: try stamp("tags")) }
        var states: [String: TagState] = [:]
        for tag in tags {
            let key = TagSet.key(tag)
            guard states[key] == nil else { throw LineProblem("\"tags\" holds \"\(tag)\" twice (tags compare without case)") }
            guard let at = try tagStamp(key) else { throw LineProblem("clock \"tags\" has no stamp for \"\(tag)\"") }
            states[key] = TagState(spelling: tag, isOn: true, stamp: at)
        }
        for member in stamps where states[member.key] == nil {
            guard TagSet.isValid(member.key), member.key == TagSet.key(member.key), let at = try tagStamp(member.key) else {
                throw LineProblem("clock \"tags\" names \"\(member.key)\", which is not a tag's folded name")
            }
            states[member.key] = TagState(spelling: member.key, isOn: false, stamp: at)
        }
        return TagSet(states: states)
    }
}
