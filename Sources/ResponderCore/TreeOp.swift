import ResponderProtocol

/// One change in a `tree.apply` batch.
public enum TreeOp: Sendable {
    /// Insert a node (with its `children`) under `parent` at `index` (default: the end, front-most);
    /// a nil parent creates a detached subtree.
    case insert(parent: String?, index: Int?, node: JSON)
    case remove(id: String)
    case move(id: String, parent: String?, index: Int?)
    case update(id: String, set: [(key: String, value: JSON)])

    public var name: String {
        switch self {
        case .insert: return "insert"
        case .remove: return "remove"
        case .move: return "move"
        case .update: return "update"
        }
    }
}

/// An op with its optional per-node precondition (the node's revision must still be this).
public struct GuardedOp: Sendable {
    public var op: TreeOp
    public var ifNodeRevision: Int?
    /// The op exactly as the client sent it, republished in the `tree` event.
    public var json: JSON

    /// Reads op `index` of a batch; errors name the op index and the field.
    public static func parse(_ json: JSON, index: Int) throws(RPCError) -> GuardedOp {
        let path = "ops[\(index)]."
        do throws(RPCError) {
            var r = try ParamReader(json, path: path)
            let kind = try r.requiredString("op")
            let ifNodeRevision = try r.int("ifNodeRevision")
            let op: TreeOp
            switch kind {
            case "insert":
                guard r.has("parent") else { throw r.error("parent", "is required (null creates a detached subtree)") }
                let parent = try r.string("parent")
                let index = try r.int("index")
                guard let node = r.raw("node"), node.objectMembers != nil else { throw r.error("node", "is required and must be an object") }
                op = .insert(parent: parent, index: index, node: node)
            case "remove":
                op = .remove(id: try r.requiredString("id"))
            case "move":
                let id = try r.requiredString("id")
                guard r.has("parent") else { throw r.error("parent", "is required (null detaches)") }
                op = .move(id: id, parent: try r.string("parent"), index: try r.int("index"))
            case "update":
                let id = try r.requiredString("id")
                guard let set = r.raw("set")?.objectMembers else { throw r.error("set", "is required and must be an object") }
                op = .update(id: id, set: set)
            default:
                throw r.error("op", "expected insert, remove, move or update, got \"\(kind)\"")
            }
            try r.finish()
            return GuardedOp(op: op, ifNodeRevision: ifNodeRevision, json: json)
        } catch {
            throw error.with("opIndex", JSON(index))
        }
    }
}
