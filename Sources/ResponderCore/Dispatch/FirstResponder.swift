import ResponderProtocol

/// What becomeFirstResponder / resignFirstResponder answered.
struct FocusOutcome {
    var result: Bool
    var reason: String
    var resigned: String?

    var json: JSON { ["result": .bool(result), "reason": .string(reason), "resigned": JSON(resigned)] }
}

extension SessionState {
    /// F2 (with F1 defaults on the node, F4 per-window first responders, F7 controllers).
    mutating func becomeFirstResponder(_ id: String, focusReason: String, rule: String, trace: inout Trace) -> FocusOutcome {
        func check(_ check: String, _ value: Bool, _ rule: String, on node: String = id) {
            trace.add(["step": "check", "id": .string(node), "check": .string(check), "value": .bool(value), "rule": .string(rule)])
        }
        guard let node = world[id] else {
            check("inWindow", false, "F2")
            return FocusOutcome(result: false, reason: "not-in-window", resigned: nil)
        }
        // F2.2: its chain must reach a window (F7: controllers too).
        guard let window = world.responderWindow(of: id) else {
            check("inWindow", false, "F2")
            return FocusOutcome(result: false, reason: "not-in-window", resigned: nil)
        }
        let current = firstResponderByWindow[window]
        // F2.1: already first responder — true, nothing else happens.
        if current == id {
            check("isFirstResponder", true, "F2")
            return FocusOutcome(result: true, reason: "already-first-responder", resigned: nil)
        }
        let currentCanResign = current.map { world[$0]?.canResignFirstResponder ?? true } ?? true
        switch profile.becomeOrder {
        case .checkFirst:
            // F2.3: canBecome false → false, the current first responder is untouched.
            check("canBecomeFirstResponder", node.canBecomeFirstResponder, "F2")
            guard node.canBecomeFirstResponder else { return FocusOutcome(result: false, reason: "cannot-become", resigned: nil) }
            // F2.4: the current one is asked to resign and may refuse.
            if let current {
                check("canResignFirstResponder", currentCanResign, "F2", on: current)
                guard currentCanResign else { return FocusOutcome(result: false, reason: "current-cannot-resign", resigned: nil) }
            }
        case .resignFirst:
            // Docs order: the current one resigns first; a refusal to become then leaves none.
            if let current {
                check("canResignFirstResponder", currentCanResign, "F2", on: current)
                guard currentCanResign else { return FocusOutcome(result: false, reason: "current-cannot-resign", resigned: nil) }
            }
            check("canBecomeFirstResponder", node.canBecomeFirstResponder, "F2")
            guard node.canBecomeFirstResponder else {
                if let current {
                    firstResponderByWindow[window] = nil
                    trace.focusChange(window: window, from: current, to: nil, reason: "resign", rule: "F2")
                }
                return FocusOutcome(result: false, reason: "cannot-become", resigned: current)
            }
        }
        // F2.5
        firstResponderByWindow[window] = id
        trace.focusChange(window: window, from: current, to: id, reason: focusReason, rule: rule)
        return FocusOutcome(result: true, reason: "became", resigned: current)
    }

    /// F3: resigns `id` if it is its window's first responder and agrees to.
    mutating func resignFirstResponder(_ id: String, trace: inout Trace) -> FocusOutcome {
        guard let window = world.responderWindow(of: id), firstResponderByWindow[window] == id else {
            trace.add(["step": "check", "id": .string(id), "check": "isFirstResponder", "value": false, "rule": "F3"])
            return FocusOutcome(result: false, reason: "not-first-responder", resigned: nil)
        }
        let canResign = world[id]!.canResignFirstResponder
        trace.add(["step": "check", "id": .string(id), "check": "canResignFirstResponder", "value": .bool(canResign), "rule": "F3"])
        guard canResign else { return FocusOutcome(result: false, reason: "cannot-resign", resigned: nil) }
        firstResponderByWindow[window] = nil
        trace.focusChange(window: window, from: id, to: nil, reason: "resign", rule: "F3")
        return FocusOutcome(result: true, reason: "resigned", resigned: id)
    }

    /// `{id}` → `{result, reason, resigned}`; reason: became | already-first-responder | not-in-window |
    /// cannot-become | current-cannot-resign; `resigned` is the first responder it replaced.
    public mutating func become(_ params: JSON) throws(RPCError) -> Dispatch {
        let id = try targetNode(params)
        var trace = Trace(kind: "become")
        let outcome = becomeFirstResponder(id, focusReason: "become", rule: "F2", trace: &trace)
        return trace.finish(outcome.json)
    }

    /// `{id}` → `{result, reason, resigned}`; reason: resigned | not-first-responder | cannot-resign.
    public mutating func resign(_ params: JSON) throws(RPCError) -> Dispatch {
        let id = try targetNode(params)
        var trace = Trace(kind: "resign")
        let outcome = resignFirstResponder(id, trace: &trace)
        return trace.finish(outcome.json)
    }
}
