import ResponderProtocol

/// One session's world, dispatch profile and live dispatch state (touches, presses, control tracking,
/// first responders). Pure and deterministic: every request is a function of the state and its params.
public struct SessionState: Sendable {
    public private(set) var world: World
    public let profile: Profile

    /// T1: live touches in the order they began.
    var touches: [LiveTouch] = []
    /// E2: live presses in the order they began.
    var presses: [LivePress] = []
    /// T3: tracking controls by touch key.
    var tracking: [String: ControlTrack] = [:]
    /// F4: each window's first responder.
    var firstResponderByWindow: [String: String] = [:]
    /// Source of fresh ids for `tap`.
    var tapCounter = 0

    public init(world: World = World(), profile: Profile = .uikit) {
        self.world = world
        self.profile = profile
    }

    // MARK: - Tree changes

    /// Applies a batch atomically, then works out what it did to live touches, presses and first
    /// responders (T6, F6).
    public mutating func apply(_ ops: [GuardedOp], ifRevision: Int?, limits: Limits) throws(RPCError) -> TreeChange {
        // Only a remove or a move can take a node out of its window (T6, E2, F6), and only live touches,
        // presses and first responders can be affected. Otherwise skip keeping the old world: holding it
        // would make the batch copy the whole world instead of changing it in place.
        let mayLeave = ops.contains {
            switch $0.op {
            case .remove, .move: return true
            case .insert, .update: return false
            }
        }
        guard mayLeave, !touches.isEmpty || !presses.isEmpty || !firstResponderByWindow.isEmpty else {
            let batch = try world.apply(ops, ifRevision: ifRevision, limits: limits)
            return TreeChange(batch: batch, ops: ops.map(\.json), consequences: nil)
        }
        let before = world
        let batch = try world.apply(ops, ifRevision: ifRevision, limits: limits)
        let consequences = reconcile(before: before)
        return TreeChange(batch: batch, ops: ops.map(\.json), consequences: consequences)
    }

    /// Replaces the world. `ops` is empty: the server publishes the whole tree for a load. `removed` lists
    /// the ids that no longer exist, sorted; `changed` every id of the new world, parents first.
    public mutating func load(tree: JSON, detached: [JSON], limits: Limits) throws(RPCError) -> TreeChange {
        let before = world
        try world.load(tree: tree, detached: detached, limits: limits)
        let removed = before.nodes.keys.filter { world.nodes[$0] == nil }.sorted()
        var changed = world.subtree(World.rootID)
        for root in world.detachedRoots { changed.append(contentsOf: world.subtree(root)) }
        let consequences = reconcile(before: before)
        return TreeChange(batch: AppliedBatch(revision: world.revision, removed: removed, changed: changed), ops: [], consequences: consequences)
    }

    /// F4: makes `id` the key window with one batch of `update key` ops (the old key window first).
    public mutating func makeKey(_ params: JSON) throws(RPCError) -> TreeChange {
        let id = try targetNode(params)
        let node = world[id]!
        guard node.kind == .window else {
            throw RPCError(.wrongKind, "\"\(id)\" is a \(node.kind.rawValue), not a window", [("id", .string(id)), ("kind", .string(node.kind.rawValue))])
        }
        guard world.isAttached(id) else {
            throw RPCError(.invalidParams, "window \"\(id)\" is detached; only an attached window can be key", [("field", "id"), ("id", .string(id))])
        }
        var ops: [GuardedOp] = []
        for w in world.windows where w != id && world[w]!.key {
            ops.append(try GuardedOp.parse(["op": "update", "id": .string(w), "set": ["key": false]], index: ops.count))
        }
        ops.append(try GuardedOp.parse(["op": "update", "id": .string(id), "set": ["key": true]], index: ops.count))
        return try apply(ops, ifRevision: nil, limits: .default)
    }

    // MARK: - Queries

    /// F4: `{windowId: responderId | null}` for every attached window, in window order.
    public var firstResponders: JSON {
        .object(world.windows.map { (key: $0, value: JSON(firstResponderByWindow[$0])) })
    }

    /// `[{touch, client, view, window, phase}]` in the order the touches began.
    public var liveTouches: JSON { .array(touches.map(\.json)) }

    /// `[{press, client, key, responder, window, phase}]` in the order the presses began.
    public var livePresses: JSON { .array(presses.map(\.json)) }

    /// `{point: [x, y]}` → `{window, view, localPoint, visited, trace}`; no side effects. The trace (kind
    /// `hitTest`) has one `hitTest` step per view asked (H8), as a touch's began does.
    public func hitTest(_ params: JSON) throws(RPCError) -> JSON {
        var r = try ParamReader(params)
        _ = r.raw("session")
        guard let (x, y) = try r.point("point") else { throw r.error("point", "is required") }
        try r.finish()
        var tester = HitTester(world: world, profile: profile)
        let hit = tester.run(screen: Point(x, y))
        var trace = Trace(kind: "hitTest")
        for v in hit.visits { trace.add(.object([("step", "hitTest")] + v.json.objectMembers!)) }
        if hit.view == nil { trace.discard("hitTest", reason: "no-hit", rule: "H1") }
        return Self.withTrace(trace.finish(hit.json))
    }

    /// `{id}` → `{chain: [ids], trace}` starting with `id` (N1–N4). The trace (kind `responderChain`) has one
    /// `next` step per hop, `{step: "next", from, to, rule}`, `to` null at the end of the chain (N3).
    public func responderChain(_ params: JSON) throws(RPCError) -> JSON {
        let id = try targetNode(params)
        let chain = world.responderChain(from: id)
        var trace = Trace(kind: "responderChain")
        for (i, from) in chain.enumerated() {
            let to: String? = i + 1 < chain.count ? chain[i + 1] : world.nextResponder(of: from)
            trace.add(["step": "next", "from": .string(from), "to": JSON(to), "rule": .string(Self.nextRule(world[from]!.kind))])
        }
        return Self.withTrace(trace.finish(["chain": JSON(chain)]))
    }

    /// The rule that gives a node's next responder: N1 views, N2 view controllers, N3 the rest.
    static func nextRule(_ kind: NodeKind) -> String {
        switch kind {
        case .view, .control, .textField, .textView: return "N1"
        case .viewController: return "N2"
        case .window, .application, .appDelegate: return "N3"
        }
    }

    /// A query's reply: its outcome members at the top level, then `trace` (section 12 of the protocol).
    static func withTrace(_ d: Dispatch) -> JSON {
        .object((d.result.objectMembers ?? []) + [("trace", d.trace)])
    }

    /// `{window?}` → the window's first responder id or null; default: the key window's (F4).
    public func firstResponder(_ params: JSON) throws(RPCError) -> JSON {
        var r = try ParamReader(params)
        _ = r.raw("session")
        let window = try r.string("window")
        try r.finish()
        if let window {
            let node = try existing(window, field: "window")
            guard node.kind == .window else {
                throw RPCError(.wrongKind, "\"\(window)\" is a \(node.kind.rawValue), not a window", [("id", .string(window)), ("field", "window"), ("kind", .string(node.kind.rawValue))])
            }
            return JSON(firstResponderByWindow[window])
        }
        return JSON(keyFirstResponder)
    }

    // MARK: - Helpers

    /// Reads params `{id}` (plus the server's `session`) naming an existing node.
    func targetNode(_ params: JSON) throws(RPCError) -> String {
        var r = try ParamReader(params)
        _ = r.raw("session")
        let id = try r.requiredString("id")
        try r.finish()
        _ = try existing(id)
        return id
    }

    func existing(_ id: String, field: String = "id") throws(RPCError) -> Node {
        guard let node = world[id] else {
            throw RPCError(.nodeNotFound, "no node \"\(id)\"", [("id", .string(id)), ("field", .string(field))])
        }
        return node
    }

    /// F4: the key window's first responder.
    var keyFirstResponder: String? {
        guard let key = world.keyWindow else { return nil }
        return firstResponderByWindow[key]
    }
}
