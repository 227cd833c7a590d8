import ResponderCore
import ResponderProtocol

/// The UIKit dispatch methods. Queries answer without side effects; dispatching methods publish their
/// trace on `<session>/trace` (first-responder changes also on `<session>/focus`) and return the same trace.
enum DispatchMethods {
    static let table: [String: Handler] = [
        "hitTest": query { s, p throws(RPCError) in try s.hitTest(p) },
        "responderChain": query { s, p throws(RPCError) in try s.responderChain(p) },
        "responder.first": query { s, p throws(RPCError) in try s.firstResponder(p) },
        "action.canPerform": query { s, p throws(RPCError) in try s.canPerformAction(p) },
        "event.touch": dispatch { s, p, client throws(RPCError) in try s.touch(p, client: client) },
        "event.tap": dispatch { s, p, client throws(RPCError) in try s.tap(p, client: client) },
        "event.press": dispatch { s, p, client throws(RPCError) in try s.press(p, client: client) },
        "event.motion": dispatch { s, p, _ throws(RPCError) in try s.motion(p) },
        "event.remoteControl": dispatch { s, p, _ throws(RPCError) in try s.remoteControl(p) },
        "responder.become": dispatch { s, p, _ throws(RPCError) in try s.become(p) },
        "responder.resign": dispatch { s, p, _ throws(RPCError) in try s.resign(p) },
        "action.send": dispatch { s, p, _ throws(RPCError) in try s.sendAction(p) },
        "window.makeKey": makeKey,
    ]

    /// A method that reads the session state only. The core reads its own params (it knows their fields).
    static func query(_ body: @escaping @Sendable (SessionState, JSON) throws(RPCError) -> JSON) -> Handler {
        return { (ctx: inout RequestContext) throws(RPCError) -> ReplyBody in
            let host = try ctx.session()
            return .json(try body(host.state, .object(ctx.params.members)))
        }
    }

    /// A method that dispatches: the state changes (or the request fails and nothing does), and the trace
    /// is published and returned beside the outcome.
    static func dispatch(_ body: @escaping @Sendable (inout SessionState, JSON, String) throws(RPCError) -> Dispatch) -> Handler {
        return { (ctx: inout RequestContext) throws(RPCError) -> ReplyBody in
            let host = try ctx.session()
            let outcome = try body(&host.state, .object(ctx.params.members), ctx.client.id)
            var published = Published()
            ctx.publish(outcome, host, &published)
            var members = outcome.result.objectMembers ?? [("value", outcome.result)]
            members.append(("trace", outcome.trace))
            members.append(contentsOf: published.members(session: host))
            return .json(.object(members))
        }
    }

    static func makeKey(_ ctx: inout RequestContext) throws(RPCError) -> ReplyBody {
        let host = try ctx.session()
        let previous = host.state.world.keyWindow
        let change = try host.state.makeKey(.object(ctx.params.members))
        var published = Published()
        ctx.publishApplied(change, host, &published)
        let key = JSON(host.state.world.keyWindow)
        // F4: the key window decides where first-responder events go; the trace records the switch.
        let outcome: JSON = ["key": key, "previous": JSON(previous)]
        let trace: JSON = ["kind": "makeKey", "steps": [["step": "keyWindow", "from": JSON(previous), "to": key, "rule": "F4"]], "outcome": outcome]
        return .json(.object([("key", key), ("previous", JSON(previous)), ("revision", JSON(host.revision)), ("trace", trace)] + published.members(session: host)))
    }
}
