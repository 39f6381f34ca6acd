import DoogitSupport

/// Text that comes from outside (a file, standard input, the command line) passes here: it is
/// UTF-8 without NUL (`UTF8Text`), or the command stops, naming where it is not and what to do,
/// before anything is added or changed. A byte that is not text is never repaired into U+FFFD.
enum InputText {
    /// The bytes of FILE (`-`: standard input), checked, without a byte-order mark.
    static func fileBytes(_ bytes: [UInt8], of argument: String) throws(CommandFailure) -> [UInt8] {
        do { return try UTF8Text.fileBytes(bytes) } catch { throw failure(error, in: argument) }
    }

    /// FILE's line that is not text, as a failure (exit 1) with what to do.
    static func failure(_ problem: UTF8Text.NotText, in argument: String) -> CommandFailure {
        let name = argument == "-" ? "standard input" : TerminalText.sanitize(argument)
        let fix: String
        if problem.isNUL {
            fix = "a NUL byte is binary data, not text: give a text file"
        } else if argument == "-" {
            fix = "convert it to UTF-8 on its way in, e.g. through 'iconv -f latin1 -t utf-8'"
        } else {
            fix = "convert it to UTF-8, e.g. with 'iconv -f latin1 -t utf-8 \(shellWord(name)) > converted.txt', and give that"
        }
        return CommandFailure(message: "\(name) line \(problem.line) is not UTF-8 text (\(problem.found))", hint: fix)
    }

    /// The command line's arguments (each as the bytes the system gave) as text: an argument
    /// that is not UTF-8 is a usage error naming it.
    static func arguments(_ arguments: [[UInt8]]) throws(UsageError) -> [String] {
        var texts: [String] = []
        for (index, bytes) in arguments.enumerated() {
            do {
                texts.append(try UTF8Text.decode(bytes))
            } catch {
                throw notText(index, shown: UTF8Text.shown(bytes), error)
            }
        }
        return texts
    }

    /// Arguments given as text (in-process, or by a caller other than the shell): one with a NUL
    /// in it, which no command line can carry, is a usage error naming it.
    static func checked(_ arguments: [String]) throws(UsageError) -> [String] {
        for (index, argument) in arguments.enumerated() {
            do { _ = try UTF8Text.decode(argument.utf8) } catch { throw notText(index, shown: UTF8Text.shown(Array(argument.utf8)), error) }
        }
        return arguments
    }

    /// A file name as a shell takes it: quoted unless it is plain.
    static func shellWord(_ name: String) -> String {
        let plain = name.unicodeScalars.allSatisfy { ($0.isASCII && ($0.properties.isAlphabetic || $0.properties.numericType != nil))
            || "/._-+,=:@%".unicodeScalars.contains($0) }
        return plain && !name.isEmpty ? name : "'" + name.replacing("'", with: "'\\''") + "'"
    }

    private static func notText(_ index: Int, shown: String, _ problem: UTF8Text.NotText) -> UsageError {
        let fix = problem.isNUL ? "leave it out" : "give it in UTF-8 (is the terminal's locale UTF-8?)"
        return UsageError(message: "argument \(index + 1) '\(shown)' is not UTF-8 text (\(problem.found)); \(fix)", topic: [])
    }
}
