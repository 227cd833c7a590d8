import ResponderCore
import ResponderJSON
import ResponderProtocol

/// tree.get, tree.load, tree.apply.
enum TreeMethods {
    static func register(_ table: inout MethodTable) {
        table.add(TreeGetRequest.self) { (r, host, _) throws(RPCError) in
            let id = r.id ?? World.rootID
            guard host.state.world[id] != nil else {
                throw RPCError.noNode(id, field: "id")
            }
            var w = JSONWriter(reservingCapacity: 1024)
            w.beginObject()
            w.key("revision"); w.number(Double(host.revision))
            w.key("seq"); w.number(Double(host.seq))
            w.key("tree"); host.state.world.write(id, to: &w)
            w.endObject()
            return EncodedResponse(w.takeBytes())
        }
        table.add(TreeLoadRequest.self) { (r, host, ctx) throws(RPCError) in
            try checkRevision(r.ifRevision, host)
            let change = try ctx.load(into: &host.state) { () throws(RPCError) in try r.world() }
            var published = SeqRange()
            ctx.publishLoaded(host, consequences: change.consequences, &published)
            return published.reply(Empty(), host, revision: host.revision)
        }
        table.add(TreeApplyRequest.self) { (r, host, ctx) throws(RPCError) in
            // Section 11: an out-of-date batch is a conflict before any op is read.
            try checkRevision(r.ifRevision, host)
            if r.isDryRun {
                // What if: applied to a copy; the reply has the revision it would reach and, when the batch
                // would have dispatch consequences (12.6), the trace that would be published.
                var copy = host.state
                let ops = try r.ops.read()
                let change = try core { () throws(CoreError) in
                    try copy.apply(ops, ifRevision: r.ifRevision, limits: ctx.state.config.limits)
                }
                return Published(
                    Empty(), revision: copy.world.revision, seq: host.seq, seqRange: nil,
                    consequences: change.consequences, dryRun: true)
            }
            let ops = try r.ops.read()
            let change = try core { () throws(CoreError) in
                try host.state.apply(ops, ifRevision: r.ifRevision, limits: ctx.state.config.limits)
            }
            var published = SeqRange()
            ctx.publishApplied(change, sent: r.ops.sent, host, &published)
            ctx.publishDispatchChanges(host, &published)  // a control's touchCancel action may edit (K6)
            return published.reply(Empty(), host, revision: host.revision)
        }
    }

    static func checkRevision(_ expected: Int?, _ host: SessionHost) throws(RPCError) {
        if let expected, expected != host.revision {
            throw RPCError(
                .revisionConflict, "the tree is at revision \(host.revision), not \(expected)",
                [("revision", JSON(host.revision)), ("expected", JSON(expected))])
        }
    }
}
