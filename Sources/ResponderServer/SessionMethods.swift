import Foundation
import ResponderCore
import ResponderJSON
import ResponderProtocol

/// session.create, session.list, session.delete, session.snapshot, session.clients.
enum SessionMethods {
    static func register(_ table: inout MethodTable) {
        table.add(SessionCreateRequest.self, create)
        table.add(SessionListRequest.self) { _, ctx in
            SessionListRequest.Response(
                sessions: ctx.state.sessions.keys.sorted().map { name in
                    let s = ctx.state.sessions[name]!
                    return .init(session: name, revision: s.revision, seq: s.seq, nodes: s.state.world.count)
                })
        }
        table.add(SessionDeleteRequest.self) { host, ctx in
            ctx.state.sessions[host.name] = nil
            ctx.state.journal?.deleted(host.name)
            ctx.state.publishSys(
                stream: "sessions",
                [("action", "deleted"), ("session", .string(host.name)), ("lastSeq", JSON(host.seq))])
            return SessionDeleteRequest.Response(session: host.name, deleted: true)
        }
        table.add(SessionSnapshotRequest.self) { _, host, ctx in
            EncodedResponse(snapshot(host, epoch: ctx.state.epoch))
        }
        table.add(SessionClientsRequest.self) { _, host, ctx in
            // libzmq does not tell a ROUTER when a peer goes away, so "attached" means: addressed this session
            // and sent a request within the idle window.
            let cutoff = Date().addingTimeInterval(-ctx.state.config.clientIdleSeconds)
            let attached = ctx.state.clients.values
                .filter { $0.attached.contains(host.name) && $0.lastSeen >= cutoff }
                .sorted { $0.id < $1.id }
            return SessionClientsRequest.Response(session: host.name, clients: attached.map(\.summary))
        }
    }

    static func checkName(_ name: String) throws(RPCError) {
        guard EngineConfig.isValidName(name) else {
            throw RPCError(.invalidParams, "session: session names match [A-Za-z0-9_-]{1,64}", [("field", "session")])
        }
    }

    static func create(_ r: SessionCreateRequest, _ ctx: inout RequestContext) throws(RPCError)
        -> any ResponseBody<SessionCreateRequest.Response>
    {
        let name = r.sessionName
        try checkName(name)
        try SessionOwnership.validate(r.owner)
        guard ctx.state.sessions[name] == nil else {
            throw RPCError(
                .sessionExists, "a session named \"\(name)\" exists", [("session", .string(name)), ("field", "session")]
            )
        }
        let maxSessions = ctx.state.config.bounds.maxSessions
        guard ctx.state.sessions.count < maxSessions else {
            throw RPCError(
                .limitExceeded,
                "the engine holds \(maxSessions) sessions, the most it keeps (--max-sessions); delete one first",
                [("limit", "sessions"), ("max", JSON(maxSessions))])
        }
        let profile = r.profile ?? .uikit
        var state = SessionState(world: World(), profile: profile)
        let detached = r.detached ?? []
        if ctx.prepared != nil || r.tree != nil || !detached.isEmpty {
            let root = r.tree ?? NodeTree(root: NodeSpec(id: World.rootID, kind: .application), path: "tree")
            _ = try ctx.load(into: &state) { (root, detached) }
        }
        let host = SessionHost(
            name: name, state: state, replayBuffer: ctx.state.config.replayBuffer,
            replayBytes: ctx.state.config.bounds.replayBytes, budget: ctx.state.replayBudget)
        host.ownerToken = r.owner
        ctx.state.sessions[name] = host
        ctx.client.attach(name)
        var published = SeqRange()
        ctx.publishLoaded(host, consequences: nil, &published)
        ctx.state.publishSys(stream: "sessions", [("action", "created"), ("session", .string(name))])
        return SessionCreateRequest.Response(
            session: name, revision: host.revision, seq: host.seq, seqRange: published.range, profile: profile)
    }

    /// Everything a joining client needs to start from; events with a greater seq come after it. The tree is
    /// written straight from the world (it may be huge), the rest through the typed reply's encoder.
    static func snapshot(_ host: SessionHost, epoch: String) -> [UInt8] {
        var w = JSONWriter(reservingCapacity: 1024)
        w.beginObject()
        w.key("session"); w.string(host.name)
        w.key("revision"); w.number(Double(host.revision))
        w.key("seq"); w.number(Double(host.seq))
        w.key("epoch"); w.string(epoch)
        w.key("tree"); w.raw(host.state.world.encoded())
        w.key("detached"); w.raw(host.state.world.encodedDetached())
        w.key("firstResponders"); w.value(host.state.firstResponders.wire)
        w.key("liveTouches"); w.value(WireEncoder.encode(host.state.liveTouches))
        w.key("livePresses"); w.value(WireEncoder.encode(host.state.livePresses))
        w.key("profile"); w.value(host.state.profile.wire)
        w.key("clock"); w.number(host.state.clock)
        w.key("recognizers"); w.value(WireEncoder.encode(host.state.recognizers))
        w.endObject()
        return w.takeBytes()
    }
}

extension MethodTable {
    /// A session method whose params are only `session`.
    mutating func add<R: SessionRequest>(
        _ type: R.Type,
        _ body: @escaping @Sendable (SessionHost, inout RequestContext) throws -> any ResponseBody<R.Response>
    ) {
        add(type) { (_: R, host: SessionHost, ctx: inout RequestContext) throws in try body(host, &ctx) }
    }
}
