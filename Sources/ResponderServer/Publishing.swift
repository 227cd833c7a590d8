import ResponderCore
import ResponderJSON
import ResponderProtocol

/// The events a request publishes, in order, each recorded in `published` for the reply's seq range.
extension RequestContext {
    /// One tree event holding the applied ops (as the client sent them), then what the batch did to touches
    /// and first responders.
    func publishApplied(_ change: TreeChange, sent: [JSON], _ host: SessionHost, _ published: inout SeqRange) {
        state.journalApplied(change, host)
        published.add(
            state.publish(host, stream: "tree", cause: cause, payload: [("change", "apply"), ("ops", .array(sent))]))
        if let consequences = change.consequences { publish(consequences, host, &published) }
    }

    /// The engine's own ops (window.makeKey), written as a client would write them.
    func publishApplied(_ change: TreeChange, _ host: SessionHost, _ published: inout SeqRange) {
        state.journalApplied(change, host)
        var ops = JSONWriter()
        ops.beginArray()
        for op in change.ops { op.write(to: &ops) }
        ops.endArray()
        published.add(
            state.publish(host, stream: "tree", cause: cause, payload: [("change", "apply")], raw: [("ops", ops.bytes)])
        )
        if let consequences = change.consequences { publish(consequences, host, &published) }
    }

    /// K3–K8: the fields a dispatch changed, as one tree event of change `dispatch` holding the engine's ops
    /// (12.6). Nothing when it changed none.
    func publishDispatchChanges(_ host: SessionHost, _ published: inout SeqRange) {
        let ops = host.state.takeChanges()
        guard !ops.isEmpty else { return }
        // Logged like a batch: a restart replays it, so a switch stays on and the log has no gap in revisions.
        state.journal?.tree(host, .apply(revision: host.revision, ops: WorldSnapshot.encode(ops: ops)))
        var w = JSONWriter()
        w.beginArray()
        for op in ops { op.write(to: &w) }
        w.endArray()
        published.add(
            state.publish(
                host, stream: "tree", cause: cause, payload: [("change", "dispatch")], raw: [("ops", w.bytes)]))
    }

    /// One tree event holding the whole world (tree.load, session.create), then the load's consequences.
    func publishLoaded(_ host: SessionHost, consequences: Traced<TreeChangeOutcome>?, _ published: inout SeqRange) {
        let world = host.state.world
        // The state store keeps its own, shorter text of the world (`WorldSnapshot`): the event's is written only
        // when the event must be.
        if state.journal != nil {
            let snapshot = WorldSnapshot.encode(world)
            state.journalLoaded(host, tree: snapshot.tree, detached: snapshot.detached)
        }
        // The ring keeps the world, not the event's text (`EventText.deferred`): a copy of the world shares its
        // storage with the session's, so an idle session holds its nodes once, and a replay writes the same bytes
        // the subscribers got. The text is written now only when a subscriber may receive it.
        published.add(
            state.publishDeferred(
                host, stream: "tree", cause: cause, payload: [("change", "load")],
                deferred: [("tree", { world.encoded() }), ("detached", { world.encodedDetached() })],
                minimumSize: world.minimumEncodedSize(), send: state.sink.mayDeliver(topic: host.topic("tree"))))
        if let consequences { publish(consequences, host, &published) }
    }

    /// A dispatch's trace on `<session>/trace`, then one `<session>/focus` event per first-responder change.
    func publish<Outcome>(_ traced: Traced<Outcome>, _ host: SessionHost, _ published: inout SeqRange) {
        publish(
            trace: WireByteEncoder.encode(traced.traceBody, capacity: 4096), focus: traced.trace.focusChanges, host,
            &published)
    }

    /// The same with the trace already encoded (`{kind, steps, outcome}`): the bytes the reply holds too, so
    /// the reply, the event and the replay ring share one encoding. `request` (a dispatching method's
    /// `{method, params}`) is carried by the trace event so a recorder can re-send it (13.2).
    func publish(
        trace: [UInt8], focus: [FocusChange], _ host: SessionHost, _ published: inout SeqRange, request: [UInt8]? = nil
    ) {
        // Made whole: a list of one that `request` is appended to is made twice.
        let raw: [(key: String, value: [UInt8])] =
            if let request { [("trace", trace), ("request", request)] } else { [("trace", trace)] }
        if state.sink.mayDeliver(topic: host.topic("trace")) {
            published.add(state.publish(host, stream: "trace", cause: cause, payload: [], raw: raw))
        } else {
            // Nobody can receive it now: the ring keeps its parts, joined into the same text only if a replay asks
            // for it, and counts the size that text has.
            published.add(
                state.publishDeferred(
                    host, stream: "trace", cause: cause, payload: [], deferred: raw.map { m in (m.key, { m.value }) },
                    minimumSize: EventText.size(head: [], members: raw), send: false))
        }
        publish(focus: focus, host, &published)
    }

    /// A touch's trace event written in one piece: its head, the trace body straight from the steps (moved out
    /// of `traced`), and the request's member (`DispatchMethods.writeRequestMember`). The ring keeps that text, a
    /// subscriber gets it, and the reply copies its trace and outcome from it: written apart, the body was
    /// copied out of its writer, its parts kept as closures, and the steps walked again for the focus changes.
    /// Returns the text and where the trace body and its outcome are in it; nil, with nothing published, for an
    /// outcome not a touch's (`publish(trace:…)` takes those). A tap on the demo world costs 85.9k this way and
    /// 96.9k through `publish(trace:…)` (callgrind, release, inside request processing); `ByteEncodingTests`
    /// compares the body written here with the general one.
    func publishTrace<Outcome, R: DryRunnable>(
        taking traced: inout Traced<Outcome>, request: R, method: String, _ host: SessionHost,
        _ published: inout SeqRange
    ) -> (text: [UInt8], trace: Range<Int>, outcome: Range<Int>)? {
        // Room for a tap's event (≈ 3.4 KB) and what its writers reserve beyond it.
        var w = JSONWriter(reservingCapacity: 4096)
        host.writeNextHead(stream: "trace", epoch: state.epoch, cause: cause, to: &w)
        w.key(static: "trace")
        guard let body = WireByteEncoder.writeTraceBody(taking: &traced, to: &w) else { return nil }
        w.key(static: "request")
        DispatchMethods.writeRequestMember(method, request, to: &w)
        w.endObject()
        let text = w.takeBytes()
        let entry = host.record(stream: "trace", text: text)
        state.journal?.touched(host)
        if state.sink.mayDeliver(topic: entry.topic) { state.sink.send(topic: entry.topic, body: text) }
        published.add(entry.seq)
        publish(focus: body.focus, host, &published)
        return (text, body.body, body.outcome)
    }

    /// The trace event of a dispatch no subscriber can receive now: numbered and kept in the replay ring as the
    /// trace itself, written only if a replay asks for it (`EventText.deferred`), so a `trace: "none"` request
    /// with no reader pays nothing for its text. The focus events are small and written as always.
    /// `request` writes the event's `request` member (`DispatchMethods.requestMember`) when the text is written;
    /// `method` is the request's method.
    func publishUnwritten<Outcome>(
        _ traced: Traced<Outcome>, method: String, request: @escaping () -> [UInt8], _ host: SessionHost,
        _ published: inout SeqRange
    ) {
        // What the ring counts while the text is unwritten: the steps as held (each step's value is about as large
        // as its text) and the least the request's member takes (`{"method":"…","params":{}}`).
        let held = MemoryLayout<TraceStep>.stride * traced.trace.steps.count + method.utf8.count + 25 + 64
        published.add(
            state.publishDeferred(
                host, stream: "trace", cause: cause, payload: [],
                deferred: [("trace", { DispatchBody.traceBody(traced).bytes }), ("request", request)],
                minimumSize: held, send: false))
        if Self.mayChangeFocus(traced.trace.steps) { publish(focus: traced.trace.focusChanges, host, &published) }
    }

    /// Whether any of `steps` is of a kind that may change the first responder: only then are they walked for
    /// the changes (`Trace.focusChanges`), which copies each step it reads, a retain and a release per string.
    private static func mayChangeFocus(_ steps: [TraceStep]) -> Bool {
        steps.withUnsafeBufferPointer { b in
            for i in b.indices {
                switch b[i] {
                case .firstResponder, .android: return true
                default: continue
                }
            }
            return false
        }
    }

    private func publish(focus: [FocusChange], _ host: SessionHost, _ published: inout SeqRange) {
        for change in focus {
            published.add(
                state.publish(host, stream: "focus", cause: cause, payload: [("change", WireEncoder.encode(change))]))
        }
    }
}
