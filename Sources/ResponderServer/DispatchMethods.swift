import ResponderCore
import ResponderJSON
import ResponderProtocol

/// The UIKit dispatch methods. Queries answer without side effects; dispatching methods publish their
/// trace on `<session>/trace` (first-responder changes also on `<session>/focus`) and return the same trace,
/// unless the request says `trace: "none"` (1.8): then the reply leaves it out and the event is unchanged.
enum DispatchMethods {
    static func register(_ table: inout MethodTable) {
        table.add(HitTestRequest.self, quick: HitTestRequest.init(quick:)) { r, host, _ in
            let outcome = host.query { $0.hitTestOutcome(at: r.point) }
            guard r.wantsTrace else { return .written(capacity: 96) { outcome.writeUntracedReply(to: &$0) } }
            return .written(capacity: outcome.tracedReplyRoom) { SessionState.writeHitTestReply(outcome, to: &$0) }
        }
        table.add(ResponderChainRequest.self) { (r, host, _) throws(RPCError) in
            let traced = try host.query { (s) throws(RPCError) in
                try core { () throws(CoreError) in try s.responderChain(from: r.id) }
            }
            return r.wantsTrace ? .typed(traced) : .encoded(WireByteEncoder.encode(traced.outcome, capacity: 256))
        }
        table.add(FirstResponderRequest.self, quick: FirstResponderRequest.init(quick:)) {
            (r, host, _) throws(RPCError) in
            .typed(
                try host.query { (s) throws(RPCError) in
                    try core { () throws(CoreError) in try s.firstResponder(window: r.window) }
                })
        }
        table.add(CanPerformRequest.self) { (r, host, _) throws(RPCError) in
            let traced = try host.query { (s) throws(RPCError) in
                try core { () throws(CoreError) in try s.canPerformAction(r.action, sender: r.sender) }
            }
            return r.wantsTrace ? .typed(traced) : .encoded(traced.outcome.untracedReply)
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
            try s.press(r.press, key: r.key, phase: r.phase, client: client)
        }
        dispatch(&table, MotionRequest.self) { r, s, _ in s.motion(r.subtype ?? .shake, phase: r.phase) }
        dispatch(&table, RemoteControlRequest.self) { r, s, _ in s.remoteControl(r.subtype) }
        dispatch(&table, BecomeRequest.self) { (r, s, _) throws(CoreError) in try s.become(r.id) }
        dispatch(&table, ResignRequest.self) { (r, s, _) throws(CoreError) in try s.resign(r.id) }
        dispatch(&table, SendActionRequest.self) { (r, s, _) throws(CoreError) in
            try s.sendAction(r.action, target: r.target, sender: r.sender)
        }
        table.add(MakeKeyRequest.self, makeKey)
    }

    /// A method that dispatches: the state changes (or the request fails and nothing does), and the trace
    /// is published and returned beside the outcome. The trace is encoded once, straight to bytes: the event
    /// carries those bytes and the reply copies them (12.2: the two are equal), its own members being the
    /// outcome's, copied from inside the trace. With `trace: "none"` the reply is those members alone.
    static func dispatch<R: DryRunnable & TraceSelecting, Outcome>(
        _ table: inout MethodTable, _ type: R.Type, quick: (@Sendable (PlainParams) -> R?)? = nil,
        _ body: @escaping @Sendable (R, inout SessionState, String) throws(CoreError) -> Traced<Outcome>
    ) where R.Response == Published<Traced<Outcome>> {
        table.add(type, quick: quick) {
            (request: R, host: SessionHost, ctx: inout RequestContext) throws -> Reply<R.Response> in
            // Touches and presses belong to a client id: only the connection holding it dispatches under it.
            guard ctx.holdsClientID else { throw ClientClaims.inUse(ctx.client) }
            let withTrace = request.wantsTrace
            if request.isDryRun {
                // What if: the same dispatch on a copy of the (value-typed) state; nothing is kept or published.
                // The reply is written as a live one is, with no seq range and `dryRun`.
                var copy = host.state
                let traced = try core { () throws(CoreError) in try body(request, &copy, ctx.client.id) }
                let trace = WireByteEncoder.traceBody(traced) ?? encodedTraceBody(traced)
                let seq = host.seq
                return .written(capacity: (withTrace ? trace.bytes.count : trace.outcome.count) + 80) {
                    writeReply(trace, seq: seq, seqRange: nil, withTrace: withTrace, dryRun: true, to: &$0)
                }
            }
            let traced = try core { () throws(CoreError) in try body(request, &host.state, ctx.client.id) }
            let trace = WireByteEncoder.traceBody(traced) ?? encodedTraceBody(traced)
            var published = SeqRange()
            ctx.publishDispatchChanges(host, &published)
            ctx.publish(
                trace: trace.bytes, focus: traced.trace.focusChanges, host, &published,
                request: requestMember(R.method, request.withoutTrace))
            let (seq, seqRange) = (host.seq, published.range)
            return .written(capacity: (withTrace ? trace.bytes.count : trace.outcome.count) + 64) {
                writeReply(trace, seq: seq, seqRange: seqRange, withTrace: withTrace, to: &$0)
            }
        }
    }

    /// `{<the outcome's members>, trace, seq, seqRange}`, as `Published<Traced<Outcome>>` encodes it; without
    /// `trace` when the request asked for none (then the reply is the event's `trace.outcome`, seq and seqRange).
    /// A dry run's ends with `dryRun: true`. Written into `w`, a reply's envelope, so that it is not copied into one.
    static func writeReply(
        _ trace: (bytes: [UInt8], outcome: Range<Int>), seq: Int, seqRange: [Int]?, withTrace: Bool,
        dryRun: Bool = false, to w: inout JSONWriter
    ) {
        w.beginObject()
        w.rawMembers(trace.bytes[trace.outcome].dropFirst().dropLast())
        if withTrace { w.key(static: "trace"); w.raw(trace.bytes) }
        w.key(static: "seq"); w.number(Double(seq))
        w.key(static: "seqRange")
        if let seqRange {
            w.beginArray()
            for n in seqRange { w.number(Double(n)) }
            w.endArray()
        } else {
            w.null()
        }
        if dryRun { w.key(static: "dryRun"); w.bool(true) }
        w.endObject()
    }

    /// The trace body through the tree encoder, for an outcome the byte encoder cannot stream.
    static func encodedTraceBody<Outcome>(_ traced: Traced<Outcome>) -> (bytes: [UInt8], outcome: Range<Int>) {
        let body = WireEncoder.encode(traced.traceBody)
        var w = JSONWriter()
        w.beginObject()
        w.key("kind"); w.value(body["kind"] ?? .null)
        w.key("steps"); w.value(body["steps"] ?? .null)
        w.key("outcome")
        let start = w.count
        w.value(body["outcome"] ?? [:])
        let end = w.count
        w.endObject()
        return (w.takeBytes(), start..<end)
    }

    static let notRecorded: Set<String> = ["session", "dryRun", "trace"]

    /// The `request` member of a dispatch's trace event (13.2): its method and params as the engine read them,
    /// without `session` (the topic names it), `dryRun` and `trace` (1.8: it shapes the reply only, so the event
    /// is the same whichever was asked), so a recording can re-send it to another session. As JSON text.
    static func requestMember<R: DryRunnable>(_ method: String, _ request: R) -> [UInt8] {
        // `dispatch` is specialised per request type, so this cast is decided when it is compiled.
        if let tap = request as? TapRequest {
            // The commonest dispatch, written directly: its members in declaration order, as the encoder gives
            // them, less the unrecorded and the null ones.
            var w = JSONWriter(reservingCapacity: 96 + method.utf8.count)
            w.beginObject()
            w.key(static: "method"); w.string(method)
            w.key(static: "params")
            w.beginObject()
            w.key(static: "point"); tap.point.write(to: &w)
            if let tapCount = tap.tapCount { w.key(static: "tapCount"); w.number(Double(tapCount)) }
            if let time = tap.time { w.key(static: "time"); w.number(time) }
            w.endObject()
            w.endObject()
            return w.takeBytes()
        }
        return JSONCodec.encode(encodedRequestMember(method, request))
    }

    /// `requestMember` through the encoder, for every request.
    static func encodedRequestMember<R: DryRunnable>(_ method: String, _ request: R) -> JSON {
        var params = WireEncoder.encode(request)
        if case .object(let members) = params {
            params = .object(members.filter { !notRecorded.contains($0.key) && !$0.value.isNull })
        }
        return ["method": .string(method), "params": params]
    }

    /// F4: applied as a tree batch; its trace is returned, not published.
    static func makeKey(_ r: MakeKeyRequest, _ host: SessionHost, _ ctx: inout RequestContext) throws(RPCError)
        -> Reply<MakeKeyRequest.Response>
    {
        if r.isDryRun {
            var copy = host.state
            let (_, traced) = try core { () throws(CoreError) in try copy.makeKey(r.id) }
            let result =
                r.wantsTrace
                ? WireEncoder.encode(Published(traced, revision: copy.world.revision, seq: host.seq, seqRange: nil))
                : WireEncoder.encode(
                    Published(traced.outcome, revision: copy.world.revision, seq: host.seq, seqRange: nil))
            return .json(result.setting("dryRun", true))
        }
        let (change, traced) = try core { () throws(CoreError) in try host.state.makeKey(r.id) }
        var published = SeqRange()
        ctx.publishApplied(change, host, &published)
        guard r.wantsTrace else {
            return .encoded(
                WireByteEncoder.encode(published.reply(traced.outcome, host, revision: host.revision), capacity: 256))
        }
        return .typed(published.reply(traced, host, revision: host.revision))
    }
}
