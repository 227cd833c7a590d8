import ResponderCore
import ResponderJSON
import ResponderProtocol

/// The UIKit dispatch methods. Queries answer without side effects; dispatching methods publish their
/// trace on `<session>/trace` (first-responder changes also on `<session>/focus`) and return the same trace,
/// unless the request says `trace: "none"` (1.8): then the reply leaves it out and the event is unchanged.
enum DispatchMethods {
    static func register(_ table: inout MethodTable) {
        table.add(HitTestRequest.self, quick: HitTestRequest.init(quick:)) { r, host, _ in
            if host.state.profile.model != .uikit {
                try core { () throws(CoreError) in try host.state.requireUIKit(HitTestRequest.method) }
            }
            host.hitTest(at: r.point)
            return HitTestBody(host: host, withTrace: r.wantsTrace)
        }
        table.add(ResponderChainRequest.self) { (r, host, _) throws(RPCError) in
            let traced = try host.query { (s) throws(RPCError) in
                try core { () throws(CoreError) in
                    try s.requireUIKit("responderChain")
                    return try s.responderChain(from: r.id)
                }
            }
            guard r.wantsTrace else { return EncodedResponse(WireByteEncoder.encode(traced.outcome, capacity: 256)) }
            return traced
        }
        table.add(FirstResponderRequest.self, quick: FirstResponderRequest.init(quick:)) {
            (r, host, _) throws(RPCError) in
            try host.query { (s) throws(RPCError) in
                try core { () throws(CoreError) in try s.firstResponder(window: r.window) }
            }
        }
        table.add(CanPerformRequest.self) { (r, host, _) throws(RPCError) in
            let traced = try host.query { (s) throws(RPCError) in
                try core { () throws(CoreError) in
                    try s.requireUIKit(CanPerformRequest.method)
                    return try s.canPerformAction(r.action, sender: r.sender)
                }
            }
            guard r.wantsTrace else { return EncodedResponse(traced.outcome.untracedReply) }
            return traced
        }
        table.add(WhyNotRequest.self) { (r, host, _) throws(RPCError) in
            try host.query { (s) throws(RPCError) in
                try core { () throws(CoreError) in
                    try s.requireUIKit("whyNot")
                    return try s.whyNot(r.view, r.question, area: r.area == true)
                }
            }
        }
        dispatch(&table, TouchRequest.self) { (r, s, client) throws(CoreError) in
            try s.touch(r.touches, tapCount: r.tapCount ?? 1, client: client)
        }
        dispatch(&table, TapRequest.self, quick: TapRequest.init(quick:)) { (r, s, client) throws(CoreError) in
            try s.tap(at: r.point, tapCount: r.tapCount ?? 1, time: r.time, client: client)
        }
        dispatch(&table, ClockAdvanceRequest.self) { (r, s, _) throws(CoreError) in
            try s.advanceClock(to: r.to, by: r.by)
        }
        dispatch(&table, PressRequest.self) { (r, s, client) throws(CoreError) in
            try s.press(r.press, key: r.key, modifiers: r.modifiers ?? [], phase: r.phase, client: client)
        }
        dispatch(&table, MotionRequest.self) { (r, s, _) throws(CoreError) in
            try s.requireUIKit(MotionRequest.method)
            return s.motion(r.subtype ?? .shake, phase: r.phase)
        }
        dispatch(&table, RemoteControlRequest.self) { (r, s, _) throws(CoreError) in
            try s.requireUIKit(RemoteControlRequest.method)
            return s.remoteControl(r.subtype)
        }
        dispatch(&table, BecomeRequest.self) { (r, s, _) throws(CoreError) in try s.become(r.id) }
        dispatch(&table, ResignRequest.self) { (r, s, _) throws(CoreError) in try s.resign(r.id) }
        dispatch(&table, EndEditingRequest.self) { (r, s, _) throws(CoreError) in
            try s.requireUIKit(EndEditingRequest.method)
            return try s.endEditing(r.id, force: r.force ?? false)
        }
        dispatch(&table, SendActionRequest.self) { (r, s, _) throws(CoreError) in
            try s.requireUIKit(SendActionRequest.method)
            return try s.sendAction(r.action, target: r.target, sender: r.sender)
        }
        dispatch(&table, MenuItemRequest.self) { (r, s, _) throws(CoreError) in
            try s.menuItem(r.item, menu: r.menu ?? .options, view: r.view)
        }
        table.add(MakeKeyRequest.self, makeKey)
    }

    /// A method that dispatches: the state changes (or the request fails and nothing does), and the trace
    /// is published and returned beside the outcome. The trace is encoded once, straight to bytes: the event
    /// carries those bytes and the reply copies them (`DispatchBody`).
    static func dispatch<R: DryRunnable & TraceSelecting, Outcome>(
        _ table: inout MethodTable, _ type: R.Type, quick: (@Sendable (PlainParams) -> R?)? = nil,
        _ body: @escaping @Sendable (R, inout SessionState, String) throws(CoreError) -> Traced<Outcome>
    ) where R.Response == Published<Traced<Outcome>> {
        table.add(type, quick: quick) {
            (request: R, host: SessionHost, ctx: inout RequestContext) throws -> any ResponseBody<R.Response> in
            // Touches and presses belong to a client id: only the connection holding it dispatches under it.
            guard ctx.holdsClientID else { throw ClientClaims.inUse(ctx.client) }
            let withTrace = request.wantsTrace
            if request.isDryRun {
                // What if: the same dispatch on a copy of the (value-typed) state; nothing is kept or published.
                // The reply is a live one's, with no seq range and `dryRun`.
                var copy = host.state
                let traced = try core { () throws(CoreError) in try body(request, &copy, ctx.client.id) }
                return DispatchBody(
                    trace: DispatchBody.traceBody(traced), seq: host.seq, seqRange: nil, withTrace: withTrace,
                    dryRun: true)
            }
            var traced = try core { () throws(CoreError) in try body(request, &host.state, ctx.client.id) }
            var published = SeqRange()
            ctx.publishDispatchChanges(host, &published)
            if !withTrace, !ctx.state.sink.mayDeliver(topic: host.topic("trace")) {
                // Nobody reads the trace now: the reply is the outcome alone, and the replay ring keeps the trace
                // unwritten, to be written (the same bytes) only if `trace.replay` asks for it.
                let recorded = request.withoutTrace
                ctx.publishUnwritten(
                    traced, method: R.method, request: { requestMember(R.method, recorded) }, host, &published)
                // A touch's outcome is written into the reply in place (`dispatch` is specialised per outcome, so
                // this cast is decided when it is compiled).
                if let touch = traced.outcome as? TouchOutcome {
                    return UntracedTouchBody<Outcome>(outcome: touch, seq: host.seq, seqRange: published.range)
                }
                // Room for an outcome as large as a tap's (≈ 1 KB) and what its writers reserve beyond it, each
                // string's room reckoned for the worst escapes, so that the writer does not grow on the way.
                let outcome = WireByteEncoder.encode(traced.outcome, capacity: 2048)
                return DispatchBody(
                    trace: (outcome, 0..<outcome.count), seq: host.seq, seqRange: published.range, withTrace: false,
                    dryRun: false)
            }
            if let event = ctx.publishTrace(
                taking: &traced, request: request.withoutTrace, method: R.method, host, &published)
            {
                return DispatchBody(
                    text: event.text, trace: event.trace, outcome: event.outcome, seq: host.seq,
                    seqRange: published.range, withTrace: withTrace, dryRun: false)
            }
            let recorded = requestMember(R.method, request.withoutTrace)
            let focus = traced.trace.focusChanges
            // Any other outcome: its trace body written apart, then the event around it.
            let trace = DispatchBody.traceBody(traced)
            ctx.publish(trace: trace.bytes, focus: focus, host, &published, request: recorded)
            return DispatchBody(
                trace: trace, seq: host.seq, seqRange: published.range, withTrace: withTrace, dryRun: false)
        }
    }

    static let notRecorded: Set<String> = ["session", "dryRun", "trace"]

    /// The `request` member of a dispatch's trace event (13.2): its method and params as the engine read them,
    /// without `session` (the topic names it), `dryRun` and `trace` (1.8: it shapes the reply only, so the event
    /// is the same whichever was asked), so a recording can re-send it to another session. As JSON text.
    static func requestMember<R: DryRunnable>(_ method: String, _ request: R) -> [UInt8] {
        // `dispatch` is specialised per request type, so this cast is decided when it is compiled.
        if request is TapRequest {
            var w = JSONWriter(reservingCapacity: 96 + method.utf8.count)
            writeRequestMember(method, request, to: &w)
            return w.takeBytes()
        }
        return JSONCodec.encode(encodedRequestMember(method, request))
    }

    /// `requestMember` written into `w`, as a value (the member of the trace event written in one piece).
    static func writeRequestMember<R: DryRunnable>(_ method: String, _ request: R, to w: inout JSONWriter) {
        guard let tap = request as? TapRequest else {
            w.raw(JSONCodec.encode(encodedRequestMember(method, request)))
            return
        }
        // The commonest dispatch, written directly: its members in declaration order, as the encoder gives
        // them, less the unrecorded and the null ones.
        w.beginObject()
        w.key(static: "method"); w.string(method)
        w.key(static: "params")
        w.beginObject()
        w.key(static: "point"); tap.point.write(to: &w)
        if let tapCount = tap.tapCount { w.key(static: "tapCount"); w.number(Double(tapCount)) }
        if let time = tap.time { w.key(static: "time"); w.number(time) }
        w.endObject()
        w.endObject()
    }

    /// `requestMember` through the encoder, for every request.
    static func encodedRequestMember<R: DryRunnable>(_ method: String, _ request: R) -> JSON {
        var params = WireEncoder.encode(request)
        if case .object(let members) = params {
            params = .object(members.filter { !notRecorded.contains($0.key) && !$0.value.isNull })
        }
        return ["method": .string(method), "params": params]
    }

    /// F4: applied as a tree batch; its trace is returned, not published. A dry run answers what the live one
    /// would, with the revision it would reach, no seq range and `dryRun`.
    static func makeKey(_ r: MakeKeyRequest, _ host: SessionHost, _ ctx: inout RequestContext) throws(RPCError)
        -> any ResponseBody<MakeKeyRequest.Response>
    {
        let reply: Published<Traced<MakeKeyOutcome>>
        if r.isDryRun {
            var copy = host.state
            let (_, traced) = try core { () throws(CoreError) in try copy.makeKey(r.id) }
            reply = Published(traced, revision: copy.world.revision, seq: host.seq, seqRange: nil, dryRun: true)
        } else {
            let (change, traced) = try core { () throws(CoreError) in try host.state.makeKey(r.id) }
            var published = SeqRange()
            ctx.publishApplied(change, host, &published)
            reply = published.reply(traced, host, revision: host.revision)
        }
        guard r.wantsTrace else {
            let untraced = Published(
                reply.base.outcome, revision: reply.revision, seq: reply.seq, seqRange: reply.seqRange,
                dryRun: reply.dryRun)
            return EncodedResponse(WireByteEncoder.encode(untraced, capacity: 256))
        }
        return reply
    }
}

extension WhyNotRequest {
    /// The question the params ask: an action or a become question when they name one, else a touch.
    var question: WhyNotQuestion {
        if let action { return .action(action, sender: sender) }
        if become == true { return .become }
        return .touch(at: point)
    }
}
