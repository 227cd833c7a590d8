import ResponderProtocol

/// Printing the reply of a dispatching request: the outcome's paths (TraceFormatter) followed by any
/// first-responder changes the dispatch made.
package enum DispatchReply {
    /// With `explain`, every step of the trace follows, numbered (StepFormatter), then what each rule it cites
    /// means. `names` names the nodes.
    package static func print<Outcome: DispatchOutcome>(
        _ reply: Published<Traced<Outcome>>, message: String? = nil, explain: Bool = false, names: NodeNames = .none
    ) {
        let traced = reply.base
        for line in traced.outcome.lines(message: message, trace: traced.trace, names: names) { Output.line(line) }
        for line in focusLines(traced.trace, names: names) { Output.line(line) }
        for line in changeLines(traced.trace, names: names) { Output.line(line) }
        for line in editingLines(traced.trace, names: names) { Output.line(line) }
        for line in dismissalLines(traced.trace, names: names) { Output.line(line) }
        for line in crashLines(traced.trace, names: names) { Output.line(line) }
        guard explain else { return }
        Output.line("trace (\(traced.trace.steps.count) step\(traced.trace.steps.count == 1 ? "" : "s")):")
        for line in StepFormatter.lines(traced.trace, names: names) { Output.line("  " + line) }
        for line in StepFormatter.legend(StepFormatter.rules(traced.trace)) { Output.line(line) }
    }

    /// `focus window w1: a → b (reason)` for each first-responder change of a trace.
    package static func focusLines(_ trace: Trace, names: NodeNames = .none) -> [String] {
        trace.focusChanges.map { TraceFormatter.focus($0, names: names) }
    }

    /// `change toggle.on: false → true (K3)` for each node field the dispatch changed (1.6; also published as a
    /// `dispatch` tree event), and in their place `delegate listVC: tableView(_:didSelectRowAt:), handled (K15)` for
    /// each message a table or collection view sent its delegate (K14–K16).
    package static func changeLines(_ trace: Trace, names: NodeNames = .none) -> [String] {
        trace.steps.compactMap { step in
            switch step {
            case .change(let c):
                return change(c, names: names)
            case .deliver(let to, let message, let disposition, let rule, _, _)
            where [.k14, .k15, .k16].contains(rule) && !message.hasPrefix("touches"):
                return "delegate \(names.label(to)): \(message), \(disposition.rawValue) (\(rule.rawValue))"
            default:
                return nil
            }
        }
    }

    /// `change toggle.on: …`, or `change 0x7f8a5c50b000 (UISwitch).on: …` for a named node.
    package static func change(_ c: FieldChange, names: NodeNames = .none) -> String {
        "change \(names.label(c.id)).\(c.field): \(c.from) → \(c.to) (\(c.rule.rawValue))"
    }

    /// A2, G3: `crashed: unrecognized selector save: sent to formVC (A2)` when the dispatch ended in a crash.
    package static func crashLines(_ trace: Trace, names: NodeNames = .none) -> [String] {
        trace.steps.compactMap { step in
            switch step {
            case .action(let action, let target?, _, _, _, let rule, .unrecognizedSelector?):
                return "crashed: unrecognized selector \(action) sent to \(names.label(target)) (\(rule.rawValue))"
            case .gestureAction(let a) where a.reason == .unrecognizedSelector:
                return "crashed: unrecognized selector \(a.action) sent to \(names.label(a.target)) by "
                    + "\(names.label(a.recognizer)) (G3)"
            default:
                return nil
            }
        }
    }

    /// K17, K18: `dismissal of editorVC: dismissed (K17)` for each tap on a dimming view that attempted one,
    /// or `refused (isModalInPresentation)` / `refused (presentationControllerShouldDismiss false)`.
    package static func dismissalLines(_ trace: Trace, names: NodeNames = .none) -> [String] {
        var lines: [String] = []
        for step in trace.steps {
            guard case .check(let id, let check, let value, let rule) = step else { continue }
            let label = "dismissal of \(names.label(id))"
            switch check {
            case .isModalInPresentation where value:
                lines.append("\(label): refused (isModalInPresentation, \(rule.rawValue))")
            case .presentationControllerShouldDismiss:
                lines.append(
                    value
                        ? "\(label): dismissed (\(rule.rawValue))"
                        : "\(label): refused (presentationControllerShouldDismiss false, \(rule.rawValue))")
            default: continue
            }
        }
        return lines
    }

    /// Touch and press ids: integers when they look like integers, strings otherwise.
    package static func identifier(_ text: String) -> EventID {
        if let n = Int(text) { return .integer(n) }
        return .string(text)
    }
}
