import ResponderProtocol

/// Puts what recognizers decided during a delivery (its `gestures`, `gestureActions` and `gestureDeliveries`)
/// in the order the trace shows them happen: a long press begins, excludes the tap (G4), its view gets
/// touchesCancelled (G7), then its action is sent (G3). The outcome keeps the three in separate lists; the
/// trace has one `gesture` step per transition and one `gestureAction` step per action, in the order of the
/// deliveries, and a `release` or `deliver` step where each recognizer-caused delivery starts. One value
/// walks one trace across all the deliveries of its outcome, in order. Should the trace not line up with the
/// outcome (a newer engine), each transition is followed by the actions it sent and the deliveries come last.
package struct GestureOrder {
    private let steps: [TraceStep]
    private var gestureSteps: [Int] = []
    private var actionSteps: [Int] = []
    private var nextGesture = 0
    private var nextAction = 0
    private var deliveryCursor = 0
    private let names: NodeNames

    package init(trace: Trace, names: NodeNames = .none) {
        steps = trace.steps
        self.names = names
        for (i, step) in steps.enumerated() {
            switch step {
            case .gesture: gestureSteps.append(i)
            case .gestureAction: actionSteps.append(i)
            default: break
            }
        }
    }

    /// A delivery and, indented below it, what recognizers decided during it.
    package mutating func deliveryLines(_ d: TouchDelivery) -> [String] {
        [TraceFormatter.delivery(d, names: names)]
            + lines(transitions: d.gestures, actions: d.gestureActions, deliveries: d.gestureDeliveries).map {
                "  " + $0
            }
    }

    /// The lines of one delivery's recognizer decisions, in trace order. Empty without recognizers.
    package mutating func lines(
        transitions: [GestureTransition], actions: [GestureActionSent], deliveries: [TouchDelivery]
    ) -> [String] {
        if transitions.isEmpty, actions.isEmpty, deliveries.isEmpty { return [] }
        enum Item {
            case line(String)
            case delivery(TouchDelivery)
        }
        // Found on a copy: a trace that does not line up leaves the walk where it was.
        var walk = self
        var items: [(at: Int, item: Item)] = []
        for t in transitions {
            guard let at = walk.take(t) else {
                return Self.unordered(transitions: transitions, actions: actions, deliveries: deliveries, names: names)
            }
            items.append((at, .line(TraceFormatter.gesture(t))))
        }
        for a in actions {
            guard let at = walk.take(a) else {
                return Self.unordered(transitions: transitions, actions: actions, deliveries: deliveries, names: names)
            }
            items.append((at, .line(TraceFormatter.gestureAction(a, names: names))))
        }
        for d in deliveries {
            guard let at = walk.start(of: d) else {
                return Self.unordered(transitions: transitions, actions: actions, deliveries: deliveries, names: names)
            }
            walk.deliveryCursor = at + 1
            items.append((at, .delivery(d)))
        }
        self = walk
        return items.enumerated().sorted { ($0.element.at, $0.offset) < ($1.element.at, $1.offset) }.flatMap {
            entry -> [String] in
            switch entry.element.item {
            case .line(let text): return [text]
            // A delivery a recognizer caused carries no decisions of its own in practice: printed grouped if it does.
            case .delivery(let d): return Self.unordered(transitions: [], actions: [], deliveries: [d], names: names)
            }
        }
    }

    /// The index of the next `gesture` step, if it is this transition; advances past it.
    private mutating func take(_ t: GestureTransition) -> Int? {
        guard nextGesture < gestureSteps.count, case .gesture(let s) = steps[gestureSteps[nextGesture]], s == t else {
            return nil
        }
        nextGesture += 1
        return gestureSteps[nextGesture - 1]
    }

    /// The index of the next `gestureAction` step, if it is this action; advances past it.
    private mutating func take(_ a: GestureActionSent) -> Int? {
        guard nextAction < actionSteps.count, case .gestureAction(let s) = steps[actionSteps[nextAction]], s == a else {
            return nil
        }
        nextAction += 1
        return actionSteps[nextAction - 1]
    }

    /// Where a recognizer-caused delivery starts: its `release` step (G8/G9), else the first delivery of its
    /// phase to its touch (a G7 touchesCancelled), searching forward from the last one found.
    private func start(of d: TouchDelivery) -> Int? {
        guard deliveryCursor <= steps.count else { return nil }
        for i in deliveryCursor..<steps.count {
            switch steps[i] {
            case .release(let touch, let message, _, _) where touch == d.touch && message == d.message:
                return i
            case .deliver(_, let message, _, _, _, .touch(let touch)?) where touch == d.touch && message == d.message:
                return i
            default:
                continue
            }
        }
        return nil
    }

    /// Without a trace to follow: each transition, then the actions it sent (G3: one per target on each
    /// recognized, began, changed and ended), then the deliveries.
    package static func unordered(
        transitions: [GestureTransition], actions: [GestureActionSent], deliveries: [TouchDelivery],
        names: NodeNames = .none
    ) -> [String] {
        var out: [String] = []
        var pending = actions
        for t in transitions {
            out.append(TraceFormatter.gesture(t))
            guard t.to.sendsActions else { continue }
            let sending = transitions.filter { $0.recognizer == t.recognizer && $0.to.sendsActions }.count
            let total = actions.filter { $0.recognizer == t.recognizer }.count
            var share = sending > 0 ? max(1, total / sending) : 0
            while share > 0, let i = pending.firstIndex(where: { $0.recognizer == t.recognizer }) {
                out.append(TraceFormatter.gestureAction(pending.remove(at: i), names: names))
                share -= 1
            }
        }
        out += pending.map { TraceFormatter.gestureAction($0, names: names) }
        for d in deliveries {
            out.append(TraceFormatter.delivery(d, names: names))
            out += unordered(
                transitions: d.gestures, actions: d.gestureActions, deliveries: d.gestureDeliveries, names: names
            ).map {
                "  " + $0
            }
        }
        return out
    }
}
