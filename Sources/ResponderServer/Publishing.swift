import ResponderCore
import ResponderProtocol

/// The events a request publishes, in order, each recorded in `published` for the reply's seq range.
extension RequestContext {
    /// One tree event holding the applied ops (as the client sent them), then what the batch did to touches
    /// and first responders.
    func publishApplied(_ change: TreeChange, sent: [JSON], _ host: SessionHost, _ published: inout SeqRange) {
        published.add(state.publish(host, stream: "tree", cause: cause, payload: [("change", "apply"), ("ops", .array(sent))]))
        if let consequences = change.consequences { publish(consequences, host, &published) }
    }

    /// The engine's own ops (window.makeKey), written as a client would write them.
    func publishApplied(_ change: TreeChange, _ host: SessionHost, _ published: inout SeqRange) {
        var ops = JSONWriter()
        ops.beginArray()
        for op in change.ops { op.write(to: &ops) }
        ops.endArray()
        published.add(state.publish(host, stream: "tree", cause: cause, payload: [("change", "apply")], raw: [("ops", ops.bytes)]))
        if let consequences = change.consequences { publish(consequences, host, &published) }
    }

    /// One tree event holding the whole world (tree.load, session.create), then the load's consequences.
    func publishLoaded(_ host: SessionHost, consequences: Traced<TreeChangeOutcome>?, _ published: inout SeqRange) {
        published.add(state.publish(host, stream: "tree", cause: cause, payload: [("change", "load")],
                                    raw: [("tree", host.state.world.encoded()), ("detached", host.state.world.encodedDetached())]))
        if let consequences { publish(consequences, host, &published) }
    }

    /// A dispatch's trace on `<session>/trace`, then one `<session>/focus` event per first-responder change.
    func publish<Outcome>(_ traced: Traced<Outcome>, _ host: SessionHost, _ published: inout SeqRange) {
        publish(trace: WireEncoder.encode(traced.traceBody), focus: traced.trace.focusChanges, host, &published)
    }

    /// The same with the trace already encoded (`{kind, steps, outcome}`), as a reply holds it.
    /// `request` (a dispatching method's `{method, params}`) is carried by the trace event so a recorder can
    /// re-send it (13.2).
    func publish(trace: JSON, focus: [FocusChange], _ host: SessionHost, _ published: inout SeqRange, request: JSON? = nil) {
        var payload: [(key: String, value: JSON)] = [("trace", trace)]
        if let request { payload.append(("request", request)) }
        published.add(state.publish(host, stream: "trace", cause: cause, payload: payload))
        for change in focus {
            published.add(state.publish(host, stream: "focus", cause: cause, payload: [("change", WireEncoder.encode(change))]))
        }
    }
}
