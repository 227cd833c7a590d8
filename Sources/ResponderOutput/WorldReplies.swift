import ResponderClient
import ResponderJSON
import ResponderPicture
import ResponderProtocol

/// What `draw` and `web` ask the engine for a picture, read as plain JSON so that members and reasons a newer
/// engine adds draw as well as they can instead of failing.
package struct WorldState {
    package var tree: JSON
    package var firstResponders: [String: String]
    package var revision: Int
    package var seq: Int
    /// The session's dispatch model (`profile.name`: `uikit` or `android`).
    package var profile: String
    /// The detached subtrees, as `session.create` takes them back.
    package var detached: JSON

    /// `session.snapshot`: the tree, every window's first responder and the profile.
    package static func fetch(_ connection: ResponderConnection, session: String) throws(ClientError) -> WorldState {
        var reply = try connection.call("session.snapshot", ["session": .string(session)])
        let state = WorldState(
            tree: reply["tree"] ?? .null, firstResponders: firstResponders(reply["firstResponders"]),
            revision: reply["revision"]?.intValue ?? 0, seq: reply["seq"]?.intValue ?? 0,
            profile: reply["profile"]?["name"]?.stringValue ?? "uikit", detached: reply["detached"] ?? .null)
        JSON.release(&reply)
        return state
    }

    package static func firstResponders(_ json: JSON?) -> [String: String] {
        var out: [String: String] = [:]
        for (window, responder) in json?.objectMembers ?? [] { if let r = responder.stringValue { out[window] = r } }
        return out
    }
}

/// Overlays from the engine's replies and traces: a hit test, a tap, a responder chain.
package enum OverlayReplies {
    /// A new session holding `state`'s world under `profile`, named from `base` and unused (`<base>-<profile>`,
    /// else with a number): the same tree drawn or inspected under the other dispatch model.
    package static func copy(
        _ connection: ResponderConnection, state: WorldState, profile: String, base: String, attempts: Int = 20
    ) throws(ClientError) -> String {
        var params: [(key: String, value: JSON)] = [("profile", ["name": .string(profile)]), ("tree", state.tree)]
        if let detached = state.detached.arrayValue, !detached.isEmpty { params.append(("detached", state.detached)) }
        var last: ClientError?
        for k in 0..<attempts {
            let name = k == 0 ? "\(base)-\(profile)" : "\(base)-\(profile)-\(k + 1)"
            do {
                _ = try connection.call("session.create", .object([("session", .string(name))] + params))
                return name
            } catch {
                // Taken: the next number. Anything else is the answer.
                guard case .rpc(let e) = error, e.name == .sessionExists else { throw error }
                last = error
            }
        }
        throw last!
    }

    /// `hitTest` at `point`, then the responder chain of the view hit.
    package static func hit(_ connection: ResponderConnection, session: String, point: Point) throws(ClientError)
        -> Overlay
    {
        let result = try connection.call(
            "hitTest", ["session": .string(session), "point": [.number(point.x), .number(point.y)]])
        let path = HitPath(point: point, result: result)
        var overlay = Overlay(title: "hitTest at \(SVGText.point(point.x, point.y))", hit: path)
        if let view = path.view, !path.hitsDimmingView {
            overlay.chain = try chain(connection, session: session, id: view)
            overlay.chainTitle = "Responder chain of \(view)"
        }
        return overlay
    }

    /// `event.tap` at `point` (a real tap, or a dry run): the hit test of its trace, what each phase did, and
    /// the responder chain of the view it went to.
    package static func tap(_ connection: ResponderConnection, session: String, point: Point, dryRun: Bool)
        throws(ClientError) -> Overlay
    {
        let tapped = try tapTrace(connection, session: session, point: point, dryRun: dryRun)
        var overlay = touch(trace: tapped.trace, point: point)
        overlay.title = tapped.title
        if let view = overlay.hit?.view, overlay.hit?.hitsDimmingView != true {
            overlay.chain = try chain(connection, session: session, id: view)
            overlay.chainTitle = "Responder chain of \(view)"
        }
        return overlay
    }

    /// `event.tap` at `point` (`dryRun`: on a copy, nothing changes): its trace, and the title a picture of it
    /// carries. Both profiles' taps are drawn from it.
    package static func tapTrace(_ connection: ResponderConnection, session: String, point: Point, dryRun: Bool)
        throws(ClientError) -> (trace: JSON, title: String)
    {
        var params: JSON = ["session": .string(session), "point": [.number(point.x), .number(point.y)]]
        if dryRun { params = params.setting("dryRun", true) }
        let result = try connection.call("event.tap", params)
        return (
            result["trace"] ?? .null, "event.tap at \(SVGText.point(point.x, point.y))" + (dryRun ? " (dry run)" : "")
        )
    }

    /// `responderChain` from `id`.
    package static func chain(_ connection: ResponderConnection, session: String, id: String) throws(ClientError)
        -> [String]
    {
        let result = try connection.call("responderChain", ["session": .string(session), "id": .string(id)])
        return (result["chain"]?.arrayValue ?? []).compactMap(\.stringValue)
    }

    /// A touch trace (a reply's or a published one): its first touch's hit test, the responders its began
    /// phase visited as the chain, and its deliveries in words.
    package static func touch(trace: JSON, point: Point?) -> Overlay {
        let steps = trace["steps"]?.arrayValue ?? []
        let first = steps.first { $0["step"]?.stringValue == "hitTest" }?["touch"]
        let visits = steps.filter { $0["step"]?.stringValue == "hitTest" && $0["touch"] == first }.map(
            Visit.init(json:))
        let delivery = trace["outcome"]?["deliveries"]?.arrayValue?.first
        var overlay = Overlay(notes: TraceLines.lines(trace: trace))
        if !visits.isEmpty, let p = point ?? visits.first?.point {
            let view = delivery?["view"]?.stringValue ?? visits.last { $0.result == "hit" }?.id
            overlay.hit = HitPath(
                point: p, window: delivery?["window"]?.stringValue ?? (view == nil ? nil : visits.first?.id),
                view: view, visited: visits)
        }
        let visited = (delivery?["visited"]?.arrayValue ?? []).compactMap(\.stringValue)
        if !visited.isEmpty {
            overlay.chain = visited
            overlay.chainTitle = (delivery?["message"]?.stringValue ?? "the touch") + " went to"
        }
        return overlay
    }
}

/// A trace in words, as `watch` and the dispatch commands print it.
package enum TraceLines {
    package static func lines(trace: JSON, names: NodeNames = .none) -> [String] {
        guard let typed = try? WireDecoder.decode(Trace.self, from: trace, strict: false),
            let outcome = TraceFormatter.outcome(of: typed.kind, from: trace["outcome"] ?? .null)
        else {
            return [TraceFormatter.summary(trace: trace, names: names)]
        }
        return outcome.lines(message: nil, trace: typed, names: names).map { String($0.drop { $0 == " " }) }
            + DispatchReply.focusLines(typed, names: names)
    }
}

extension HitPath {
    /// K17, K18: the hit view is a sheet's or popover's dimming view, which has no responder chain (no responder
    /// gets its touches).
    var hitsDimmingView: Bool {
        visited.contains { $0.id == view && $0.result == "hit" && ($0.rule == "K17" || $0.rule == "K18") }
    }
}
