/// Changes made to the file by hand (GitHub's web editor shows it, so people will edit it there).
/// A value changed by hand keeps the stamp of the write it replaced, so a copy that holds that
/// stamp with another value tells the edit apart; the edited field is then stamped `at` (the
/// time the file was read), as a change made then, which every machine takes like any other.
/// A value dated by an event on GitHub is not checked: two machines may date two events alike.
extension Replica {
    /// This copy (the file as read) with every value that a `known` copy holds at the same stamp
    /// but with another value restamped `at` (or just after the stamp it had, when `at` is not
    /// later), and how many were.
    public func restampingHandEdits(against known: [Replica], at stamp: HybridTimestamp) -> (replica: Replica, edits: Int) {
        var result = self
        var edits = 0
        func check<Value>(_ register: inout Register<Value>, _ references: [Register<Value>]) {
            // Machines that saw two events on GitHub in one second stamp them alike: not an edit.
            guard register.stamp == .zero || register.stamp.machine != HybridTimestamp.githubMachine,
                  references.contains(where: { $0.stamp == register.stamp && $0.value != register.value }) else { return }
            register.stamp = max(stamp, register.stamp.next(on: stamp.machine))
            edits += 1
        }
        // A tag taken out of `tags` by hand keeps its stamp in `clock.tags`: off where a copy has it on.
        func checkTags(_ tags: inout TagSet, _ references: [TagSet]) {
            var edited = tags.states
            for (key, state) in tags.states where state.stamp.machine != HybridTimestamp.githubMachine
                && references.contains(where: { $0.states[key].map { $0.stamp == state.stamp && $0.isOn != state.isOn } ?? false }) {
                edited[key]?.stamp = max(stamp, state.stamp.next(on: stamp.machine))
                edits += 1
            }
            tags = TagSet(states: edited)
        }
        for (uuid, entry) in todos {
            let references = known.compactMap { $0.todos[uuid] }
            guard !references.isEmpty else { continue }
            var edited = entry
            check(&edited.repository, references.map(\.repository))
            check(&edited.text, references.map(\.text))
            check(&edited.done, references.map(\.done))
            check(&edited.removed, references.map(\.removed))
            check(&edited.issue, references.map(\.issue))
            check(&edited.details.due, references.map(\.details.due))
            check(&edited.details.priority, references.map(\.details.priority))
            checkTags(&edited.details.tags, references.map(\.details.tags))
            check(&edited.details.note, references.map(\.details.note))
            for field in TodoFile.whoFields {
                check(&edited.details[keyPath: field.register], references.map { $0.details[keyPath: field.register] })
            }
            check(&edited.details.keptPrivate, references.map(\.details.keptPrivate))
            if edited != entry { result.todos[uuid] = edited }
        }
        for (id, entry) in repositories {
            let references = known.compactMap { $0.repositories[id] }
            guard !references.isEmpty else { continue }
            var edited = entry
            check(&edited.name, references.map(\.name))
            check(&edited.tracked, references.map(\.tracked))
            check(&edited.settings, references.map(\.settings))
            if edited != entry { result.repositories[id] = edited }
        }
        return (result, edits)
    }
}
