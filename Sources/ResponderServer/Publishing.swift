import ResponderCore
import ResponderProtocol

/// The events a request publishes, in order, each recorded in `published` for the reply's seq range.
extension RequestContext {
    /// One tree event holding the applied ops (as the client sent them), then what the batch did to touches
    /// and first responders.
    func publishApplied(_ change: TreeChange, sent: [JSON], _ host: SessionHost, _ published: inout Published) {
        published.add(state.publish(host, stream: "tree", cause: cause, payload: [("change", "apply"), ("ops", .array(sent))]))
        if let consequences = change.consequences { publish(consequences, host, &published) }
    }

    /// The engine's own ops (window.makeKey) as a client would write them.
    func publishApplied(_ change: TreeChange, _ host: SessionHost, _ published: inout Published) {
        let sent = change.ops.map { op -> JSON in
            var w = JSONWriter()
            op.write(to: &w)
            return (try? JSONCodec.decode(w.bytes)) ?? .null
        }
        publishApplied(change, sent: sent, host, &published)
    }

    /// One tree event holding the whole world (tree.load, session.create), then the load's consequences.
    func publishLoaded(_ host: SessionHost, consequences: Traced<TreeChangeOutcome>?, _ published: inout Published) {
        published.add(state.publish(host, stream: "tree", cause: cause, payload: [("change", "load")],
                                    raw: [("tree", host.state.world.encoded()), ("detached", host.state.world.encodedDetached())]))
        if let consequences { publish(consequences, host, &published) }
    }

    /// A dispatch's trace on `<session>/trace`, then one `<session>/focus` event per first-responder change.
    func publish<Outcome>(_ traced: Traced<Outcome>, _ host: SessionHost, _ published: inout Published) {
        published.add(state.publish(host, stream: "trace", cause: cause, payload: [("trace", WireEncoder.encode(traced.traceBody))]))
        for change in traced.trace.focusChanges {
            published.add(state.publish(host, stream: "focus", cause: cause, payload: [("change", WireEncoder.encode(change))]))
        }
    }
}
