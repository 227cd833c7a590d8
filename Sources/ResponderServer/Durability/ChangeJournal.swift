import ResponderCore

/// What the request being served changed, for the state store: sessions to save (each with its tree
/// records, in order) and sessions deleted. Filled while a handler publishes; emptied after each request.
final class ChangeJournal {
    private(set) var entries: [Entry] = []
    private var records: [ObjectIdentifier: [TreeRecord]] = [:]

    enum Entry {
        case save(SessionHost)
        case delete(String)
    }

    var isEmpty: Bool { entries.isEmpty }

    /// The sessions the request saved or deleted.
    var sessionNames: [String] {
        entries.map {
            switch $0 {
            case .save(let host): host.name
            case .delete(let name): name
            }
        }
    }

    /// Drops the request's changes unwritten (its group can no longer be saved).
    func forget() { clear() }

    /// Emptied with room kept: every request under durability touches its session, and storage freed after one
    /// request would be allocated again by the next.
    private func clear() {
        entries.removeAll(keepingCapacity: true)
        records.removeAll(keepingCapacity: true)
    }

    func touched(_ host: SessionHost) {
        let key = ObjectIdentifier(host)
        // A request touches its session once for each event it publishes: the last entry is looked at before
        // the table is hashed.
        if case .save(let last)? = entries.last, last === host { return }
        guard records[key] == nil else { return }
        records[key] = []
        entries.append(.save(host))
    }

    func tree(_ host: SessionHost, _ record: TreeRecord) {
        touched(host)
        records[ObjectIdentifier(host), default: []].append(record)
    }

    func deleted(_ name: String) { entries.append(.delete(name)) }

    /// Writes the request's changes (inside the group's transaction) and forgets them.
    func write(to store: some GroupStore) throws(SQLiteError) {
        defer { clear() }
        for entry in entries {
            switch entry {
            case .save(let host): try store.save(host, records: records[ObjectIdentifier(host)] ?? [])
            case .delete(let name): try store.delete(name)
            }
        }
    }
}

extension EngineState {
    /// A tree change for the journal; the batch is encoded only when something will write it.
    func journalApplied(_ change: TreeChange, _ host: SessionHost) {
        journal?.tree(host, .apply(revision: change.batch.revision, ops: WorldSnapshot.encode(ops: change.ops)))
    }

    /// A load, with the world as a snapshot keeps it (`WorldSnapshot.encode`).
    func journalLoaded(_ host: SessionHost, tree: [UInt8], detached: [UInt8]) {
        journal?.tree(host, .load(tree: tree, detached: detached))
    }
}
