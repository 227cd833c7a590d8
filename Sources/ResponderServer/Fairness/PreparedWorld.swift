import ResponderCore
import ResponderJSON
import ResponderProtocol

/// The world of a tree.load or session.create read and validated off the engine thread, or the error that
/// reading found (raised by the handler in its usual place, after the session and revision checks).
///
/// A box the handler takes the world out of: the request, its context and the handler each hold it, and a
/// world still shared with any of them is copied whole (a million nodes) the first time the session changes it.
///
/// Sendable by hand-over: the reader thread fills it before the request is queued and never touches it again;
/// from then on only the engine thread reads or takes the world.
final class PreparedWorld: @unchecked Sendable {
    private var world: Result<World, RPCError>?

    init(world: Result<World, RPCError>) { self.world = world }

    /// The world (or the error), once: on the engine thread, by the handler that loads it.
    func take() throws(RPCError) -> World {
        guard let result = world.take() else { throw RPCError(.internalError, "the prepared world was already loaded") }
        return try result.get()
    }
}

extension ParsedRequest {
    /// Reads a large body the way the engine thread would, and for a tree.load or session.create also builds
    /// and validates its world, pure and detached from any session. The tree members are then dropped from
    /// the params (freed here, not on the engine thread); the handler uses the prepared world instead.
    static func prepare(_ body: [UInt8], limits: Limits, leftovers: Leftovers) -> ParsedRequest {
        if body.count <= limits.maxMessageBytes,
            let plain = preparePlain(NormalizedText.json(body), limits: limits, leftovers: leftovers)
        {
            return plain
        }
        var request: RPCRequest
        switch RequestProcessor.parse(body, limits: limits) {
        case .request(let r, _): request = r
        case let other: return other
        }
        let world: Result<World, RPCError>
        // What replaces the tree members: a stand-in tree.load still reads; nothing for session.create.
        let standIn: JSON
        do throws(RPCError) {
            switch request.method {
            case TreeLoadRequest.method:
                let r = try WireDecoder.decode(TreeLoadRequest.self, from: request.params)
                world = Result { () throws(RPCError) in
                    let w = try r.world()
                    leftovers.keep(w)
                    return try core { () throws(CoreError) in
                        try World.prepared(tree: w.tree, detached: w.detached, limits: limits)
                    }
                }
                leftovers.keep(r)
                standIn = ["id": .string(World.rootID), "kind": "application"]
            case SessionCreateRequest.method:
                let r = try WireDecoder.decode(SessionCreateRequest.self, from: request.params)
                guard r.tree != nil || !(r.detached ?? []).isEmpty else { return .request(request, prepared: nil) }
                let root = r.tree ?? NodeTree(root: NodeSpec(id: World.rootID, kind: .application), path: "tree")
                world = Result { () throws(RPCError) in
                    try core { () throws(CoreError) in
                        try World.prepared(tree: root, detached: r.detached ?? [], limits: limits)
                    }
                }
                standIn = .null
            default:
                return .request(request, prepared: nil)
            }
        } catch {
            return .refused(request, error)
        }
        let original = request.params
        request.params = original.setting("tree", standIn).setting("detached", .null)
        leftovers.keep(json: original)
        return .request(request, prepared: PreparedWorld(world: world))
    }
}

extension ParsedRequest {
    /// The stand-in for a tree read apart: what the handler's request still holds in its place.
    private static let standIn = Array(#"{"id":"\#(World.rootID)","kind":"application"}"#.utf8)

    /// A tree.load or session.create whose tree `PlainTree` reads from the text (a million-node tree parsed into a
    /// `JSON` tree, read and freed takes ≈ 2.9 s more here); the rest of the request is read by the general
    /// reader, with the stand-in in the tree's place. The tree is placed as it is read when it can be
    /// (`prepareStreamed`), and read into a node list first otherwise. nil: `prepare` reads it all the general
    /// way — also when the rest is refused, so that a refusal is worded as it always is.
    static func preparePlain(_ body: [UInt8], limits: Limits, leftovers: Leftovers) -> ParsedRequest? {
        var streamed = false
        if let request = prepareStreamed(body, limits: limits, leftovers: leftovers, tried: &streamed) {
            return request
        }
        // Read again only when the stream got as far as the tree: a request it leaves before then, this way
        // leaves too.
        guard streamed else { return nil }
        guard
            let split = PlainTree.split(
                request: body, methods: [TreeLoadRequest.method, SessionCreateRequest.method],
                standIn: standIn, maxDepth: limits.maxDepth)
        else { return nil }
        // The rest is short, but read into a tree whatever its size: the handler's request holds its params as one.
        guard case .request(let request, _) = RequestProcessor.parseTree(split.request, limits: limits) else {
            return nil
        }
        let tree = split.tree
        leftovers.keep(tree)
        // The detached subtrees after the tree, as the general way reads them; the tree read here is the one
        // `NodeTree(document:)` would have read.
        let world: Result<World, RPCError>
        if split.method == TreeLoadRequest.method {
            guard let r = try? WireDecoder.decode(TreeLoadRequest.self, from: request.params) else { return nil }
            leftovers.keep(r)
            world = Result { () throws(RPCError) in
                let detached = try r.world().detached
                return try core { () throws(CoreError) in
                    try World.prepared(tree: tree, detached: detached, limits: limits)
                }
            }
        } else {
            guard let r = try? WireDecoder.decode(SessionCreateRequest.self, from: request.params) else { return nil }
            world = Result { () throws(RPCError) in
                try core { () throws(CoreError) in
                    try World.prepared(tree: tree, detached: r.detached ?? [], limits: limits)
                }
            }
        }
        return handOver(request, method: split.method, world: world, leftovers: leftovers)
    }

    /// The request with its tree and detached subtrees read apart, holding the world they make.
    fileprivate static func handOver(
        _ request: RPCRequest, method: String, world: Result<World, RPCError>, leftovers: Leftovers
    ) -> ParsedRequest {
        var request = request
        let original = request.params
        // As the general way leaves them: tree.load's handler still reads its (stand-in) tree, session.create's none.
        let standInTree = method == TreeLoadRequest.method ? original["tree"] ?? .null : .null
        request.params = original.setting("tree", standInTree).setting("detached", .null)
        leftovers.keep(json: original)
        return .request(request, prepared: PreparedWorld(world: world))
    }
}

extension ParsedRequest {
    /// A tree.load or session.create whose tree is placed in its world as its text is read (`StreamedLoad`): no
    /// node list of the whole between, which at a million views is 160 MB and the pages the kernel clears for
    /// it. Taken when every node's `children` come last (as `tree.get` and the state's snapshots write them) and
    /// the world accepts the tree; nil for anything else, `tried` then telling whether the tree was reached, so
    /// that `preparePlain` reads it again as a node list (which words any refusal) only then.
    static func prepareStreamed(_ body: [UInt8], limits: Limits, leftovers: Leftovers, tried: inout Bool)
        -> ParsedRequest?
    {
        guard
            var split = StreamedLoad.split(
                request: body, methods: [TreeLoadRequest.method, SessionCreateRequest.method], standIn: standIn,
                limits: limits, reached: &tried),
            case .request(let request, _) = RequestProcessor.parseTree(split.request, limits: limits)
        else { return nil }
        let detached: [NodeTree]
        if split.method == TreeLoadRequest.method {
            guard let r = try? WireDecoder.decode(TreeLoadRequest.self, from: request.params),
                let world = try? r.world()
            else { return nil }
            leftovers.keep(r)
            detached = world.detached
        } else {
            guard let r = try? WireDecoder.decode(SessionCreateRequest.self, from: request.params) else { return nil }
            detached = r.detached ?? []
        }
        guard let world = split.load.world(detached: detached) else { return nil }
        return handOver(request, method: split.method, world: .success(world), leftovers: leftovers)
    }
}

/// What reading a large request leaves to free (the parsed document, the node list), freed by the reader after
/// it has handed the request over: a million-node load's leftovers take a fifth of a second to free, and the
/// engine need not wait for that.
final class Leftovers {
    private var kept: [Any] = []
    private var documents: [JSON] = []

    func keep(_ value: Any) { kept.append(value) }
    func keep(json: JSON) { documents.append(json) }

    /// Frees what was kept, documents iteratively (however deep).
    func release() {
        kept.removeAll()
        for i in documents.indices { JSON.release(&documents[i]) }
        documents.removeAll()
    }
}

extension RequestContext {
    /// Loads a world into `state`: the one prepared off the engine thread, or the one `read` gives.
    func load(into state: inout SessionState, _ read: () throws(RPCError) -> (tree: NodeTree, detached: [NodeTree]))
        throws(RPCError) -> TreeChange
    {
        if let prepared { return state.load(prepared: try prepared.take()) }
        let world = try read()
        return try core { () throws(CoreError) in
            try state.load(tree: world.tree, detached: world.detached, limits: self.state.config.limits)
        }
    }
}
