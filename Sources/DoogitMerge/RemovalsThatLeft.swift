import DoogitSupport

/// What a machine can tell, from the remote's compaction point, of the removals that left the
/// remote: whether an entry it holds, and the remote no longer does, left as a removal (a todo
/// removed, or a repository no longer tracked), so that it is removed here too, never brought back.
///
/// - Unchanged here since it was exchanged: it left when stamped up to the compaction point.
/// - Changed here since (the machine was away), and held there at this machine's last read: it
///   left unless removed or restored here after the compaction point. An edit made here is then
///   dropped: the removal wins, as it would have had the machine merged it before it left. (A
///   machine the remote waited for merged every removal that left, so a restore it made since is
///   stamped after them all.)
/// - Made here, or restored here after it left here, and so not held there at the last read: it
///   goes out.
struct RemovalsThatLeft {
    /// Every removal that left was stamped up to here.
    var compacted: HybridTimestamp

    /// `removed`: the entry's removed register (a repository's tracked one, negated).
    func left(latest: HybridTimestamp, removed: Register<Bool>, changedHere: Bool, heldBefore: Bool) -> Bool {
        guard changedHere else { return latest <= compacted }
        return heldBefore && removed.stamp <= compacted
    }

    /// The removal here of what left, when it is alive here: it outranks every change made here.
    func removal(over register: Register<Bool>, on machine: String) -> Register<Bool> {
        Register(true, at: max(compacted, register.stamp.next(on: machine)))
    }
}
