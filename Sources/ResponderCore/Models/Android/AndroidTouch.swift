import ResponderProtocol

/// Android's touch dispatch (docs/rules-android.md AR, AD, AI, AV, AC, AS, AL): a DOWN is offered depth-first,
/// front to back, with backtracking; the views that took it keep the gesture; groups on the way may intercept.
/// Iterative throughout: a tree may be far deeper than a thread's stack allows recursion.
extension SessionState {
    mutating func androidTouch(_ inputs: [TouchInput], client: String) throws(CoreError) -> Traced<TouchOutcome> {
        // Atomic: carried out on a copy that replaces the session only when every input passed.
        var session = self
        var trace = Trace(kind: .touch)
        var deliveries: [TouchDelivery] = []
        for (i, input) in inputs.enumerated() {
            do throws(CoreError) {
                deliveries.append(try session.androidInput(input, index: i, client: client, trace: &trace))
            } catch {
                throw .inTouch(i, error)
            }
        }
        session.commitChanges()
        self = session
        return trace.finish(TouchOutcome(deliveries: deliveries))
    }

    mutating func androidInput(_ input: TouchInput, index: Int, client: String, trace: inout Trace)
        throws(CoreError) -> TouchDelivery
    {
        if let time = input.time, time < clock { throw .timeBeforeClock(time, clock: clock, touch: index) }
        var run = AndroidRun()
        if let time = input.time, time > clock {
            androidFireDeadlines(upTo: time, run: &run, trace: &trace)
            clock = time
        }
        let action = AndroidAction(input.phase)
        if action == .down {
            if let owner = android.pointers.first(where: { $0.touch == input.touch })?.client
                ?? android.windowless[input.touch]
            {
                throw .touchInUse(input.touch, client: owner, reason: .live)
            }
            guard let point = input.point else { throw .touchPointMissing }
            android.active = nil
            if !android.pointers.isEmpty {
                return androidPointerDown(input.touch, at: point, client: client, run: &run, trace: &trace)
            }
            android.disallowed = []  // AD2: a new gesture starts clean
            android.cancelNext = []
            android.nested = []  // AV5: nested scrolling stops at a DOWN
            return androidDown(input.touch, at: point, client: client, run: &run, trace: &trace)
        }
        if let owner = android.windowless[input.touch] {
            guard owner == client else { throw .touchInUse(input.touch, client: owner, reason: .otherClient) }
            if action == .up || action == .cancel { android.windowless[input.touch] = nil }
            trace.add(.android(.discard(action: action.rawValue, reason: "no-window", rule: .ar1, touch: input.touch)))
            var delivery = TouchDelivery(
                touch: input.touch, phase: input.phase, view: nil, window: nil, message: action.message)
            delivery.reason = .unhandled
            delivery.rule = .ar1
            return delivery
        }
        guard android.activate(input.touch), var g = android.gesture else { throw .touchNotFound(input.touch) }
        guard g.client == client else { throw .touchInUse(input.touch, client: g.client, reason: .otherClient) }
        g.lastPoint = g.point
        if let p = input.point { g.point = p }
        g.events += 1
        android.gesture = g
        return androidLater(action, run: &run, trace: &trace)
    }

    // MARK: - DOWN

    /// The attached windows, front-most first (windowLevel, then the later one), as H1 orders them.
    func androidWindows() -> [String] {
        HitTester.windowOrder(world).map { world.nodes.unsafeNode(atSlot: Int($0)).pointee.spec.id }
    }

    /// AR3: the window's callback, its root view controller.
    func androidActivity(of window: String) -> String? {
        world.nodes[window]?.children.first { id in
            guard let n = world.nodes[id] else { return false }
            return n.kind == .viewController && n.spec.presentedBy == nil
        }
    }

    mutating func androidDown(
        _ touch: EventID, at screen: Point, client: String, run: inout AndroidRun, trace: inout Trace
    ) -> TouchDelivery {
        var delivery = TouchDelivery(touch: touch, phase: .began, view: nil, window: nil, message: "ACTION_DOWN")
        let choice = androidWindowChoice(at: screen)
        for w in choice.outside { androidOutside(w, touch: touch, trace: &trace) }
        guard let window = choice.window, let p = world.convert(screen: screen, toWindow: window) else {
            trace.add(.android(.discard(action: "down", reason: "no-window", rule: .ar1, touch: touch)))
            android.windowless[touch] = client
            delivery.reason = .unhandled
            delivery.rule = .ar1
            return delivery
        }
        delivery.window = window
        androidEnterTouchMode(window: window, touch: touch, trace: &trace)
        android.gesture = AndroidGesture(
            touch: touch, client: client, window: window, activity: androidActivity(of: window), downPoint: screen,
            point: screen, lastPoint: screen, downTime: clock, obscured: choice.obscured)
        run.touch = touch
        var chain = androidSearch(from: window, at: p, run: &run, trace: &trace) ?? []
        androidTargetsAdded(chain, from: 0, touch: touch, trace: &trace)
        let consumed = !chain.isEmpty
        if !consumed { chain = [window] }  // AD10: the DecorView keeps the rest of the gesture itself
        android.gesture?.chain = chain
        if consumed { androidStartNestedScrolls(chain, run: &run, trace: &trace) }
        if consumed, let handler = chain.last, let view = androidView(handler), case .down = view.disallow {
            android.gesture?.claimed = true
            androidDisallow(from: handler, rule: .ai5, run: &run, trace: &trace)  // claimed at the DOWN
        }
        androidActivityAfter(.down, consumed: consumed, run: &run, trace: &trace)
        delivery.view = consumed ? chain.last : nil
        if let v = delivery.view { delivery.localPoint = world.convert(p, fromWindow: window, to: v) }
        return run.finish(delivery, consumed: consumed)
    }

    /// AD6: each group from `start` down records the child it passed the DOWN to, innermost first.
    func androidTargetsAdded(_ chain: [String], from start: Int, touch: EventID, trace: inout Trace) {
        guard chain.count > start + 1 else { return }
        for i in stride(from: chain.count - 2, through: start, by: -1) {
            trace.add(.android(.target(group: chain[i], child: chain[i + 1], added: true, rule: .ad6, touch: touch)))
        }
    }

    // MARK: - Later events

    mutating func androidLater(_ action: AndroidAction, run: inout AndroidRun, trace: inout Trace)
        -> TouchDelivery
    {
        let g = android.gesture!
        run.touch = g.touch
        var delivery = TouchDelivery(
            touch: g.touch, phase: action.phase, view: nil, window: g.window, message: action.message)
        let points = androidPoints(g.chain, screen: g.point, window: g.window)
        var consumed = false
        let handler = g.chain.last
        var handled = false
        // AI1: every group holding a target is asked first, outermost first (AI7), unless told not to (AI5).
        for i in 0..<max(0, g.chain.count - 1) where !handled {
            let group = g.chain[i]
            let intercepted = androidIntercepts(group, action: action, run: &run, trace: &trace)
            if !intercepted, android.cancelNext.contains(g.chain[i + 1]) {
                // AL2: the group's target was temporarily detached: it gets this event as CANCEL and stops being
                // a target; the group, left without one, handles the rest itself (AD10).
                consumed = androidCancelTargets(below: group, depth: i, child: g.chain[i + 1], run: &run, trace: &trace)
                delivery.message = AndroidAction.cancel.message
                handled = true
                androidActivityAfter(action, consumed: consumed, run: &run, trace: &trace)
                continue
            }
            guard intercepted else { continue }
            // AI4: the targets below (this finger's and any other's) get this event as CANCEL and are dropped;
            // the group has the rest.
            consumed = androidCancelTargets(below: group, depth: i, run: &run, trace: &trace)
            delivery.message = AndroidAction.cancel.message
            handled = true
            if case .scrollView = androidView(group)?.builtin {
                android.gesture?.scrollFrom = g.point
                androidDisallow(from: group, rule: .as1, run: &run, trace: &trace)  // the drag asks its parents too
            }
            androidActivityAfter(action, consumed: consumed, run: &run, trace: &trace)
        }
        if !handled, let last = handler, let view = androidView(last), let p = points.last ?? nil {
            if case .afterSlop(let axis) = view.disallow, !android.gesture!.claimed, androidBeyondSlop(axis) {
                android.gesture?.claimed = true
                androidDisallow(from: last, rule: .ai5, run: &run, trace: &trace)
            }
            // AM2: the view holds another pointer too: the last but one finger up is a POINTER_UP for it.
            let shared = android.pointers.contains { $0.touch != g.touch && $0.chain.last == last }
            let delivered: AndroidAction = action == .up && shared ? .pointerUp : action
            if delivered != action { delivery.message = delivered.message }
            consumed = androidSelf(view, at: p, action: delivered, run: &run, trace: &trace)
            if delivered == .pointerUp, let mine = android.gesture, mine.pressView != nil,
                let other = android.pointers.firstIndex(where: {
                    $0.touch != mine.touch && $0.chain.last == last && $0.pressView == nil
                })
            {
                // The view keeps its press for the finger still on it: the last one up clicks (AM4).
                android.pointers[other].takePress(from: mine)
            }
        }
        var closed = false
        if !handled { closed = androidActivityAfter(action, consumed: consumed, run: &run, trace: &trace) }
        if consumed, let h = handler {
            delivery.view = h
            delivery.localPoint = world.convert(screen: g.point, toWindow: g.window).flatMap {
                world.convert($0, fromWindow: g.window, to: h)
            }
        }
        if action == .up || action == .cancel {
            android.gesture = nil  // AD12: the gesture's state ends with it
        }
        var finished = run.finish(delivery, consumed: consumed)
        if closed, let activity = g.activity {
            // AR5: the Activity's (or Dialog's) onTouchEvent consumed the event in closing its window.
            finished.handledBy = [activity]
            finished.reason = nil
            finished.rule = nil
        }
        return finished
    }

    /// The point, given in screen coordinates, in each view of `chain` (nil where a transform cannot be undone).
    func androidPoints(_ chain: [String], screen: Point, window: String) -> [Point?] {
        var out: [Point?] = []
        var p = world.convert(screen: screen, toWindow: window)
        for (i, id) in chain.enumerated() {
            if i > 0 {
                var node = world.nodes[id]
                // A view controller between a group and its root view adds nothing to the geometry.
                if node?.kind == .viewController, let root = node?.children.first { node = world.nodes[root] }
                p = p.flatMap { node?.convertFromSuperview($0) }
            }
            out.append(p)
        }
        return out
    }

    /// AS1, AS3, AS7, AC6: whether the finger has moved more than the touch slop along `axis` since the DOWN.
    func androidBeyondSlop(_ axis: AndroidFields.Axis) -> Bool {
        guard let g = android.gesture else { return false }
        let dx = abs(g.point.x - g.downPoint.x)
        let dy = abs(g.point.y - g.downPoint.y)
        switch axis {
        case .vertical: return dy > profile.touchSlop
        case .horizontal: return dx > profile.touchSlop
        case .any: return dx > profile.touchSlop || dy > profile.touchSlop
        }
    }

    func androidView(_ id: String) -> AndroidView? { world.nodes[id].map(AndroidView.init) }
}

extension AndroidAction {
    var phase: TouchPhase {
        switch self {
        case .down, .pointerDown: return .began
        case .move: return .moved
        case .up, .pointerUp: return .ended
        case .cancel: return .cancelled
        }
    }
}
