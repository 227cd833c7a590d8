import ResponderCore
import ResponderJSON
import ResponderProtocol
import Testing

/// A recognizer as JSON text: `rec("tap1", "tap", #""numberOfTapsRequired": 2"#)`; its target is RVC with
/// action `<id>:` unless `extra` gives `targets`.
func rec(_ id: String, _ kind: String, _ extra: String = "") -> String {
    let targets = extra.contains("\"targets\"") ? "" : #", "targets": [{"target": "RVC", "action": "\#(id):"}]"#
    return #"{"id": "\#(id)", "kind": "\#(kind)"\#(targets)\#(extra.isEmpty ? "" : ", " + extra)}"#
}

/// The `gestureRecognizers` member for a node's extra text.
func recognizers(_ list: String...) -> String { #""gestureRecognizers": [\#(list.joined(separator: ", "))]"# }

/// RVC implements every action the recognizers of these tests send.
let rvcHandles =
    #""handles": {"tap1:": "handle", "tap2:": "handle", "single:": "handle", "double:": "handle", "pan:": "handle", "hold:": "handle", "swipe:": "handle", "pinch:": "handle", "rotate:": "handle", "outer:": "handle", "inner:": "handle"}"#

/// V handles every touch phase without calling super, so deliveries to it are easy to read.
let handlesAll =
    #""handles": {"touchesBegan": "handle", "touchesMoved": "handle", "touchesEnded": "handle", "touchesCancelled": "handle"}"#

extension SessionState {
    /// One event.touch request of entries `(touch, phase, x, y, time)`.
    mutating func touches(_ entries: [(String, String, Double, Double, Double?)], client: String = "c") throws
        -> Traced<TouchOutcome>
    {
        var list: [JSON] = []
        for (touch, phase, x, y, time) in entries {
            var members: [(String, JSON)] = [
                ("touch", .string(touch)), ("phase", .string(phase)), ("point", point(x, y))
            ]
            if let time { members.append(("time", .number(time))) }
            list.append(.object(members))
        }
        return try touch(["touches": .array(list)], client: client)
    }

    mutating func advance(to time: Double) throws -> Traced<ClockOutcome> {
        let r = try WireDecoder.decode(ClockAdvanceRequest.self, from: ["to": .number(time)])
        return try asClient { () throws(CoreError) in try advanceClock(to: r.to, by: r.by) }
    }
}

/// `recognizer:from→to` for every `gesture` step, in order.
func transitions<O>(_ d: Traced<O>) -> [String] {
    d.trace.steps.compactMap { step in
        guard case .gesture(let t) = step else { return nil }
        return "\(t.recognizer):\(t.from.rawValue)→\(t.to.rawValue)"
    }
}

/// The `gesture` steps as typed transitions.
func gestureSteps<O>(_ d: Traced<O>) -> [GestureTransition] {
    d.trace.steps.compactMap { step in
        if case .gesture(let t) = step { return t }
        return nil
    }
}

/// `recognizer→action` for every action a recognizer sent (G3).
func gestureActions<O>(_ d: Traced<O>) -> [String] {
    d.trace.steps.compactMap { step in
        guard case .gestureAction(let a) = step else { return nil }
        return "\(a.recognizer)→\(a.action)\(a.performed ? "" : "(\(a.reason?.rawValue ?? "?"))")"
    }
}

/// The touch messages delivered to `view` (its own deliver steps), in order: what the view saw.
func viewMessages<O>(_ d: Traced<O>, _ view: String) -> [String] {
    d.trace.steps.compactMap { step in
        guard case .deliver(let to, let message, _, _, _, let tag) = step, to == view, case .touch? = tag else {
            return nil
        }
        return message
    }
}

func controlEvents<O>(_ d: Traced<O>) -> [String] {
    d.trace.steps.compactMap { step in
        guard case .controlEvent(_, let event, _, _) = step else { return nil }
        return event.rawValue
    }
}
