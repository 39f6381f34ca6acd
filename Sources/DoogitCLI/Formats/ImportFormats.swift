import DoogitMerge
import DoogitStore
import DoogitSupport

/// A todo read from another program's file, before it is given a repository.
struct ForeignTodo {
    var uuid: String
    var text: String
    var doneAt: Timestamp?
    var done: Bool
    var createdAt: Timestamp?
    /// The project (Taskwarrior) or `+project` (todo.txt) that names its repository.
    var project: String?
    /// Where it is in the file, for messages: `line 3`.
    var place: String
    /// The issue it is linked to (todo.txt's `issue:OWNER/NAME#N`, taken out of the text), as
    /// OWNER/NAME and number, and the word as written (back into the text where it is not a link
    /// of the todo's repository).
    var issue: (repository: String, number: Int64, word: String)? = nil
    /// Its due date, priority, tags and note, as the file says them.
    var details = DetailsEdit()
    /// When the task last changed (Taskwarrior's `modified`; todo.txt has no such time).
    var modified: Timestamp? = nil
    /// A todo.txt priority past `(C)`, taken as L: the letter, for the warning that names it.
    var otherPriority: Character? = nil
    /// The file gives no UUID (a todo.txt line without `uuid:`): `uuid` was made from the line,
    /// and the todo is also recognised by its repository, text and creation date.
    var madeUUID = false
}

/// A file that is not what its format allows: where, and why.
struct ImportFormatError: Error, Equatable {
    var place: String
    var reason: String
}

/// The formats `doogit import` reads and `doogit export` writes.
enum ImportFormat: String, CaseIterable {
    case doogit, taskwarrior, todotxt

    /// doogit's own file by its header; Taskwarrior's `task export` by its JSON; anything else
    /// is read as todo.txt. `bytes` are without a byte-order mark (`ByteOrderMark.utf8`).
    static func detect(_ bytes: [UInt8]) -> ImportFormat {
        if TodoFile.looksLikeDoogit(bytes) { return .doogit }
        let first = bytes.first { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }
        return first == UInt8(ascii: "[") || first == UInt8(ascii: "{") ? .taskwarrior : .todotxt
    }
}

/// A line of a file as text: the import reads files checked already (`InputText`), and a reader
/// given bytes that are not UTF-8 text refuses them too, never repairing them into U+FFFD.
func lineText(_ line: ArraySlice<UInt8>, place: String) throws(ImportFormatError) -> String {
    do { return try UTF8Text.decode(line) } catch {
        throw ImportFormatError(place: place, reason: "not UTF-8 text (\(error.found))")
    }
}

/// A todo's text as `todo add` keeps it: control characters removed, trimmed, not empty, at
/// most 10,000 characters.
func cleanText(_ raw: String, place: String) throws(ImportFormatError) -> String {
    let text = TerminalText.sanitize(raw).trimmingSpaces
    guard !text.isEmpty else { throw ImportFormatError(place: place, reason: "the todo text is empty") }
    guard text.count <= InputValidation.maximumTextLength else {
        throw ImportFormatError(place: place, reason: "the todo text is longer than \(InputValidation.maximumTextLength) characters")
    }
    return text
}
