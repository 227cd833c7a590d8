import ResponderJSON
import ResponderProtocol

extension Transaction {
    /// Brings the recognizer index up to date with the nodes this batch touched, then checks that every
    /// recognizer id is unique in the session and that the recognizers the batch wrote name only recognizers
    /// that exist (G4, G5). On error the index is as it was (the caller rolls back the nodes).
    ///
    /// A reference left dangling by removing a recognizer later is kept and ignored (as UIKit ignores a
    /// required recognizer that never sees the touch).
    mutating func indexRecognizers() throws(CoreError) {
        // Only nodes that had or have recognizers matter: most batches (and most of a large load) have none.
        let involved = Set(
            journal.compactMap { id, old in
                old?.gestureRecognizers.isEmpty == false || world.nodes[id]?.gestureRecognizers.isEmpty == false
                    ? id : nil
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
            for r in journal[id]??.gestureRecognizers ?? [] where world.recognizerOwners[r.id] == id {
                set(r.id, nil, &world)
            }
        }
        do throws(CoreError) {
            for id in order {
                guard let node = world.nodes[id] else { continue }
                for (i, r) in node.gestureRecognizers.enumerated() {
                    if let scroll = world.builtInPanOwner(r.id) {
                        throw error(id, i, member: "id", .builtInPan(recognizer: r.id, scrollView: scroll))
                    }
                    if let owner = world.recognizerOwners[r.id], owner != id {
                        throw error(id, i, member: "id", .idInUse(recognizer: r.id, owner: owner))
                    }
                    set(r.id, id, &world)
                }
            }
            for id in order where recognizerPaths[id] != nil {
                guard let node = world.nodes[id] else { continue }
                for (i, r) in node.gestureRecognizers.enumerated() {
                    // G12: a scroll view's built-in pan may be named like any recognizer.
                    for ref in r.references
                    where world.recognizerOwners[ref.id] == nil && world.builtInPanOwner(ref.id) == nil {
                        throw error(id, i, member: "\(ref.member)[\(ref.index)]", .unknownReference(recognizer: ref.id))
                    }
                }
            }
        } catch {
            for entry in undo.reversed() { world.recognizerOwners[entry.id] = entry.owner }
            throw error
        }
    }

    /// Recognizer `index` of node `id` refused, at the path the batch or document wrote it under, naming the op
    /// that wrote it in a batch.
    private func error(_ id: String, _ index: Int, member: String, _ problem: CoreError.RecognizerProblem) -> CoreError
    {
        let written = recognizerPaths[id]
        let field = "\(written?.field ?? "gestureRecognizers")[\(index)].\(member)"
        let error = CoreError.recognizer(id, field: field, problem: problem)
        if inBatch, let op = written?.opIndex { return .afterOp(op, error) }
        return error
    }
}
