import ResponderProtocol

/// Collects the steps of one dispatch (H8: the explanation matters as much as the answer) and the
/// first-responder changes it makes, then assembles the `Dispatch`.
///
/// A trace is `{kind, steps, outcome}`; `kind` is touch | motion | remoteControl | press | action | become |
/// resign | treeChange, or (queries, never published) hitTest | responderChain | canPerform. Steps, in the order they happened (`touch`/`press` name the event in multi-event traces):
/// - `{step: "hitTest", id, result: hit|miss|skipped, reason?, rule, point, to?, touch}` — one per view asked;
///   reason: hidden | alpha | interaction-disabled | disabled-control | outside-bounds | singular-transform |
///   pass-through | never | redirect (`to` names the redirect target)
/// - `{step: "deliver", to, message, disposition: not-handled|handled|handled+super|consumed-by-control, rule,
///   reason?, touch?|press?}` — one per responder a message reaches (action walks too, reason "vetoed")
/// - `{step: "controlEvent", control, event, rule: "T3", touch}`
/// - `{step: "action", action, target, sender, performed, by, rule: A2|A4, reason?}`; reason:
///   not-implemented | target-missing | end-of-chain
/// - `{step: "check", id, check: inWindow|isFirstResponder|canBecomeFirstResponder|canResignFirstResponder,
///   value, rule}` — the questions becomeFirstResponder / resignFirstResponder asked
/// - `{step: "firstResponder", window, from, to, reason, rule}`; reason: become | tap | resign | left-window
/// - `{step: "next", from, to, rule: N1|N2|N3}` — responderChain: one per hop, `to` null at the end
/// - `{step: "discard", message, reason, rule, touch?|press?|blockedBy?}`; reason: end-of-chain | cycle | no-hit
///   | multiple-touch-disabled | exclusive-touch | no-view | no-key-window | no-first-responder | no-responder
///   | not-receiving-remote-control-events | view-left-window
struct Trace {
    let kind: String
    private(set) var steps: [JSON] = []
    private(set) var focus: [JSON] = []

    init(kind: String) { self.kind = kind }

    mutating func add(_ step: JSON) { steps.append(step) }

    /// Records a first-responder change both as a step and as a focus entry.
    mutating func focusChange(window: String, from: String?, to: String?, reason: String, rule: String) {
        steps.append(["step": "firstResponder", "window": .string(window), "from": JSON(from), "to": JSON(to), "reason": .string(reason), "rule": .string(rule)])
        focus.append(["window": .string(window), "from": JSON(from), "to": JSON(to), "reason": .string(reason)])
    }

    mutating func discard(_ message: String, reason: String, rule: String, extra: [(key: String, value: JSON)] = []) {
        steps.append(.object([("step", "discard"), ("message", .string(message)), ("reason", .string(reason)), ("rule", .string(rule))] + extra))
    }

    func finish(_ outcome: JSON) -> Dispatch {
        Dispatch(result: outcome, trace: ["kind": .string(kind), "steps": .array(steps), "outcome": outcome], focus: focus)
    }
}

extension Point {
    var json: JSON { [.number(x), .number(y)] }
}
