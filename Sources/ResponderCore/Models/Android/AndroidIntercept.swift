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
            if took && builtin && androidNestedParent(group, axis: axis) {
                // AS1, AS5: a scroll view that accepted a nested scroll on its axis leaves the drag to the child.
                trace.add(
                    .android(
                        .intercept(
                            group: group, action: action.rawValue, result: false, reason: "nested-scroll", rule: .as5,
                            touch: touch)))
                return false
            }
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

    // MARK: - Nested scrolling

    /// AS5: a nested scroll is live whose view is still a target of some finger (AV5).
    func androidNestedLive(_ n: AndroidNestedScroll) -> Bool {
        android.pointers.contains { $0.chain.contains(n.child) }
    }

    /// AS1, AS5: `group` accepted a live nested scroll along `axis`.
    func androidNestedParent(_ group: String, axis: AndroidFields.Axis) -> Bool {
        android.nested.contains { $0.parent == group && $0.axis == axis && androidNestedLive($0) }
    }

    /// AS5: each scroll view on the DOWN's path with nestedScrollingEnabled starts a nested scroll along its axis
    /// (ScrollView and HorizontalScrollView call startNestedScroll for a DOWN): its ancestors are asked
    /// onStartNestedScroll, nearest first, and the first that accepts — a ScrollView for the vertical axis, a
    /// HorizontalScrollView for the horizontal one, no plain group — becomes its nested-scrolling parent. An
    /// accepting parent that has nestedScrollingEnabled starts one of its own in turn (onNestedScrollAccepted),
    /// unless it has one already. Outermost first, as each scroll view's onInterceptTouchEvent sees the DOWN.
    mutating func androidStartNestedScrolls(_ chain: [String], run: inout AndroidRun, trace: inout Trace) {
        guard let touch = run.touch else { return }
        for id in chain.dropFirst() {
            // The member is read off the node first: reading the whole view costs more, on every DOWN.
            guard world.nodes[id]?.spec.android?.nestedScrollingEnabled == true, let view = androidView(id),
                case .scrollView(let axis) = view.builtin,
                !android.nested.contains(where: { $0.child == id })
            else { continue }
            var child = id
            var axes = axis
            var current = world.nodes[id]?.parent
            while let p = current, let node = world.nodes[p] {
                current = node.parent
                guard node.kind.isView else { continue }
                let parent = AndroidView(node)
                var accepted = false
                if case .scrollView(let parentAxis) = parent.builtin { accepted = parentAxis == axes }
                trace.add(
                    .android(
                        .nestedScroll(
                            child: child, parent: p, axes: axes.rawValue, accepted: accepted, rule: .as5, touch: touch))
                )
                if accepted {
                    android.nested.append(AndroidNestedScroll(child: child, parent: p, axis: axes))
                    guard parent.nestedScrollingEnabled, case .scrollView(let own) = parent.builtin,
                        !android.nested.contains(where: { $0.child == p })
                    else { break }
                    child = p
                    axes = own
                    continue
                }
                if node.kind == .window { break }
            }
        }
    }

    /// AS5: `child` could not consume `amount` of its scroll along `axis`: its nested-scrolling parent scrolls by
    /// it (onNestedScroll), within its range, and hands on what it cannot consume in turn.
    mutating func androidNestedScroll(
        from child: String, amount: Double, axis: AndroidFields.Axis, trace: inout Trace
    ) {
        var from = child
        var rest = amount
        while rest != 0,
            let n = android.nested.first(where: { $0.child == from && $0.axis == axis && androidNestedLive($0) }),
            let node = world.nodes[n.parent]
        {
            let range = androidScrollRange(n.parent, axis: axis)
            var origin = node.spec.boundsOrigin
            if axis == .horizontal {
                let x = min(max(origin.x + rest, 0), range)
                rest -= x - origin.x
                origin.x = x
            } else {
                let y = min(max(origin.y + rest, 0), range)
                rest -= y - origin.y
                origin.y = y
            }
            change(n.parent, "boundsOrigin", \.boundsOrigin, to: origin, rule: .as5, trace: &trace)
            from = n.parent
        }
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
