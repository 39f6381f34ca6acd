import DoogitSupport

/// A todo's details in a line of the file (format 3.1): `"due":"2026-12-24"`, `"priority":"H"`,
/// `"tags":["ci","release"]` and `"note":"…"`, after `commits`, each with its stamp in `clock`
/// under the same name. A field never set has no key; one cleared is `null` (tags: `[]`).
extension TodoFile {
    static let detailKeys = ["due", "priority", "tags", "note"]

    /// The minor version a line with details needs.
    static let detailsMinorVersion = 1

    static func usesDetails(_ entry: TodoEntry) -> Bool {
        entry.details.stamps.contains { $0 != .zero } || entry.seen.value?.labels != nil
    }

    static func writeDetails(_ details: TodoDetails, into json: inout JSONStream) {
        if details.due.stamp != .zero { json.key("due"); json.string(details.due.value?.text) }
        if details.priority.stamp != .zero { json.key("priority"); json.string(details.priority.value?.rawValue) }
        if details.tags.stamp != .zero {
            json.key("tags")
            json.beginArray()
            for tag in details.tags.value { json.string(tag) }
            json.endArray()
        }
        if details.note.stamp != .zero { json.key("note"); json.string(details.note.value) }
    }

    static func writeDetailStamps(_ details: TodoDetails, into json: inout JSONStream) {
        for (name, stamp) in Swift.zip(detailKeys, details.stamps) where stamp != .zero {
            json.key(named: name); json.string(stamp.text)
        }
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

    /// The details of a todo's line; `stamp` reads a field's stamp from `clock`.
    static func readDetails(_ json: JSONValue, stamp: (String) throws -> HybridTimestamp) throws -> TodoDetails {
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
            details.tags = Register(TagSet(tags), at: try stamp("tags"))
        }
        if let value = json["note"] {
            var note: String?
            if value != .null {
                guard case .string(let text) = value else { throw LineProblem("\"note\" is not text or null") }
                note = text
            }
            details.note = Register(note, at: try stamp("note"))
        }
        return details
    }
}
