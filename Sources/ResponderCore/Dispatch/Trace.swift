import ResponderProtocol

/// Collects the steps of one dispatch (H8: the explanation matters as much as the answer) and the
/// first-responder changes it makes, then assembles the `Dispatch`.
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
