import ResponderProtocol

/// What one action message did.
struct ActionOutcome {
    var performed: Bool
    var by: String?
    var visited: [String]
    var reason: String?

    var json: JSON {
        var m: [(key: String, value: JSON)] = [("performed", .bool(performed)), ("by", JSON(by)), ("visited", JSON(visited))]
        if let reason { m.append(("reason", .string(reason))) }
        return .object(m)
    }
}

/// A5: the editing-menu commands.
let editingCommands: Set<String> = ["cut:", "copy:", "paste:", "select:", "selectAll:", "delete:"]

extension SessionState {
    /// A3: where a nil-target search starts, by profile.
    func nilTargetStart(sender: String?) -> String {
        let fr = keyFirstResponder
        switch profile.nilTargetStart {
        case .firstResponderThenSender: return fr ?? sender ?? World.rootID
        case .senderOnly: return sender ?? World.rootID
        case .firstResponderOnly: return fr ?? World.rootID
        }
    }

    /// A2–A4: sends `action`; pure apart from the trace (actions change no engine state).
    func performAction(_ action: String, target: String?, sender: String?, responders: Responders, trace: inout Trace) -> ActionOutcome {
        func step(_ to: String, _ disposition: String, _ rule: String, reason: String? = nil) {
            var m: [(key: String, value: JSON)] = [("step", "deliver"), ("to", .string(to)), ("message", .string(action)), ("disposition", .string(disposition)), ("rule", .string(rule))]
            if let reason { m.append(("reason", .string(reason))) }
            trace.add(.object(m))
        }
        var outcome: ActionOutcome
        let rule: String
        if let target {
            // A2: straight to the target; the chain and the first responder play no part.
            rule = "A2"
            if let node = responders.node(target) {
                let implements = node.handling(action) != nil
                step(target, implements ? "handled" : "not-handled", rule)
                outcome = ActionOutcome(performed: implements, by: implements ? target : nil, visited: [target], reason: implements ? nil : "not-implemented")
            } else {
                outcome = ActionOutcome(performed: false, by: nil, visited: [], reason: "target-missing")
            }
        } else {
            // A3: the start; A4: the walk.
            rule = "A4"
            outcome = ActionOutcome(performed: false, by: nil, visited: [], reason: "end-of-chain")
            var seen: Set<String> = []
            var current: String? = nilTargetStart(sender: sender)
            while let id = current, seen.insert(id).inserted, let node = responders.node(id) {
                outcome.visited.append(id)
                if node.handling(action) != nil {
                    if node.vetoes.contains(action) {
                        step(id, "not-handled", rule, reason: "vetoed")
                    } else {
                        step(id, "handled", rule)
                        outcome.performed = true
                        outcome.by = id
                        outcome.reason = nil
                        break
                    }
                } else {
                    step(id, "not-handled", rule)
                }
                current = responders.next(of: id)
            }
            if !outcome.performed { trace.discard(action, reason: "end-of-chain", rule: "A4") }
        }
        var m: [(key: String, value: JSON)] = [
            ("step", "action"), ("action", .string(action)), ("target", JSON(target)), ("sender", JSON(sender)),
            ("performed", .bool(outcome.performed)), ("by", JSON(outcome.by)), ("rule", .string(rule)),
        ]
        if let reason = outcome.reason { m.append(("reason", .string(reason))) }
        trace.add(.object(m))
        return outcome
    }

    /// `{action, target: id|null, sender: id|null}` → `{performed, by, visited}` (A2–A4).
    public mutating func sendAction(_ params: JSON) throws(RPCError) -> Dispatch {
        var r = try ParamReader(params)
        _ = r.raw("session")
        let action = try r.requiredString("action")
        guard !action.isEmpty else { throw r.error("action", "must not be empty") }
        let target = try r.string("target")
        let sender = try r.string("sender")
        try r.finish()
        if let target { _ = try existing(target, field: "target") }
        if let sender { _ = try existing(sender, field: "sender") }
        var trace = Trace(kind: "action")
        let outcome = performAction(action, target: target, sender: sender, responders: Responders(world), trace: &trace)
        return trace.finish(outcome.json)
    }

    /// `{action, sender?}` → `{available, by, visited, editingCommand, trace}` (A5): the nil-target walk with
    /// the application as sender (unless `sender` names another node); no side effects. The trace has kind
    /// `canPerform` and the walk's steps.
    public func canPerformAction(_ params: JSON) throws(RPCError) -> JSON {
        var r = try ParamReader(params)
        _ = r.raw("session")
        let action = try r.requiredString("action")
        guard !action.isEmpty else { throw r.error("action", "must not be empty") }
        let sender = try r.string("sender") ?? World.rootID
        try r.finish()
        _ = try existing(sender, field: "sender")
        var trace = Trace(kind: "canPerform")
        let outcome = performAction(action, target: nil, sender: sender, responders: Responders(world), trace: &trace)
        return Self.withTrace(trace.finish(["available": .bool(outcome.performed), "by": JSON(outcome.by), "visited": JSON(outcome.visited), "editingCommand": .bool(editingCommands.contains(action))]))
    }
}
