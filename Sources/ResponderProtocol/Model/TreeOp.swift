import ResponderJSON

/// One change in a `tree.apply` batch (section 11, `tree.apply`).
public enum TreeOp: Sendable, Equatable {
    /// Insert a node (with its `children`) under `parent` at `index` (default: the end, front-most);
    /// a nil parent creates a detached subtree.
    case insert(parent: String?, index: Int?, node: NodeTree)
    case remove(id: String)
    case move(id: String, parent: String?, index: Int?)
    case update(id: String, set: NodeUpdate)

    public var name: String {
        switch self {
        case .insert: return "insert"
        case .remove: return "remove"
        case .move: return "move"
        case .update: return "update"
        }
    }

    /// The node an `ifNodeRevision` guard is checked on: the parent of an insert, else the op's node.
    public var guardedNode: String? {
        switch self {
        case .insert(let parent, _, _): return parent
        case .remove(let id), .move(let id, _, _), .update(let id, _): return id
        }
    }
}

/// An op with its optional per-node precondition (the node's revision must still be this).
public struct GuardedOp: Sendable, Equatable {
    public var op: TreeOp
    public var ifNodeRevision: Int?

    public init(_ op: TreeOp, ifNodeRevision: Int? = nil) {
        self.op = op
        self.ifNodeRevision = ifNodeRevision
    }

    /// Reads op `index` of a batch; errors name the op index and the field ("ops[2].set.alpha").
    public init(wire json: JSON, index: Int) throws(RPCError) {
        let path = "ops[\(index)]."
        do throws(RPCError) {
            var r = try ParamReader(json, path: path)
            let kind = try r.requiredString("op")
            ifNodeRevision = try r.int("ifNodeRevision")
            switch kind {
            case "insert":
                guard r.has("parent") else { throw r.error("parent", "is required (null creates a detached subtree)") }
                let parent = try r.string("parent")
                let index = try r.int("index")
                guard let node = r.raw("node"), node.objectMembers != nil else {
                    throw r.error("node", "is required and must be an object")
                }
                op = .insert(parent: parent, index: index, node: try NodeTree(document: node, path: path + "node"))
            case "remove":
                op = .remove(id: try r.requiredString("id"))
            case "move":
                let id = try r.requiredString("id")
                guard r.has("parent") else { throw r.error("parent", "is required (null detaches)") }
                op = .move(id: id, parent: try r.string("parent"), index: try r.int("index"))
            case "update":
                let id = try r.requiredString("id")
                guard let set = r.raw("set")?.objectMembers else {
                    throw r.error("set", "is required and must be an object")
                }
                op = .update(id: id, set: try NodeUpdate(members: set, id: id, path: path + "set."))
            default:
                throw r.error("op", "expected insert, remove, move or update, got \"\(kind)\"")
            }
            try r.finish()
        } catch {
            throw error.with("opIndex", JSON(index))
        }
    }

    /// The op as a client writes it (how the engine publishes the ops it makes itself, e.g. window.makeKey's).
    public func write(to w: inout JSONWriter) {
        w.beginObject()
        w.key("op"); w.string(op.name)
        switch op {
        case .insert(let parent, let index, let node):
            w.key("parent"); if let parent { w.string(parent) } else { w.null() }
            if let index { w.key("index"); w.number(Double(index)) }
            w.key("node"); node.write(to: &w)
        case .remove(let id):
            w.key("id"); w.string(id)
        case .move(let id, let parent, let index):
            w.key("id"); w.string(id)
            w.key("parent"); if let parent { w.string(parent) } else { w.null() }
            if let index { w.key("index"); w.number(Double(index)) }
        case .update(let id, let set):
            w.key("id"); w.string(id)
            w.key("set"); set.write(to: &w)
        }
        if let ifNodeRevision { w.key("ifNodeRevision"); w.number(Double(ifNodeRevision)) }
        w.endObject()
    }
}

/// The `ops` of `tree.apply`, kept exactly as the client sent them (what the `tree` event republishes) and read
/// into typed ops only when the handler asks: `ifRevision` is checked first, so an out-of-date batch is
/// REVISION_CONFLICT without a look at its ops (section 11).
public struct WireOps: Sendable, WireValue {
    /// Held, not stored: an op may carry a deep subtree, and this copy outlives the request's params.
    private let held: JSONHolder
    /// Ops built by a client in code (nil when they came off the wire and are yet to be read).
    private let typed: [GuardedOp]?

    public init(_ ops: [GuardedOp]) {
        typed = ops
        var w = JSONWriter()
        w.beginArray()
        for op in ops { op.write(to: &w) }
        w.endArray()
        held = JSONHolder((try? JSONCodec.decode(w.bytes, strings: KnownStrings.table)) ?? [])
    }

    public init(wire value: JSON, path: String) throws(RPCError) {
        guard value.arrayValue != nil else {
            throw RPCError(
                .invalidParams, "\(path): expected an array, got \(value.typeName)", [("field", .string(path))])
        }
        held = JSONHolder(value)
        typed = nil
    }

    public var wire: JSON { held.value }

    /// The ops as sent.
    public var sent: [JSON] { held.value.arrayValue ?? [] }

    /// The typed ops; errors name the op index and the field ("ops[2].set.alpha").
    public func read() throws(RPCError) -> [GuardedOp] {
        if let typed { return typed }
        var ops: [GuardedOp] = []
        ops.reserveCapacity(sent.count)
        for (i, op) in sent.enumerated() { ops.append(try GuardedOp(wire: op, index: i)) }
        return ops
    }
}

/// A member read only when the handler asks for it, after the checks that must come first (`tree.load`'s
/// `ifRevision`). A client that builds the request in code gives the value itself.
public struct Deferred<Value: WireValue & Sendable>: Sendable, WireValue {
    private enum Content: Sendable {
        case sent(JSONHolder, path: String)
        case value(Value)
    }
    private let content: Content

    public init(_ value: Value) { content = .value(value) }

    public init(wire value: JSON, path: String) throws(RPCError) { content = .sent(JSONHolder(value), path: path) }

    public var wire: JSON {
        switch content {
        case .sent(let held, _): return held.value
        case .value(let value): return value.wire
        }
    }

    public func read() throws(RPCError) -> Value {
        switch content {
        case .sent(let held, let path): return try Value(wire: held.value, path: path)
        case .value(let value): return value
        }
    }
}
