import ResponderProtocol

/// An outcome that reads as paths, one line per delivery: the reply of a dispatching command, and the
/// `outcome` of a trace event.
package protocol DispatchOutcome: Codable, Sendable {
    /// `message` labels an action's path (its outcome does not name the action); `trace` gives discard reasons
    /// and whom a become/resign was about; `names` names the nodes.
    func lines(message: String?, trace: Trace, names: NodeNames) -> [String]
}

extension DispatchOutcome {
    /// Nodes by their ids alone.
    package func lines(message: String?, trace: Trace) -> [String] {
        lines(message: message, trace: trace, names: .none)
    }
}

extension TouchOutcome: DispatchOutcome {
    package func lines(message: String?, trace: Trace, names: NodeNames) -> [String] {
        // Recognizers' decisions are indented under the delivery they happened in (G1: before the view's
        // phase); a recognizer still waiting on another (G5) is said last. Without recognizers: one line each.
        guard !deliveries.isEmpty else { return ["no deliveries"] }
        var order = GestureOrder(trace: trace, names: names)
        return deliveries.flatMap { order.deliveryLines($0) } + TraceFormatter.waitLines(trace)
    }
}

extension ActionOutcome: DispatchOutcome {
    /// A published trace does not pass the action's name: its `action` step holds it.
    package func lines(message: String?, trace: Trace, names: NodeNames) -> [String] {
        let name =
            message
            ?? trace.steps.lazy.compactMap { step -> String? in
                if case .action(let action, _, _, _, _, _, _) = step { return action }
                return nil
            }.first
        return [TraceFormatter.action(self, name: name, names: names)]
    }
}

extension MotionOutcome: DispatchOutcome {
    package func lines(message: String?, trace: Trace, names: NodeNames) -> [String] {
        [
            TraceFormatter.path(
                message: self.message, start: start, visited: visited, handledBy: handledBy,
                discard: TraceFormatter.discard(in: trace), names: names)
        ]
    }
}

extension RemoteControlOutcome: DispatchOutcome {
    package func lines(message: String?, trace: Trace, names: NodeNames) -> [String] {
        [
            TraceFormatter.path(
                message: self.message, start: start, visited: visited, handledBy: handledBy,
                discard: TraceFormatter.discard(in: trace), names: names)
        ]
    }
}

extension PressOutcome: DispatchOutcome {
    package func lines(message: String?, trace: Trace, names: NodeNames) -> [String] {
        let shown = key.map { TraceFormatter.shortcut($0, modifiers ?? []) }
        let head = "press \(Describe.id(press))" + (shown.map { " (\($0))" } ?? "") + ": "
        // E5: the key command and its action, listed as a delivery lists its actions.
        let command =
            keyCommand.map { k in
                let owner = k.system ? "the system" : names.label(k.responder)
                let entry = k.performed ? "\(k.action) → \(k.by.map(names.label) ?? "?")" : "\(k.action) not performed"
                return
                    ", key command \(TraceFormatter.shortcut(k.input, k.modifierFlags)) of \(owner) (E5) [actions: \(entry)]"
            } ?? ""
        // E4, E5: a press text input or a key command took is not discarded.
        if handledBy.isEmpty, textInput != nil || keyCommand?.performed == true {
            return [
                head + TraceFormatter.label(self.message) + names.path(visited)
                    + (textInput.map { ", typed into \(names.label($0)) (E4)" } ?? "") + command
            ]
        }
        return [
            head
                + TraceFormatter.path(
                    message: self.message, start: start, visited: visited, handledBy: handledBy,
                    discard: TraceFormatter.discard(in: trace), names: names)
                + (textInput.map { ", typed into \(names.label($0)) (E4)" } ?? "") + command
        ]
    }
}

extension FocusOutcome: DispatchOutcome {
    package func lines(message: String?, trace: Trace, names: NodeNames) -> [String] {
        [FirstResponderReply.summary(self, verb: trace.kind, id: TraceFormatter.subject(of: trace), names: names)]
    }
}

extension TreeChangeOutcome: DispatchOutcome {
    package func lines(message: String?, trace: Trace, names: NodeNames) -> [String] {
        TraceFormatter.treeChange(self, trace: trace, names: names)
    }
}

extension ClockOutcome: DispatchOutcome {
    /// `clock 0 → 0.6 s`, then what the time that passed decided (G11), indented.
    package func lines(message: String?, trace: Trace, names: NodeNames) -> [String] {
        var order = GestureOrder(trace: trace, names: names)
        // K5: a held stepper's timer steps, each at its time.
        let timed = (controlEvents ?? []).map { e in
            "control \(names.label(e.control)): \(e.event.rawValue) at \(Output.number(e.time)) s (K5)"
                + (e.actions.isEmpty
                    ? ""
                    : " [actions: "
                        + e.actions.map { TraceFormatter.actionEntry($0, names: names) }.joined(
                            separator: ", ") + "]")
        }
        return ["clock \(Output.number(from)) → \(Output.number(time)) s"]
            + (order.lines(transitions: gestures, actions: gestureActions, deliveries: gestureDeliveries) + timed
            + TraceFormatter.waitLines(trace)).map { "  " + $0 }
    }
}
