import ResponderCore
import ResponderProtocol

/// The UIKit dispatch methods. Queries answer without side effects; dispatching methods publish their
/// trace on `<session>/trace` (first-responder changes also on `<session>/focus`) and return the same trace.
enum DispatchMethods {
    static func register(_ table: inout MethodTable) {
        table.add(HitTestRequest.self) { r, host, _ in .typed(host.state.hitTest(at: r.point)) }
        table.add(ResponderChainRequest.self) { (r, host, _) throws(RPCError) in .typed(try host.state.responderChain(from: r.id)) }
        table.add(FirstResponderRequest.self) { (r, host, _) throws(RPCError) in .typed(try host.state.firstResponder(window: r.window)) }
        table.add(CanPerformRequest.self) { (r, host, _) throws(RPCError) in .typed(try host.state.canPerformAction(r.action, sender: r.sender)) }
        dispatch(&table, TouchRequest.self) { (r, s, client) throws(RPCError) in try s.touch(r.touches, tapCount: r.tapCount ?? 1, client: client) }
        dispatch(&table, TapRequest.self) { (r, s, client) throws(RPCError) in try s.tap(at: r.point, tapCount: r.tapCount ?? 1, time: r.time, client: client) }
        dispatch(&table, ClockAdvanceRequest.self) { (r, s, _) throws(RPCError) in try s.advanceClock(to: r.to, by: r.by) }
        dispatch(&table, PressRequest.self) { (r, s, client) throws(RPCError) in try s.press(r.press, key: r.key, phase: r.phase, client: client) }
        dispatch(&table, MotionRequest.self) { r, s, _ in s.motion(r.subtype ?? .shake, phase: r.phase) }
        dispatch(&table, RemoteControlRequest.self) { r, s, _ in s.remoteControl(r.subtype) }
        dispatch(&table, BecomeRequest.self) { (r, s, _) throws(RPCError) in try s.become(r.id) }
        dispatch(&table, ResignRequest.self) { (r, s, _) throws(RPCError) in try s.resign(r.id) }
        dispatch(&table, SendActionRequest.self) { (r, s, _) throws(RPCError) in try s.sendAction(r.action, target: r.target, sender: r.sender) }
        table.add(MakeKeyRequest.self, makeKey)
    }

    /// A method that dispatches: the state changes (or the request fails and nothing does), and the trace
    /// is published and returned beside the outcome. The reply is encoded once and its `trace` member is what
    /// gets published (12.2: the two are equal), rather than encoding the trace twice.
    static func dispatch<R: DryRunnable, Outcome>(
        _ table: inout MethodTable, _ type: R.Type,
        _ body: @escaping @Sendable (R, inout SessionState, String) throws(RPCError) -> Traced<Outcome>
    ) where R.Response == Published<Traced<Outcome>> {
        table.add(type) { (request: R, host: SessionHost, ctx: inout RequestContext) throws -> Reply<R.Response> in
            if request.isDryRun {
                // What if: the same dispatch on a copy of the (value-typed) state; nothing is kept or published.
                var copy = host.state
                let traced = try body(request, &copy, ctx.client.id)
                return .json(WireEncoder.encode(traced).setting("seq", JSON(host.seq)).setting("seqRange", .null).setting("dryRun", true))
            }
            let traced = try body(request, &host.state, ctx.client.id)
            let reply = WireEncoder.encode(traced)
            var published = SeqRange()
            ctx.publish(trace: reply["trace"] ?? .null, focus: traced.trace.focusChanges, host, &published,
                        request: requestMember(R.method, request))
            return .json(reply.setting("seq", JSON(host.seq)).setting("seqRange", published.rangeJSON))
        }
    }

    /// The `request` member of a dispatch's trace event (13.2): its method and params as the engine read them,
    /// without `session` (the topic names it) and `dryRun`, so a recording can re-send it to another session.
    static func requestMember<R: DryRunnable>(_ method: String, _ request: R) -> JSON {
        var params = WireEncoder.encode(request)
        if case .object(let members) = params { params = .object(members.filter { $0.key != "session" && $0.key != "dryRun" && !$0.value.isNull }) }
        return ["method": .string(method), "params": params]
    }

    /// F4: applied as a tree batch; its trace is returned, not published.
    static func makeKey(_ r: MakeKeyRequest, _ host: SessionHost, _ ctx: inout RequestContext) throws(RPCError) -> Reply<MakeKeyRequest.Response> {
        if r.isDryRun {
            var copy = host.state
            let (_, traced) = try copy.makeKey(r.id)
            return .json(WireEncoder.encode(Published(traced, revision: copy.world.revision, seq: host.seq, seqRange: nil)).setting("dryRun", true))
        }
        let (change, traced) = try host.state.makeKey(r.id)
        var published = SeqRange()
        ctx.publishApplied(change, host, &published)
        return .typed(published.reply(traced, host, revision: host.revision))
    }
}
