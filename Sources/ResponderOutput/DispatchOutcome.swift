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
        let head = "press \(Describe.id(press))" + (key.map { " (\($0))" } ?? "") + ": "
        // E4: a press text input took is typed, not discarded.
        if let textInput, handledBy.isEmpty {
            return [
                head + TraceFormatter.label(self.message) + names.path(visited)
                    + ", typed into \(names.label(textInput)) (E4)"
            ]
        }
        return [
            head
                + TraceFormatter.path(
                    message: self.message, start: start, visited: visited, handledBy: handledBy,
                    discard: TraceFormatter.discard(in: trace), names: names)
                + (textInput.map { ", typed into \(names.label($0)) (E4)" } ?? "")
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
