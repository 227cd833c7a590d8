import ResponderProtocol

/// What one input's dispatch collects besides the trace: the views offered it, the listeners it called, the
/// nodes whose unmapped UIKit fields were already noted.
struct AndroidRun {
    var touch: EventID?
    var visited: [String] = []
    var actions: [ControlAction] = []
    var noted: Set<String> = []

    mutating func offer(_ id: String, action: AndroidAction, via: String, result: Bool, rule: Rule, trace: inout Trace)
    {
        if visited.last != id { visited.append(id) }
        if let touch {
            trace.add(
                .android(.offer(to: id, action: action.rawValue, via: via, result: result, rule: rule, touch: touch)))
        }
    }

    /// UIKit fields Android has no counterpart for: said once per view per input, never ignored silently.
    mutating func note(_ view: AndroidView, trace: inout Trace) {
        guard !view.unmapped.isEmpty, noted.insert(view.id).inserted else { return }
        for u in view.unmapped {
            let rule: Rule = u.field == "gestureRecognizers" ? .ax6 : .ad5
            trace.add(.android(.mapping(id: view.id, field: u.field, note: u.note, rule: rule)))
        }
    }

    func finish(_ delivery: TouchDelivery, consumed: Bool) -> TouchDelivery {
        var d = delivery
        d.visited = visited
        d.handledBy = consumed ? (d.view.map { [$0] } ?? []) : []
        d.actions = actions
        if !consumed {
            d.reason = .unhandled
            d.rule = .ar7
        }
        return d
    }
}
