import ResponderProtocol

/// `--explain` on the dispatching commands: every step of a trace on a line of its own, in the order the
/// engine took them, each ending with its rule — hit-testing, deliveries up the chain, control events, and
/// what recognizers did (which observe the touch, state changes, waits, held and released phases).
package enum StepFormatter {
    package static func lines(_ trace: Trace) -> [String] {
        trace.steps.enumerated().map { i, step in "\(i + 1). " + line(step) }
    }

    package static func line(_ step: TraceStep) -> String {
        switch step {
        case .hitTest(let v, let touch):
            var text = "hitTest \(v.id): \(v.result.rawValue) at \(Output.point(v.point))"
            if let to = v.to { text += " → \(to)" }
            return text + on(touch) + rule(v.rule, v.reason?.rawValue)
        case .deliver(let to, let message, let disposition, let r, let reason, let tag):
            return "deliver \(message) to \(to): \(disposition.rawValue)" + on(tag) + rule(r, reason?.rawValue)
        case .controlEvent(let control, let event, let touch, let r):
            return "controlEvent \(event.rawValue) on \(control)" + on(touch) + rule(r, nil)
        case .action(let action, let target, let sender, let performed, let by, let r, let reason):
            let who = performed ? "performed by \(by ?? "?")" : "not performed"
            return "action \(TraceFormatter.label(action))\(sender ?? "-") → \(target ?? "nil target"): \(who)"
                + rule(r, reason?.rawValue)
        case .check(let id, let check, let value, let r):
            return "check \(id) \(check.rawValue): \(value)" + rule(r, nil)
        case .firstResponder(let change, let r):
            return "firstResponder window \(change.window): \(Describe.id(change.from)) → \(Describe.id(change.to))"
                + rule(r, change.reason.rawValue)
        case .next(let from, let to, let r):
            return "next \(from) → \(Describe.id(to))" + rule(r, nil)
        case .discard(let message, let reason, let r, let tag, let blockedBy, let view):
            var text = "discard \(message)" + on(tag)
            if let view { text += " at \(view)" }
            if let blockedBy { text += ", blocked by \(blockedBy)" }
            return text + rule(r, reason.rawValue)
        case .keyWindow(let from, let to):
            return "keyWindow \(Describe.id(from)) → \(Describe.id(to))" + rule(.f4, nil)
        case .observe(let recognizer, let view, let touch, let observes, let reason):
            return "observe \(recognizer) on \(view): \(observes ? "observes" : "ignores") touch \(Describe.id(touch))"
                + rule(.g1, reason?.rawValue)
        case .gesture(let t):
            return TraceFormatter.gesture(t)
        case .gestureAction(let a):
            return TraceFormatter.gestureAction(a)
        case .gestureWait(let recognizer, let waitingFor):
            return "gestureWait \(recognizer) waits for \(waitingFor.joined(separator: ", ")) to fail" + rule(.g5, nil)
        case .held(let touch, let message, let by, let r):
            return "held \(message) of touch \(Describe.id(touch)) by \(by.joined(separator: ", "))" + rule(r, nil)
        case .release(let touch, let message, let by, let r):
            return "release \(message) of touch \(Describe.id(touch))" + (by.map { " (\($0) failed)" } ?? "")
                + rule(r, nil)
        case .change(let c):
            return DispatchReply.change(c)
        }
    }

    /// ` (H3, outside-bounds)` or ` (T2)`.
    private static func rule(_ rule: Rule, _ reason: String?) -> String {
        " (" + rule.rawValue + (reason.map { ", \($0)" } ?? "") + ")"
    }

    private static func on(_ touch: EventID?) -> String { touch.map { " [touch \(Describe.id($0))]" } ?? "" }

    private static func on(_ tag: EventTag?) -> String {
        switch tag {
        case .touch(let id): return " [touch \(Describe.id(id))]"
        case .press(let id): return " [press \(Describe.id(id))]"
        case nil: return ""
        }
    }
}
