import ResponderProtocol
import ResponderJSON

extension Transaction {
    /// Brings the recognizer index up to date with the nodes this batch touched, then checks that every
    /// recognizer id is unique in the session and that the recognizers the batch wrote name only recognizers
    /// that exist (G4, G5). On error the index is as it was (the caller rolls back the nodes).
    ///
    /// A reference left dangling by removing a recognizer later is kept and ignored (as UIKit ignores a
    /// required recognizer that never sees the touch).
    mutating func indexRecognizers() throws(RPCError) {
        // Only nodes that had or have recognizers matter: most batches (and most of a large load) have none.
        let involved = Set(journal.compactMap { id, old in
            old?.gestureRecognizers.isEmpty == false || world.nodes[id]?.gestureRecognizers.isEmpty == false ? id : nil
        })
        guard !involved.isEmpty else { return }
        var undo: [(id: String, owner: String?)] = []
        func set(_ id: String, _ owner: String?, _ world: inout World) {
            undo.append((id, world.recognizerOwners[id]))
            world.recognizerOwners[id] = owner
        }
        // Changed nodes in op order (so errors name the first op's node), then the others by id.
        let inOpOrder = changedOrder.filter(involved.contains)
        let order = inOpOrder + involved.subtracting(inOpOrder).sorted()
        for id in involved {
            for r in journal[id]??.gestureRecognizers ?? [] where world.recognizerOwners[r.id] == id { set(r.id, nil, &world) }
        }
        do throws(RPCError) {
            for id in order {
                guard let node = world.nodes[id] else { continue }
                for (i, r) in node.gestureRecognizers.enumerated() {
                    if let scroll = world.builtInPanOwner(r.id) {
                        throw error(.duplicateID, id, i, member: "id", "\"\(r.id)\" is the built-in pan recognizer of scroll view \"\(scroll)\" (K8)", [("recognizer", .string(r.id))])
                    }
                    if let owner = world.recognizerOwners[r.id], owner != id {
                        throw error(.duplicateID, id, i, member: "id", "a recognizer with id \"\(r.id)\" is already attached to \"\(owner)\"", [("recognizer", .string(r.id))])
                    }
                    set(r.id, id, &world)
                }
            }
            for id in order where recognizerPaths[id] != nil {
                guard let node = world.nodes[id] else { continue }
                for (i, r) in node.gestureRecognizers.enumerated() {
                    for ref in r.references where world.recognizerOwners[ref.id] == nil {
                        throw error(.invalidNode, id, i, member: "\(ref.member)[\(ref.index)]", "names no recognizer \"\(ref.id)\"", [("recognizer", .string(ref.id))])
                    }
                }
            }
        } catch {
            for entry in undo.reversed() { world.recognizerOwners[entry.id] = entry.owner }
            throw error
        }
    }

    private func error(_ name: ErrorName, _ id: String, _ index: Int, member: String, _ message: String, _ extra: [(key: String, value: JSON)]) -> RPCError {
        let written = recognizerPaths[id]
        let field = "\(written?.field ?? "gestureRecognizers")[\(index)].\(member)"
        var details: [(key: String, value: JSON)] = [("field", .string(field)), ("id", .string(id))] + extra
        if inBatch, let op = written?.opIndex { details.append(("opIndex", JSON(op))) }
        return RPCError(name, "\(field): \(message)", details)
    }
}
