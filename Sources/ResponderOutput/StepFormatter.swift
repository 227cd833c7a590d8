import ResponderProtocol

/// `--explain` on the dispatching commands: every step of a trace on a line of its own, in the order the
/// engine took them, each ending with its rule — hit-testing, deliveries up the chain, control events, and
/// what recognizers did (which observe the touch, state changes, waits, held and released phases). Nodes are
/// named as `names` names them.
package enum StepFormatter {
    package static func lines(_ trace: Trace, names: NodeNames = .none) -> [String] {
        trace.steps.enumerated().map { i, step in "\(i + 1). " + line(step, names: names) }
    }

    package static func line(_ step: TraceStep, names: NodeNames = .none) -> String {
        let n = names.label as (String) -> String
        switch step {
        case .hitTest(let v, let touch):
            var text = "hitTest \(n(v.id)): \(v.result.rawValue) at \(Output.point(v.point))"
            if let to = v.to { text += " → \(n(to))" }
            return text + on(touch) + rule(v.rule, v.reason?.rawValue)
        case .deliver(let to, let message, let disposition, let r, let reason, let tag):
            return "deliver \(message) to \(n(to)): \(disposition.rawValue)" + on(tag) + rule(r, reason?.rawValue)
        case .controlEvent(let control, let event, let touch, let r):
            return "controlEvent \(event.rawValue) on \(n(control))" + on(touch) + rule(r, nil)
        case .action(let action, let target, let sender, let performed, let by, let r, let reason):
            let who = performed ? "performed by \(by.map(n) ?? "?")" : "not performed"
            return
                "action \(TraceFormatter.label(action))\(names.label(sender)) → \(target.map(n) ?? "nil target"): \(who)"
                + rule(r, reason?.rawValue)
        case .check(let id, let check, let value, let r):
            return "check \(n(id)) \(check.rawValue): \(value)" + rule(r, nil)
        case .firstResponder(let change, let r):
            return "firstResponder window \(n(change.window)): \(names.label(change.from)) → \(names.label(change.to))"
                + rule(r, change.reason.rawValue)
        case .next(let from, let to, let r):
            return "next \(n(from)) → \(names.label(to))" + rule(r, nil)
        case .discard(let message, let reason, let r, let tag, let blockedBy, let view):
            var text = "discard \(message)" + on(tag)
            if let view { text += " at \(n(view))" }
            if let blockedBy { text += ", blocked by \(n(blockedBy))" }
            return text + rule(r, reason.rawValue)
        case .keyWindow(let from, let to):
            return "keyWindow \(names.label(from)) → \(names.label(to))" + rule(.f4, nil)
        case .observe(let recognizer, let view, let touch, let observes, let reason):
            return
                "observe \(recognizer) on \(n(view)): \(observes ? "observes" : "ignores") touch \(Describe.id(touch))"
                + rule(.g1, reason?.rawValue)
        case .gesture(let t):
            return TraceFormatter.gesture(t)
        case .gestureAction(let a):
            return TraceFormatter.gestureAction(a, names: names)
        case .gestureWait(let recognizer, let waitingFor):
            return "gestureWait \(recognizer) waits for \(waitingFor.joined(separator: ", ")) to fail" + rule(.g5, nil)
        case .scrollAxis(let recognizer, let scrollView, let axes):
            return "scrollAxis \(recognizer) stays possible: \(n(scrollView)) cannot scroll "
                + axes.map { $0 + "ly" }.joined(separator: " or ") + rule(.k19, nil)
        case .held(let touch, let message, let by, let r):
            return "held \(message) of touch \(Describe.id(touch)) by \(by.joined(separator: ", "))" + rule(r, nil)
        case .release(let touch, let message, let by, let r):
            return "release \(message) of touch \(Describe.id(touch))" + (by.map { " (\($0) failed)" } ?? "")
                + rule(r, nil)
        case .change(let c):
            return DispatchReply.change(c, names: names)
        case .keyCommand(let k):
            let what: String
            switch k.result {
            case .performed: what = "performed by \(k.by.map(n) ?? "?")"
            case .notPerformed: what = "not performed"
            case .matched, .skipped: what = k.result.rawValue
            }
            let owner = k.system ? "system" : n(k.id)
            return "keyCommand \(TraceFormatter.shortcut(k.input, k.modifierFlags)) \(k.action) of \(owner): \(what)"
                + on(.press(k.press)) + rule(.e5, nil)
        case .android(let a):
            return android(a, names: names)
        }
    }

    /// An `android` step: its kind, then its members as `name value`, the ids named as `names` names them.
    private static func android(_ step: AndroidStep, names: NodeNames) -> String {
        let ids: Set<String> = ["id", "group", "child", "to", "from", "view", "target"]
        let members = step.members.compactMap { key, value -> String? in
            switch value {
            case .null: return nil
            case .string(let s): return "\(key) " + (ids.contains(key) ? names.label(s) : s)
            case .array(let items):
                return "\(key) " + items.map { $0.stringValue.map(names.label) ?? "\($0)" }.joined(separator: ", ")
            case .bool(let b): return "\(key) \(b)"
            case .number(let n): return "\(key) \(n)"
            case .object: return nil
            }
        }
        return step.kind.rawValue + " " + members.joined(separator: ", ") + on(step.touch) + rule(step.rule, nil)
    }

    /// The rules the steps of `trace` cite, in the order docs/rules.md lists them.
    package static func rules(_ trace: Trace) -> [Rule] {
        Set(trace.steps.map(rule(of:))).sorted()
    }

    /// The rule a step's line ends with.
    package static func rule(of step: TraceStep) -> Rule {
        switch step {
        case .hitTest(let v, _): v.rule
        case .deliver(_, _, _, let r, _, _): r
        case .controlEvent(_, _, _, let r): r
        case .action(_, _, _, _, _, let r, _): r
        case .check(_, _, _, let r): r
        case .firstResponder(_, let r): r
        case .next(_, _, let r): r
        case .discard(_, _, let r, _, _, _): r
        case .keyWindow: .f4
        case .observe: .g1
        case .gesture(let t): t.rule
        case .gestureAction: .g3
        case .gestureWait: .g5
        case .scrollAxis: .k19
        case .held(_, _, _, let r): r
        case .release(_, _, _, let r): r
        case .change(let c): c.rule
        case .keyCommand: .e5
        case .android(let a): a.rule
        }
    }

    /// `rules:` and one line per rule cited, `H3  point(inside:) is the bounds rectangle`: what each id the
    /// explanation printed means. Empty when it cited none.
    package static func legend(_ rules: [Rule]) -> [String] {
        guard !rules.isEmpty else { return [] }
        let width = rules.map(\.rawValue.count).max() ?? 0
        return ["rules:"]
            + rules.map { "  " + $0.rawValue.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + $0.title }
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
