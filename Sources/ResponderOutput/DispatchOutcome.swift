import ResponderProtocol

/// An outcome that reads as paths, one line per delivery: the reply of a dispatching command, and the
/// `outcome` of a trace event.
package protocol DispatchOutcome: Codable, Sendable {
    /// `message` labels an action's path (its outcome does not name the action); `trace` gives discard reasons
    /// and whom a become/resign was about.
    func lines(message: String?, trace: Trace) -> [String]
}

extension TouchOutcome: DispatchOutcome {
    package func lines(message: String?, trace: Trace) -> [String] {
        // Recognizers' decisions are indented under the delivery they happened in (G1: before the view's
        // phase); a recognizer still waiting on another (G5) is said last. Without recognizers: one line each.
        guard !deliveries.isEmpty else { return ["no deliveries"] }
        var order = GestureOrder(trace: trace)
        return deliveries.flatMap { order.deliveryLines($0) } + TraceFormatter.waitLines(trace)
    }
}

extension ActionOutcome: DispatchOutcome {
    /// A published trace does not pass the action's name: its `action` step holds it.
    package func lines(message: String?, trace: Trace) -> [String] {
        let name =
            message
            ?? trace.steps.lazy.compactMap { step -> String? in
                if case .action(let action, _, _, _, _, _, _) = step { return action }
                return nil
            }.first
        return [TraceFormatter.action(self, name: name)]
    }
}

extension MotionOutcome: DispatchOutcome {
    package func lines(message: String?, trace: Trace) -> [String] {
        [
            TraceFormatter.path(
                message: self.message, start: start, visited: visited, handledBy: handledBy,
                discard: TraceFormatter.discard(in: trace))
        ]
    }
}

extension RemoteControlOutcome: DispatchOutcome {
    package func lines(message: String?, trace: Trace) -> [String] {
        [
            TraceFormatter.path(
                message: self.message, start: start, visited: visited, handledBy: handledBy,
                discard: TraceFormatter.discard(in: trace))
        ]
    }
}

extension PressOutcome: DispatchOutcome {
    package func lines(message: String?, trace: Trace) -> [String] {
        let head = "press \(Describe.id(press))" + (key.map { " (\($0))" } ?? "") + ": "
        return [
            head
                + TraceFormatter.path(
                    message: self.message, start: start, visited: visited, handledBy: handledBy,
                    discard: TraceFormatter.discard(in: trace))
        ]
    }
}

extension FocusOutcome: DispatchOutcome {
    package func lines(message: String?, trace: Trace) -> [String] {
        [FirstResponderReply.summary(self, verb: trace.kind, id: TraceFormatter.subject(of: trace))]
    }
}

extension TreeChangeOutcome: DispatchOutcome {
    package func lines(message: String?, trace: Trace) -> [String] { TraceFormatter.treeChange(self, trace: trace) }
}

extension ClockOutcome: DispatchOutcome {
    /// `clock 0 → 0.6 s`, then what the time that passed decided (G11), indented.
    package func lines(message: String?, trace: Trace) -> [String] {
        var order = GestureOrder(trace: trace)
        return ["clock \(Output.number(from)) → \(Output.number(time)) s"]
            + (order.lines(transitions: gestures, actions: gestureActions, deliveries: gestureDeliveries)
            + TraceFormatter.waitLines(trace)).map { "  " + $0 }
    }
}
