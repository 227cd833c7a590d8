import ResponderCore
import ResponderProtocol

/// The events a request publishes, in order, each recorded in `published` for the reply's seq range.
extension RequestContext {
    /// One tree event holding the applied ops, then what the batch did to touches and first responders.
    func publishApplied(_ change: TreeChange, _ host: SessionHost, _ published: inout Published) {
        published.add(state.publish(host, stream: "tree", cause: cause, payload: [("change", "apply"), ("ops", .array(change.ops))]))
        if let consequences = change.consequences { publish(consequences, host, &published) }
    }

    /// One tree event holding the whole world (tree.load, session.create), then the load's consequences.
    func publishLoaded(_ host: SessionHost, consequences: Dispatch?, _ published: inout Published) {
        published.add(state.publish(host, stream: "tree", cause: cause, payload: [("change", "load")],
                                    raw: [("tree", host.state.world.encoded()), ("detached", host.state.world.encodedDetached())]))
        if let consequences { publish(consequences, host, &published) }
    }

    /// A dispatch's trace on `<session>/trace`, then one `<session>/focus` event per first-responder change.
    func publish(_ dispatch: Dispatch, _ host: SessionHost, _ published: inout Published) {
        published.add(state.publish(host, stream: "trace", cause: cause, payload: [("trace", dispatch.trace)]))
        for change in dispatch.focus {
            published.add(state.publish(host, stream: "focus", cause: cause, payload: [("change", change)]))
        }
    }
}
