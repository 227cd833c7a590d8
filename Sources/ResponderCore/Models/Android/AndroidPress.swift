import ResponderProtocol

/// A view handling an event itself (docs/rules-android.md AV, AC, AS2, AS7): its dispatchTouchEvent override,
/// its OnTouchListener, its onTouchEvent — declared answers or the built-in behaviour of its class: press state,
/// click, long click, touch delegate.
extension SessionState {
    /// AV1: View#dispatchTouchEvent. True when the view consumed the event.
    mutating func androidSelf(
        _ view: AndroidView, at p: Point, action: AndroidAction, run: inout AndroidRun, trace: inout Trace
    ) -> Bool {
        run.note(view, trace: &trace)
        if androidFiltered(view, action: action, run: &run, trace: &trace) { return false }
        if let answer = view.dispatchTouchEvent?.answer(for: action), answer != .super {
            let took = answer == .consume
            run.offer(view.id, action: action, via: "dispatchTouchEvent", result: took, rule: .av1, trace: &trace)
            return took
        }
        if let listener = view.touchListener {
            if view.enabled {
                let took = listener.answer(for: action) == .consume
                run.offer(view.id, action: action, via: "listener", result: took, rule: .av1, trace: &trace)
                if took { return true }
            } else {
                // AV2: a disabled view's OnTouchListener is not called.
                run.offer(view.id, action: action, via: "listener", result: false, rule: .av2, trace: &trace)
            }
        }
        if let answer = view.onTouchEvent?.answer(for: action), answer != .super {
            let took = answer == .consume
            run.offer(
                view.id, action: action, via: "onTouchEvent", result: took, rule: took ? .av1 : .av3, trace: &trace)
            return took
        }
        if view.acts, let delegate = view.touchDelegate,
            let took = androidDelegate(delegate, of: view, at: p, action: action, run: &run, trace: &trace)
        {
            return took
        }
        let (took, rule) = androidDefaultResult(view, action: action)
        run.offer(view.id, action: action, via: "onTouchEvent", result: took, rule: rule, trace: &trace)
        if took && view.acts && (view.clickable || view.longClickable || view.tooltip) {
            if case .none = view.builtin {
                androidPressEffects(view, at: p, action: action, run: &run, trace: &trace)
            }
        }
        switch view.builtin {
        case .seekBar where view.enabled: androidSeek(view, at: p, action: action, run: &run, trace: &trace)
        case .scrollView(let axis) where took:
            androidScroll(view.id, axis: axis, action: action, run: &run, trace: &trace)
        default: break
        }
        return took
    }

    /// What View#onTouchEvent (or the class's own) returns, and the rule that says so.
    private func androidDefaultResult(_ view: AndroidView, action: AndroidAction) -> (Bool, Rule) {
        switch view.builtin {
        case .seekBar: return (view.enabled, .as7)  // AS7: disabled, a SeekBar refuses (unlike AC2)
        case .scrollView: return (action != .down || view.childCount > 0, .as2)
        case .none: break
        }
        // AC2: disabled, it answers whether it is clickable and does nothing else — unless it may click anyway
        // (API 31+), which the rule names too.
        if !view.enabled {
            return (view.clickable || view.longClickable || (view.allowClickWhenDisabled && view.tooltip), .ac2)
        }
        if view.clickable || view.longClickable { return (true, .ac4) }
        // AC14: a tooltip puts a view that is not clickable on the clickable path.
        return (view.tooltip, view.tooltip ? .ac14 : .ac4)
    }

    /// AC11: a touch delegate set on `view` sends a DOWN inside its bounds, and the rest of that gesture, to its
    /// delegate at the delegate's centre. Nil when the delegate plays no part in this event.
    private mutating func androidDelegate(
        _ delegate: AndroidFields.TouchDelegate, of view: AndroidView, at p: Point, action: AndroidAction,
        run: inout AndroidRun, trace: inout Trace
    ) -> Bool? {
        let bounds = delegate.bounds
        if action == .down {
            guard bounds.contains(p) else { return nil }
        } else {
            guard android.gesture?.delegate == delegate.delegate else { return nil }
        }
        guard let target = androidView(delegate.delegate), let node = world.nodes[delegate.delegate] else { return nil }
        let b = node.bounds
        let slop = profile.touchSlop
        let grown = Rect(bounds.x - slop, bounds.y - slop, bounds.width + 2 * slop, bounds.height + 2 * slop)
        let inside = action == .down || grown.contains(p)
        let point = inside ? Point(b.x + b.width / 2, b.y + b.height / 2) : Point(b.x - 2 * slop, b.y - 2 * slop)
        let took = androidSelf(target, at: point, action: action, run: &run, trace: &trace)
        run.offer(view.id, action: action, via: "delegate", result: took, rule: .ac11, trace: &trace)
        if action == .down && took { android.gesture?.delegate = delegate.delegate }
        if action == .up || action == .cancel { android.gesture?.delegate = nil }
        return action == .down && !took ? nil : took
    }

    /// AC5: some ancestor group delays its descendants' pressed state.
    private func androidInScrollingContainer(_ id: String) -> Bool {
        var current = world.nodes[id]?.parent
        while let c = current, let node = world.nodes[c] {
            if node.kind.isView, AndroidView(node).delaysChildPressedState { return true }
            if node.kind == .window { return false }
            current = node.parent
        }
        return false
    }

    /// AC5–AC8: the pressed state of an enabled clickable view, and its click.
    private mutating func androidPressEffects(
        _ view: AndroidView, at p: Point, action: AndroidAction, run: inout AndroidRun, trace: inout Trace
    ) {
        guard var g = android.gesture else { return }
        let touch = g.touch
        switch action {
        case .down:
            g.pressView = view.id
            g.longPressPerformed = false
            if !view.clickable && !view.longClickable {
                // AC14: a tooltip alone: no press, only the long-press check, from the DOWN.
                g.longPressUnpressed = true
                g.longPressCheck = clock + profile.longPressTimeout
            } else if androidInScrollingContainer(view.id) {
                g.prepressed = true
                g.tapCheck = clock + profile.tapTimeout
                trace.add(.android(.press(view: view.id, state: "prepressed", rule: .ac5, touch: touch)))
            } else {
                g.pressed = true
                trace.add(.android(.press(view: view.id, state: "pressed", rule: .ac5, touch: touch)))
                if view.longClickable || view.tooltip { g.longPressCheck = clock + profile.longPressTimeout }
            }
            android.gesture = g
        case .move:
            guard g.pressView == view.id, g.pressed || g.prepressed || g.longPressUnpressed,
                let node = world.nodes[view.id]
            else { return }
            let b = node.bounds
            let slop = profile.touchSlop
            // AC6: leaving the view grown by the slop loses the press for good.
            if !Rect(b.x - slop, b.y - slop, b.width + 2 * slop, b.height + 2 * slop).contains(p) {
                let shown = g.pressed || g.prepressed
                g.unpress()
                android.gesture = g
                if shown { trace.add(.android(.press(view: view.id, state: "unpressed", rule: .ac6, touch: touch))) }
            }
        case .up:
            guard g.pressView == view.id, g.pressed || g.prepressed else {
                // AC14: a tooltip's pending long press ends with the gesture.
                if g.pressView == view.id { android.gesture?.unpress() }
                return
            }
            // AC7 (a): a view focusable in touch mode that is not focused takes focus, and this tap does not click;
            // a disabled view cannot take focus (AK2), so one that may click while disabled clicks.
            var tookFocus = false
            if view.focusable && view.focusableInTouchMode && view.enabled
                && firstResponderByWindow[g.window] != view.id
            {
                androidFocus(window: g.window, to: view.id, reason: "touch", rule: .ac7, touch: touch, trace: &trace)
                tookFocus = true
            }
            if g.prepressed { trace.add(.android(.press(view: view.id, state: "pressed", rule: .ac7, touch: touch))) }
            if !g.longPressPerformed && !tookFocus { androidClick(view, long: false, run: &run, trace: &trace) }
            trace.add(.android(.press(view: view.id, state: "unpressed", rule: .ac7, touch: touch)))
            android.gesture?.unpress()
        case .pointerDown, .pointerUp:
            return  // AM4: the click logic matches no pointer action
        case .cancel:
            guard g.pressView == view.id, g.pressed || g.prepressed else {
                if g.pressView == view.id { android.gesture?.unpress() }
                return
            }
            trace.add(.android(.press(view: view.id, state: "unpressed", rule: .ac8, touch: touch)))
            android.gesture?.unpress()
        }
    }

    /// AS7: a SeekBar outside a scrolling container starts dragging, and claims the gesture, at the DOWN; inside
    /// one, once the finger has moved more than the slop across it. While dragging its value follows the finger;
    /// an UP without a drag seeks to where it was tapped.
    private mutating func androidSeek(
        _ view: AndroidView, at p: Point, action: AndroidAction, run: inout AndroidRun, trace: inout Trace
    ) {
        guard let g = android.gesture else { return }
        var dragging = g.claimed
        if !dragging {
            switch action {
            case .down: dragging = !androidInScrollingContainer(view.id)
            case .move: dragging = androidBeyondSlop(.horizontal)
            case .up, .cancel, .pointerDown, .pointerUp: dragging = false
            }
            if dragging {
                android.gesture?.claimed = true
                androidDisallow(from: view.id, rule: .as7, run: &run, trace: &trace)
            }
        }
        guard dragging || action == .up, action != .cancel, let node = world.nodes[view.id] else { return }
        let spec = node.spec
        let b = node.bounds
        let fraction = b.width > 0 ? min(max((p.x - b.x) / b.width, 0), 1) : 0
        let value = spec.minimumValue + fraction * (spec.maximumValue - spec.minimumValue)
        change(view.id, "value", \.uikit.value, to: value, rule: .as7, trace: &trace)
    }

    /// AS1, AS2: how far a scroll view can scroll along `axis`: its content (its `contentSize`, else the extent of
    /// its children) beyond its size.
    func androidScrollRange(_ id: String, axis: AndroidFields.Axis) -> Double {
        guard let node = world.nodes[id] else { return 0 }
        var extent = node.spec.uikit.contentSize ?? [0, 0]
        if node.spec.uikit.contentSize == nil {
            for child in node.children {
                guard let f = world.nodes[child]?.spec.frame else { continue }
                extent = [max(extent[0], f.x + f.width), max(extent[1], f.y + f.height)]
            }
        }
        return axis == .horizontal
            ? max(extent[0] - node.spec.frame.width, 0) : max(extent[1] - node.spec.frame.height, 0)
    }

    /// AS2: a dragging scroll view scrolls by the finger's movement since the last event, along its axis, within
    /// its content (its `contentSize`, else the extent of its children).
    private mutating func androidScroll(
        _ id: String, axis: AndroidFields.Axis, action: AndroidAction, run: inout AndroidRun, trace: inout Trace
    ) {
        guard action == .move, let g = android.gesture, let node = world.nodes[id] else { return }
        guard let from = g.scrollFrom else {
            // Handling the gesture itself from the DOWN: it starts dragging once past the slop (AS1's test), and
            // asks its parents not to intercept (ScrollView#onTouchEvent) — which decides the rest of the gesture
            // when a nested scroll kept an ancestor from intercepting this MOVE (AS5).
            if androidBeyondSlop(axis) {
                android.gesture?.scrollFrom = g.point
                androidDisallow(from: id, rule: .as2, run: &run, trace: &trace)
            }
            return
        }
        android.gesture?.scrollFrom = g.point
        let range = androidScrollRange(id, axis: axis)
        var origin = node.spec.boundsOrigin
        let wanted: Double
        let consumed: Double
        if axis == .horizontal {
            wanted = from.x - g.point.x
            let x = min(max(origin.x + wanted, 0), range)
            consumed = x - origin.x
            origin.x = x
        } else {
            wanted = from.y - g.point.y
            let y = min(max(origin.y + wanted, 0), range)
            consumed = y - origin.y
            origin.y = y
        }
        change(id, "boundsOrigin", \.boundsOrigin, to: origin, rule: .as2, trace: &trace)
        // AS5: what it could not consume goes to its nested-scrolling parent.
        if wanted != consumed { androidNestedScroll(from: id, amount: wanted - consumed, axis: axis, trace: &trace) }
    }

    /// AC10, AX1, AX2 (click) and AC9 (long click): the listener called, listed in the delivery's actions.
    mutating func androidClick(_ view: AndroidView, long: Bool, run: inout AndroidRun, trace: inout Trace) {
        let touch = run.touch
        if long {
            func longClick(_ listener: String, _ action: String?, _ target: String?, performed: Bool, rule: Rule) {
                trace.add(
                    .android(
                        .click(
                            long: true, view: view.id, listener: listener, action: action, target: target,
                            performed: performed, rule: rule, touch: touch)))
            }
            var handled = false
            if let l = view.longClick {
                run.actions.append(
                    ControlAction(action: l.method, event: nil, target: l.target, performed: true, by: l.target))
                longClick("longClick", l.method, l.target, performed: l.returns, rule: .ac9)
                handled = l.returns
            } else if !view.tooltip {
                // AC9: no listener: not handled unless a context menu or a tooltip shows, so the UP still clicks.
                longClick("none", nil, nil, performed: false, rule: .ac9)
            }
            // AX4, then AC14 (View#performLongClickInternal): what the listener did not handle shows the context
            // menu built from the view and its parents, else the view's tooltip; either counts as handled.
            if !handled { handled = androidShowContextMenu(view, touch: touch, trace: &trace) }
            if !handled && view.tooltip {
                longClick("tooltip", nil, nil, performed: true, rule: .ac14)
                handled = true
            }
            if handled { android.gesture?.longPressPerformed = true }
            return
        }
        if let c = view.click {
            run.actions.append(
                ControlAction(action: c.method, event: nil, target: c.target, performed: true, by: c.target))
            trace.add(
                .android(
                    .click(
                        long: false, view: view.id, listener: "click", action: c.method, target: c.target,
                        performed: true, rule: .ax1, touch: touch)))
        } else if let name = view.clickXml {
            // AX2: the method is looked up on the Activity only, never on fragments or parent views.
            let activity = android.gesture?.activity ?? world.window(of: view.id).flatMap(androidActivity(of:))
            let found =
                activity.flatMap { world.nodes[$0] }.map { n in
                    n.spec.handles[name] != nil || n.spec.handles[name + ":"] != nil
                } ?? false
            if found, let activity {
                run.actions.append(
                    ControlAction(action: name, event: nil, target: activity, performed: true, by: activity))
            }
            trace.add(
                .android(
                    .click(
                        long: false, view: view.id, listener: "clickXml", action: name, target: found ? activity : nil,
                        performed: found, rule: .ax2, touch: touch)))
        } else {
            trace.add(
                .android(
                    .click(
                        long: false, view: view.id, listener: "none", action: nil, target: nil, performed: false,
                        rule: .ac10, touch: touch)))
        }
    }

    /// AC9, AX4: a long press no listener consumed shows the context menu built from the view and its parents;
    /// it is handled (the UP does not click) only when the menu has items.
    private mutating func androidShowContextMenu(_ view: AndroidView, touch: EventID?, trace: inout Trace) -> Bool {
        let items = androidContextMenu(of: view.id)
        guard !items.isEmpty else { return false }
        trace.add(.android(.contextMenu(view: view.id, items: items, touch: touch)))
        return true
    }

    /// AC5, AC9, AC13: the press and long-press checks whose time has come, in time order. A deadline at the
    /// input's own time fires before the input, as UIKit's (G11), to within a nanosecond.
    mutating func androidFireDeadlines(upTo time: Double, run: inout AndroidRun, trace: inout Trace) {
        for touch in android.pointers.map(\.touch) where android.activate(touch) {
            androidFireDue(upTo: time, run: &run, trace: &trace)
        }
        android.active = nil
    }

    /// The active pointer's due checks.
    private mutating func androidFireDue(upTo time: Double, run: inout AndroidRun, trace: inout Trace) {
        while let g = android.gesture {
            let due = [g.tapCheck, g.longPressCheck].compactMap { $0 }.filter { $0 <= time + 1e-9 }.min()
            guard let at = due, let id = g.pressView, let view = androidView(id) else { return }
            run.touch = g.touch
            if g.tapCheck == at {
                android.gesture?.tapCheck = nil
                guard g.prepressed else { continue }
                android.gesture?.prepressed = false
                android.gesture?.pressed = true
                trace.add(.android(.press(view: id, state: "pressed", rule: .ac5, touch: g.touch)))
                if view.longClickable || view.tooltip {
                    android.gesture?.longPressCheck = g.downTime + profile.longPressTimeout
                }
            } else {
                android.gesture?.longPressCheck = nil
                // The check finds the pressed state as it was when it was posted (AC9, AC14).
                guard g.pressed || g.longPressUnpressed else { continue }
                androidClick(view, long: true, run: &run, trace: &trace)
            }
        }
    }

    /// `clock.advance` under `android`: the checks due by `target` fire (AC13).
    mutating func androidAdvanceClock(to target: Double) -> Traced<ClockOutcome> {
        var trace = Trace(kind: .clock)
        var run = AndroidRun()
        let from = clock
        androidFireDeadlines(upTo: target, run: &run, trace: &trace)
        clock = target
        return trace.finish(
            ClockOutcome(
                from: from, time: clock, gestures: [], gestureActions: [], gestureDeliveries: [], controlEvents: nil,
                crashed: nil))
    }
}
