import ResponderJSON
import ResponderProtocol

/// K3–K8: dispatch changes node fields (a switch's `on`, a text's `text`, a scroll offset). Each change is a
/// `change` step; when the request ends they become one batch — the revision goes up by one — that the engine
/// publishes as a tree event (12.6), so a mirror sees them as it sees any tree change.
extension SessionState {
    mutating func change<V>(
        _ id: String, _ field: String, _ keyPath: WritableKeyPath<NodeSpec, V>, to value: V, rule: Rule,
        trace: inout Trace
    ) {
        guard var node = world.nodes[id], let f = NodeField.named(field) else { return }
        let before = f.encoded(node.spec)
        node.spec[keyPath: keyPath] = value
        let after = f.encoded(node.spec)
        guard before != after else { return }
        world.nodes[id] = node
        if !fieldChanges.contains(where: { $0.id == id && $0.field == field }) { fieldChanges.append((id, field)) }
        let from = (try? JSONCodec.decode(before, strings: KnownStrings.table)) ?? .null
        let to = (try? JSONCodec.decode(after, strings: KnownStrings.table)) ?? .null
        trace.add(.change(FieldChange(id: id, field: field, from: from, to: to, rule: rule)))
    }

    /// Ends a request: the fields it changed become one batch of `update` ops at the next revision.
    mutating func commitChanges() {
        // A2, G3: a crash belongs to the request it happened in; the next one starts afresh.
        crash = nil
        defer { revisionTaken = false }
        guard !fieldChanges.isEmpty else { return }
        if !revisionTaken { world.revision += 1 }
        var order: [String] = []
        var fields: [String: [String]] = [:]
        for (id, field) in fieldChanges {
            if fields[id] == nil { order.append(id) }
            fields[id, default: []].append(field)
        }
        fieldChanges = []
        committedChanges += order.compactMap { id in
            guard world.contains(id) else { return nil }
            world.nodes[id]!.revision = world.revision
            return GuardedOp(.update(id: id, set: NodeUpdate(fields: fields[id]!, of: world.nodes[id]!.spec)))
        }
    }

    /// The ops the last requests' dispatch applied (12.6 `dispatch` tree event), once.
    public mutating func takeChanges() -> [GuardedOp] {
        commitChanges()
        defer { committedChanges = [] }
        return committedChanges
    }
}
