import ResponderProtocol

/// Interception (docs/rules-android.md AI1–AI7, AS1, AS3) and the Activity's part in a touch (AR4–AR7).
extension SessionState {
    // MARK: - Interception

    /// AI1–AI6: whether `group` takes the event from its children.
    mutating func androidIntercepts(
        _ group: String, action: AndroidAction, run: inout AndroidRun, trace: inout Trace
    )
        -> Bool
    {
        guard let view = androidView(group), let touch = run.touch else { return false }
        run.note(view, trace: &trace)
        if android.disallowed.contains(group) && action != .down {
            trace.add(
                .android(
                    .intercept(
                        group: group, action: action.rawValue, result: false, reason: "disallowed", rule: .ai5,
                        touch: touch)))
            return false
        }
        let result: Bool
        let rule: Rule
        switch view.intercept {
        case .never: (result, rule) = (false, .ai2)
        case .always: (result, rule) = (action != .cancel, action == .down ? .ai3 : .ai4)
        case .down: (result, rule) = (action == .down, action == .down ? .ai3 : .ai1)
        case .afterSlop(let axis):
            let builtin: Bool = { if case .scrollView = view.builtin { return true } else { return false } }()
            // AS1: a scroll view with nothing to scroll along its axis never takes the gesture.
            let canScroll = !builtin || androidScrollRange(group, axis: axis) > 0
            let took = action == .move && canScroll && androidBeyondSlop(axis)
            (result, rule) = (took, builtin ? (axis == .horizontal ? .as3 : .as1) : (took ? .ai4 : .ai1))
        case .atEvent(let n): (result, rule) = ((android.gesture?.events ?? 1) == n, n == 1 ? .ai3 : .ai4)
        }
        trace.add(
            .android(
                .intercept(group: group, action: action.rawValue, result: result, reason: nil, rule: rule, touch: touch)
            ))
        return result
    }

    /// AI5: `from` asks its parent not to intercept; the request goes up to the DecorView, stopping at a group
    /// already told.
    mutating func androidDisallow(from: String, rule: Rule, run: inout AndroidRun, trace: inout Trace) {
        guard let g = android.gesture, let touch = run.touch else { return }
        var groups: [String] = []
        var current = world.nodes[from]?.parent
        while let id = current, let node = world.nodes[id] {
            if node.kind.isView {
                if android.disallowed.contains(id) { break }
                groups.append(id)
            }
            if id == g.window { break }
            current = node.parent
        }
        android.disallowed.formUnion(groups)
        trace.add(.android(.disallow(from: from, groups: groups, rule: rule, touch: touch)))
    }

    // MARK: - The Activity

    /// AR4, AR6, AR7: the Activity saw the event first and returns what the tree returned; an event the tree did
    /// not consume goes to its onTouchEvent, which consumes it only to close its window (AR5; true then), and is
    /// otherwise finished unhandled.
    @discardableResult
    mutating func androidActivityAfter(
        _ action: AndroidAction, consumed: Bool, run: inout AndroidRun, trace: inout Trace
    ) -> Bool {
        guard let g = android.gesture ?? nil, let touch = run.touch else { return false }
        // AR5: what no view consumed reaches the Activity's onTouchEvent, which closes a window that closes on
        // outside touches.
        let closes = !consumed && g.activity != nil && androidClosesOnTouch(g.window, action: action, at: g.point)
        if let activity = g.activity {
            trace.add(
                .android(
                    .activity(
                        id: activity, method: "dispatchTouchEvent", action: action.rawValue,
                        result: consumed || closes, rule: .ar6, touch: touch)))
            if !consumed {
                trace.add(
                    .android(
                        .activity(
                            id: activity, method: "onTouchEvent", action: action.rawValue, result: closes, rule: .ar5,
                            touch: touch)))
            }
            if closes {
                androidClose(g.window, activity: activity, action: action.rawValue, touch: touch, trace: &trace)
            }
        }
        if !consumed && !closes {
            trace.add(.android(.discard(action: action.rawValue, reason: "unhandled", rule: .ar7, touch: touch)))
        }
        return closes
    }
}
