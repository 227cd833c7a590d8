import Foundation
import ResponderCore
import ResponderProtocol

/// session.create, session.list, session.delete, session.snapshot, session.clients.
enum SessionMethods {
    static let table: [String: Handler] = [
        "session.create": create,
        "session.list": list,
        "session.delete": delete,
        "session.snapshot": snapshot,
        "session.clients": clients,
    ]

    static func validName(_ ctx: RequestContext, _ name: String) throws(RPCError) {
        guard EngineConfig.isValidName(name) else {
            throw ctx.params.error("session", "session names match [A-Za-z0-9_-]{1,64}")
        }
    }

    static func create(_ ctx: inout RequestContext) throws(RPCError) -> ReplyBody {
        let name = try ctx.params.session()
        try validName(ctx, name)
        let profileJSON = ctx.params.raw("profile")
        let tree = ctx.params.raw("tree")
        let detached = try ctx.params.array("detached") ?? []
        try ctx.params.finish()
        guard ctx.state.sessions[name] == nil else {
            throw RPCError(.sessionExists, "a session named \"\(name)\" exists", [("session", .string(name)), ("field", "session")])
        }
        let profile = try profileJSON.map { (p) throws(RPCError) in try Profile(json: p) } ?? .uikit
        var state = SessionState(world: World(), profile: profile)
        if tree?.isNull == false || !detached.isEmpty {
            let root = tree.flatMap { $0.isNull ? nil : $0 } ?? ["id": .string(World.rootID), "kind": "application"]
            _ = try state.load(tree: root, detached: detached, limits: ctx.state.config.limits)
        }
        let host = SessionHost(name: name, state: state, replayBuffer: ctx.state.config.replayBuffer)
        ctx.state.sessions[name] = host
        ctx.client.attached.insert(name)
        var published = Published()
        ctx.publishLoaded(host, consequences: nil, &published)
        ctx.state.publishSys(stream: "sessions", [("action", "created"), ("session", .string(name))])
        return .json(.object([("session", .string(name)), ("revision", JSON(host.revision))] + published.members(session: host)
                             + [("profile", profile.json)]))
    }

    static func list(_ ctx: inout RequestContext) throws(RPCError) -> ReplyBody {
        try ctx.params.finish()
        let sessions = ctx.state.sessions.keys.sorted().map { name -> JSON in
            let s = ctx.state.sessions[name]!
            return ["session": .string(name), "revision": JSON(s.revision), "seq": JSON(s.seq), "nodes": JSON(s.state.world.count)]
        }
        return .json(["sessions": .array(sessions)])
    }

    static func delete(_ ctx: inout RequestContext) throws(RPCError) -> ReplyBody {
        let host = try ctx.session()
        try ctx.params.finish()
        ctx.state.sessions[host.name] = nil
        ctx.state.publishSys(stream: "sessions", [("action", "deleted"), ("session", .string(host.name)), ("lastSeq", JSON(host.seq))])
        return .json(["session": .string(host.name), "deleted": true])
    }

    /// Everything a joining client needs to start from; events with a greater seq come after it.
    static func snapshot(_ ctx: inout RequestContext) throws(RPCError) -> ReplyBody {
        let host = try ctx.session()
        try ctx.params.finish()
        var w = JSONWriter(reservingCapacity: 1024)
        w.beginObject()
        w.key("session"); w.string(host.name)
        w.key("revision"); w.number(Double(host.revision))
        w.key("seq"); w.number(Double(host.seq))
        w.key("tree"); w.raw(host.state.world.encoded())
        w.key("detached"); w.raw(host.state.world.encodedDetached())
        w.key("firstResponders"); w.value(host.state.firstResponders)
        w.key("liveTouches"); w.value(host.state.liveTouches)
        w.key("livePresses"); w.value(host.state.livePresses)
        w.key("profile"); w.value(host.state.profile.json)
        w.endObject()
        return .encoded(w.bytes)
    }

    static func clients(_ ctx: inout RequestContext) throws(RPCError) -> ReplyBody {
        let host = try ctx.session()
        try ctx.params.finish()
        // libzmq does not tell a ROUTER when a peer goes away, so "attached" means: addressed this session
        // and sent a request within the idle window.
        let cutoff = Date().addingTimeInterval(-ctx.state.config.clientIdleSeconds)
        let attached = ctx.state.clients.values
            .filter { $0.attached.contains(host.name) && $0.lastSeen >= cutoff }
            .sorted { $0.id < $1.id }
        return .json(["session": .string(host.name), "clients": .array(attached.map(\.json))])
    }
}
