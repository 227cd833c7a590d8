import ResponderCore
import ResponderProtocol

/// tree.get, tree.load, tree.apply.
enum TreeMethods {
    static let table: [String: Handler] = [
        "tree.get": get,
        "tree.load": load,
        "tree.apply": apply,
    ]

    static func get(_ ctx: inout RequestContext) throws(RPCError) -> ReplyBody {
        let host = try ctx.session()
        let id = try ctx.params.string("id") ?? World.rootID
        try ctx.params.finish()
        guard host.state.world[id] != nil else {
            throw RPCError(.nodeNotFound, "no node \"\(id)\"", [("id", .string(id)), ("field", "id")])
        }
        var w = JSONWriter(reservingCapacity: 1024)
        w.beginObject()
        w.key("revision"); w.number(Double(host.revision))
        w.key("seq"); w.number(Double(host.seq))
        w.key("tree"); host.state.world.write(id, to: &w)
        w.endObject()
        return .encoded(w.bytes)
    }

    static func load(_ ctx: inout RequestContext) throws(RPCError) -> ReplyBody {
        let host = try ctx.session()
        guard let tree = ctx.params.raw("tree"), !tree.isNull else { throw ctx.params.error("tree", "is required") }
        let detached = try ctx.params.array("detached") ?? []
        let ifRevision = try ctx.params.int("ifRevision")
        try ctx.params.finish()
        if let expected = ifRevision, expected != host.revision {
            throw RPCError(.revisionConflict, "the tree is at revision \(host.revision), not \(expected)", [("revision", JSON(host.revision)), ("expected", JSON(expected))])
        }
        let change = try host.state.load(tree: tree, detached: detached, limits: ctx.state.config.limits)
        var published = Published()
        ctx.publishLoaded(host, consequences: change.consequences, &published)
        return .json(.object([("revision", JSON(host.revision))] + published.members(session: host)))
    }

    static func apply(_ ctx: inout RequestContext) throws(RPCError) -> ReplyBody {
        let host = try ctx.session()
        guard let opsJSON = try ctx.params.array("ops") else { throw ctx.params.error("ops", "is required") }
        let ifRevision = try ctx.params.int("ifRevision")
        try ctx.params.finish()
        var ops: [GuardedOp] = []
        ops.reserveCapacity(opsJSON.count)
        for (i, op) in opsJSON.enumerated() { ops.append(try GuardedOp.parse(op, index: i)) }
        let change = try host.state.apply(ops, ifRevision: ifRevision, limits: ctx.state.config.limits)
        var published = Published()
        ctx.publishApplied(change, host, &published)
        return .json(.object([("revision", JSON(host.revision))] + published.members(session: host)))
    }
}
