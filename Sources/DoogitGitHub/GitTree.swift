import DoogitSupport

/// An entry of a git tree, as GitHub lists it (one level, not recursive): a file (executable or
/// not), a symlink, a submodule (a commit of another repository) or a folder, with its mode, which
/// is part of its tree's name.
public struct GitTreeEntry: Equatable, Sendable {
    public var name: String
    public var sha: String
    public var mode: GitMode
    /// A blob's size in bytes (GitHub gives none for a tree or a submodule).
    public var size: Int?

    public var isTree: Bool { mode.isTree }

    public init(name: String, sha: String, mode: GitMode, size: Int? = nil) {
        self.name = name
        self.sha = sha
        self.mode = mode
        self.size = size
    }
}

/// A tree's entries one level down, and its name: GitHub's `sha` of the listing, which is the
/// tree's own only when the tree was asked for by its own name (asked by a commit, it is the
/// commit's).
public struct GitTreeListing: Equatable, Sendable {
    public var sha: String
    public var entries: [GitTreeEntry]

    public init(sha: String, entries: [GitTreeEntry]) {
        self.sha = sha
        self.entries = entries
    }
}

/// A file to write in a new tree: its path from the root, its content (nil removes the path), and
/// its mode (a file that is there keeps its own).
public struct GitTreeWrite: Equatable, Sendable {
    public var path: String
    public var content: [UInt8]?
    public var mode: GitMode

    public init(path: String, content: [UInt8]?, mode: GitMode = .file) {
        self.path = path
        self.content = content
        self.mode = mode
    }
}
