import DoogitSupport

/// One machine's exchange with the remote (`RemoteLayout`), as a pure function of what the
/// machine holds and what it read there: what to write here, which files to write there, and
/// what leaves the remote for good.
///
/// - Every entry either side has is merged (`merge`); what differs from the remote goes out, in
///   the files of the repositories it concerns (a moved todo leaves one file for another).
/// - A removal (or an untracked repository) enters the remote with its generation (`since`). It
///   leaves once every machine that exchanged within the horizon has merged that generation, or
///   once it is older than the horizon; the remote's `compacted` point then grows past it.
/// - What this machine sent before, the remote no longer holds, and that is stamped up to the
///   compacted point left the remote after a removal: it is removed here too (restorable here),
///   never brought back. What it made since it last exchanged is sent; an edit it made since of
///   a todo (or a repository) whose removal left the remote meanwhile is dropped: the removal
///   wins, as it would have had this machine merged it before it left. A removal stays here,
///   restorable, until it is older than the horizon; then it goes.
public enum RemoteExchange {
    /// The plan, step by step (`Planning`), in the order the rules above tell it.
    public static func plan(_ input: Input) -> Plan {
        var planning = Planning(input)
        // What each side holds, merged.
        planning.mergeTodos()
        planning.removeTodosThatLeftWhileAway()
        planning.noteMissingTodoFiles()
        guard planning.plan.needed.isEmpty else { return planning.plan }  // to be planned again with them
        planning.mergeRepositories()
        planning.untrackRepositoriesThatLeftWhileAway()
        // What leaves the remote with this write, and what goes for good here.
        planning.registerThisMachine()
        planning.takeOutRemovalsThatLeave()
        planning.purgeWhatLeftPastTheHorizon()
        // What is written there.
        planning.writeTodosFiles()
        planning.writeRepositoriesFile()
        planning.writeMetaLine()
        return planning.finished()
    }

    static func changedLines<Key: Hashable, Value: Equatable>(from old: [Key: Value], to new: [Key: Value]) -> Int {
        new.filter { old[$0.key] != $0.value }.count + old.keys.filter { new[$0] == nil }.count
    }
}
