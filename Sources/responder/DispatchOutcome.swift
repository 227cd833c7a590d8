import ResponderProtocol

/// An outcome that reads as paths, one line per delivery: the reply of a dispatching command, and the
/// `outcome` of a trace event.
protocol DispatchOutcome: Codable, Sendable {
    /// `message` labels an action's path (its outcome does not name the action); `trace` gives discard reasons
    /// and whom a become/resign was about.
    func lines(message: String?, trace: Trace) -> [String]
}

extension TouchOutcome: DispatchOutcome {
    func lines(message: String?, trace: Trace) -> [String] {
        deliveries.isEmpty ? ["no deliveries"] : deliveries.map(TraceFormatter.delivery)
    }
}

extension ActionOutcome: DispatchOutcome {
    func lines(message: String?, trace: Trace) -> [String] { [TraceFormatter.action(self, name: message)] }
}

extension MotionOutcome: DispatchOutcome {
    func lines(message: String?, trace: Trace) -> [String] {
        [TraceFormatter.path(message: self.message, start: start, visited: visited, handledBy: handledBy, discard: TraceFormatter.discard(in: trace))]
    }
}

extension RemoteControlOutcome: DispatchOutcome {
    func lines(message: String?, trace: Trace) -> [String] {
        [TraceFormatter.path(message: self.message, start: start, visited: visited, handledBy: handledBy, discard: TraceFormatter.discard(in: trace))]
    }
}

extension PressOutcome: DispatchOutcome {
    func lines(message: String?, trace: Trace) -> [String] {
        let head = "press \(Describe.id(press))" + (key.map { " (\($0))" } ?? "") + ": "
        return [head + TraceFormatter.path(message: self.message, start: start, visited: visited, handledBy: handledBy,
                                           discard: TraceFormatter.discard(in: trace))]
    }
}

extension FocusOutcome: DispatchOutcome {
    func lines(message: String?, trace: Trace) -> [String] {
        [FirstResponderReply.summary(self, verb: trace.kind, id: TraceFormatter.subject(of: trace))]
    }
}

extension TreeChangeOutcome: DispatchOutcome {
    func lines(message: String?, trace: Trace) -> [String] { TraceFormatter.treeChange(self) }
}

extension ClockOutcome: DispatchOutcome {
    func lines(message: String?, trace: Trace) -> [String] {
        var out = ["clock \(from) → \(time) s"]
        out += gestures.map { "gesture \($0.recognizer): \($0.from.rawValue) → \($0.to.rawValue) (\($0.rule.rawValue)\($0.reason.map { ", \($0.rawValue)" } ?? ""))" }
        out += gestureActions.map { "action \($0.action) → \($0.target): \($0.performed ? "performed" : "not performed")" }
        out += gestureDeliveries.map(TraceFormatter.delivery)
        return out
    }
}
