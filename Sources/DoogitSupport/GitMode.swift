/// A git tree entry's mode, as GitHub lists it (six octal digits): what kind of entry it is, and
/// part of its tree's name. A tree named with another mode than its entries have is another tree,
/// so doogit keeps each entry's mode as listed, never a mode it assumes.
public struct GitMode: Hashable, Sendable, CustomStringConvertible {
    /// Six octal digits, as GitHub lists them: "100644", "040000".
    public let text: String

    public static let file = GitMode(uncheckedText: "100644")
    public static let executable = GitMode(uncheckedText: "100755")
    public static let symlink = GitMode(uncheckedText: "120000")
    /// A submodule: the entry names a commit of another repository, not an object of this one.
    public static let submodule = GitMode(uncheckedText: "160000")
    public static let tree = GitMode(uncheckedText: "040000")

    private init(uncheckedText: String) { text = uncheckedText }

    /// A mode of one to six octal digits (git writes a tree's as "40000"); nil for anything else.
    public init?(_ text: String) {
        let digits = Array(text.utf8)
        guard (1...6).contains(digits.count), digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "7")).contains($0) }) else {
            return nil
        }
        self.text = String(repeating: "0", count: 6 - digits.count) + text
    }

    /// A folder (git's S_IFDIR): sorted in its tree as if its name ended in "/".
    public var isTree: Bool { text.hasPrefix("04") }
    public var isSubmodule: Bool { text.hasPrefix("16") }
    /// The kind of object the entry names, as the Git Data API says it: blob, tree or commit.
    public var objectType: String { isTree ? "tree" : isSubmodule ? "commit" : "blob" }

    /// As git writes it inside a tree object: without leading zeros.
    var objectText: String {
        let trimmed = text.drop { $0 == "0" }
        return trimmed.isEmpty ? "0" : String(trimmed)
    }

    public var description: String { text }
}
