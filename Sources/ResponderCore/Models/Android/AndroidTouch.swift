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

    private mutating func androidInput(_ input: TouchInput, index: Int, client: String, trace: inout Trace)
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
            if let g = android.pointers.first(where: { $0.touch == input.touch }) {
                throw .touchInUse(input.touch, client: g.client, reason: .live)
            }
            guard let point = input.point else { throw .touchPointMissing }
            android.active = nil
            if !android.pointers.isEmpty {
                return androidPointerDown(input.touch, at: point, client: client, run: &run, trace: &trace)
            }
            android.disallowed = []  // AD2: a new gesture starts clean
            return androidDown(input.touch, at: point, client: client, run: &run, trace: &trace)
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

    /// AR1: every window is touch-modal here, so the gesture goes to the front-most visible window.
    private func androidWindow() -> String? {
        androidWindows().first { id in world.nodes[id].map { !$0.spec.hidden } ?? false }
    }

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

    private mutating func androidDown(
        _ touch: EventID, at screen: Point, client: String, run: inout AndroidRun, trace: inout Trace
    ) -> TouchDelivery {
        var delivery = TouchDelivery(touch: touch, phase: .began, view: nil, window: nil, message: "ACTION_DOWN")
        guard let window = androidWindow(), let p = world.convert(screen: screen, toWindow: window) else {
            trace.add(.android(.discard(action: "down", reason: "no-window", rule: .ar1, touch: touch)))
            delivery.reason = .unhandled
            delivery.rule = .ar1
            return delivery
        }
        delivery.window = window
        androidEnterTouchMode(window: window, touch: touch, trace: &trace)
        android.gesture = AndroidGesture(
            touch: touch, client: client, window: window, activity: androidActivity(of: window), downPoint: screen,
            point: screen, lastPoint: screen, downTime: clock)
        run.touch = touch
        var chain = androidSearch(from: window, at: p, run: &run, trace: &trace) ?? []
        androidTargetsAdded(chain, from: 0, touch: touch, trace: &trace)
        let consumed = !chain.isEmpty
        if !consumed { chain = [window] }  // AD10: the DecorView keeps the rest of the gesture itself
        android.gesture?.chain = chain
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
    private func androidTargetsAdded(_ chain: [String], from start: Int, touch: EventID, trace: inout Trace) {
        guard chain.count > start + 1 else { return }
        for i in stride(from: chain.count - 2, through: start, by: -1) {
            trace.add(.android(.target(group: chain[i], child: chain[i + 1], added: true, rule: .ad6, touch: touch)))
        }
    }

    /// AD3–AD8: the DOWN offered to `root` (already a candidate, the point in its coordinates) and its subtree:
    /// depth-first, front to back, with backtracking. The path from `root` to the view that consumed it, or nil.
    /// Each frame is a group whose children are offered the DOWN in turn; a child that is a group becomes a
    /// frame of its own.
    private mutating func androidSearch(
        from root: String, at rootPoint: Point, run: inout AndroidRun, trace: inout Trace
    )
        -> [String]?
    {
        struct Frame {
            var id: String
            var point: Point
            var children: [String]
            var reordered: Bool
            var next = 0
        }
        var stack: [Frame] = []
        var consumer: [String]?
        func frame(_ id: String, _ point: Point, session: inout SessionState, trace: inout Trace) -> Frame {
            let intercepted = session.androidIntercepts(id, action: .down, run: &run, trace: &trace)
            let (children, reordered) = intercepted ? ([], false) : session.androidOrder(of: id)
            return Frame(id: id, point: point, children: children, reordered: reordered)
        }
        /// A candidate offered the DOWN: its dispatchTouchEvent override, a leaf's own handlers, or a new frame.
        func offer(_ view: AndroidView, _ point: Point, session: inout SessionState, trace: inout Trace) {
            if let answer = view.dispatchTouchEvent?.answer(for: .down), answer != .super {
                // An overridden dispatchTouchEvent answers for the whole subtree.
                let took = answer == .consume
                run.offer(view.id, action: .down, via: "dispatchTouchEvent", result: took, rule: .av1, trace: &trace)
                if took { consumer = stack.map(\.id) + [view.id] }
            } else if view.isGroup {
                stack.append(frame(view.id, point, session: &session, trace: &trace))
            } else if session.androidSelf(view, at: point, action: .down, run: &run, trace: &trace) {
                consumer = stack.map(\.id) + [view.id]
            }
        }
        guard let rootView = androidView(root) else { return nil }
        offer(rootView, rootPoint, session: &self, trace: &trace)
        while consumer == nil, var top = stack.popLast() {
            if top.next < top.children.count {
                let id = top.children[top.next]
                top.next += 1
                stack.append(top)
                guard let view = androidView(id),
                    let point = androidCandidate(
                        view, in: top.id, at: top.point, reordered: top.reordered, run: &run, trace: &trace)
                else { continue }
                offer(view, point, session: &self, trace: &trace)
                continue
            }
            // AD7: no child took the DOWN: the group dispatches it to itself.
            if let view = androidView(top.id), androidSelf(view, at: top.point, action: .down, run: &run, trace: &trace)
            {
                consumer = stack.map(\.id) + [top.id]
            }
        }
        return consumer
    }

    /// AM2: another finger goes down while the gesture lives. From the DecorView, each group that holds targets
    /// searches its children for the new pointer alone: a child already a target gets it added (and passes it on
    /// the same way); a new child that consumes it, as its own DOWN, becomes a target; when no child takes it, it
    /// goes to the group's least recently added target. A group handling the gesture itself keeps every pointer.
    private mutating func androidPointerDown(
        _ touch: EventID, at screen: Point, client: String, run: inout AndroidRun, trace: inout Trace
    ) -> TouchDelivery {
        let first = android.pointers[0]
        let window = first.window
        var delivery = TouchDelivery(touch: touch, phase: .began, view: nil, window: window, message: "ACTION_DOWN")
        run.touch = touch
        guard var point = world.convert(screen: screen, toWindow: window) else {
            delivery.reason = .unhandled
            delivery.rule = .ar7
            return delivery
        }
        // The pointer exists from here on (press state and checks are kept on it); its targets are found below.
        android.gesture = AndroidGesture(
            touch: touch, client: client, window: window, activity: first.activity, downPoint: screen, point: screen,
            lastPoint: screen, downTime: clock)
        let me = android.pointers.count - 1
        var path = [window]
        var action = AndroidAction.down
        var consumed = false
        walk: while let current = path.last {
            let holders = android.pointers.filter { !$0.chain.isEmpty && Array($0.chain.prefix(path.count)) == path }
            if holders.contains(where: { $0.chain.count == path.count }) {
                // The group (or view) handles the gesture itself: the pointer is its too.
                action = .pointerDown
                if let view = androidView(current) {
                    consumed = androidSelf(view, at: point, action: .pointerDown, run: &run, trace: &trace)
                }
                break walk
            }
            if androidIntercepts(current, action: .pointerDown, run: &run, trace: &trace) {
                // AI4: the targets below get this event as CANCEL; the group has the gesture from the next one.
                androidCancelTargets(below: current, depth: path.count - 1, trace: &trace)
                action = .pointerDown
                consumed = true
                break walk
            }
            let (children, reordered) = androidOrder(of: current)
            for id in children {
                guard let view = androidView(id),
                    let local = androidCandidate(
                        view, in: current, at: point, reordered: reordered, run: &run, trace: &trace)
                else { continue }
                if holders.contains(where: { $0.chain[path.count] == id }) {
                    path.append(id)  // already a target: the pointer is added to it
                    point = local
                    continue walk
                }
                if let sub = androidSearch(from: id, at: local, run: &run, trace: &trace) {
                    let start = path.count - 1
                    path += sub
                    androidTargetsAdded(path, from: start, touch: touch, trace: &trace)
                    consumed = true
                    break walk
                }
            }
            // No child took it: the least recently added target below this group gets it.
            guard let oldest = holders.first else { break walk }
            path = oldest.chain
            action = .pointerDown
            let points = androidPoints(path, screen: screen, window: window)
            if let handler = path.last, let view = androidView(handler), let p = points.last ?? nil {
                consumed = androidSelf(view, at: p, action: .pointerDown, run: &run, trace: &trace)
            }
            break walk
        }
        android.pointers[me].chain = path
        android.active = me
        androidActivityAfter(action, consumed: consumed, run: &run, trace: &trace)
        delivery.message = action.message
        delivery.view = consumed ? path.last : nil
        if let v = delivery.view, let p = world.convert(screen: screen, toWindow: window) {
            delivery.localPoint = world.convert(p, fromWindow: window, to: v)
        }
        return run.finish(delivery, consumed: consumed)
    }

    /// AI4: `group` (at `depth` in the chains) takes the gesture: every pointer's targets below it get CANCEL
    /// and are dropped; the group handles those pointers itself from now on.
    private mutating func androidCancelTargets(below group: String, depth: Int, trace: inout Trace) {
        let active = android.active
        for i in android.pointers.indices
        where android.pointers[i].chain.count > depth + 1
            && android.pointers[i].chain[depth] == group
        {
            let p = android.pointers[i]
            for id in p.chain[(depth + 1)...] {
                trace.add(.android(.cancel(to: id, cause: "intercept", rule: .ai4, touch: p.touch)))
            }
            trace.add(
                .android(.target(group: group, child: p.chain[depth + 1], added: false, rule: .ai4, touch: p.touch)))
            if p.pressed || p.prepressed, let view = p.pressView {
                trace.add(.android(.press(view: view, state: "unpressed", rule: .ac8, touch: p.touch)))
            }
            android.pointers[i].chain = Array(p.chain[...depth])
            android.pointers[i].pressed = false
            android.pointers[i].prepressed = false
            android.pointers[i].tapCheck = nil
            android.pointers[i].longPressCheck = nil
        }
        android.active = active
    }

    /// AD4: the children of `group` in the order they are offered a DOWN, front-most first: by Z (elevation +
    /// translationZ), then drawing order. A view controller is not a view: its root view stands in its place.
    /// `reordered`: Z changed the order.
    private func androidOrder(of group: String) -> (children: [String], reordered: Bool) {
        guard let node = world.nodes[group] else { return ([], false) }
        var entries: [(id: String, z: Double, index: Int)] = []
        for (i, id) in node.children.enumerated() {
            guard var child = world.nodes[id] else { continue }
            if child.kind == .viewController {
                guard let root = child.children.first, let r = world.nodes[root] else { continue }
                child = r
            }
            guard child.kind.isView else { continue }
            let z = child.spec.android.map { ($0.elevation ?? 0) + ($0.translationZ ?? 0) } ?? 0
            entries.append((child.spec.id, z, i))
        }
        let byZ = entries.sorted { $0.z != $1.z ? $0.z > $1.z : $0.index > $1.index }
        return (byZ.map(\.id), byZ.map(\.index) != entries.map(\.index).reversed())
    }

    /// AD5: whether `view`, a child of `group`, can receive the DOWN at `point` (in the group): visible, and the
    /// point inside it once moved into its coordinates. Nothing else is asked: not alpha, not enabled, not
    /// clickable. The point in the child, or nil when it is skipped (with its reason in the trace).
    private func androidCandidate(
        _ view: AndroidView, in group: String, at point: Point, reordered: Bool, run: inout AndroidRun,
        trace: inout Trace
    ) -> Point? {
        guard let child = world.nodes[view.id], let touch = run.touch else { return nil }
        run.note(view, trace: &trace)
        func skip(_ reason: String, _ local: Point?) -> Point? {
            trace.add(
                .android(
                    .candidate(
                        group: group, child: view.id, offered: false, reason: reason, point: local, rule: .ad5,
                        touch: touch)))
            return nil
        }
        // No legacy view Animation runs here, so INVISIBLE and GONE children never receive pointer events.
        if view.visibility != .visible { return skip(view.visibility == .gone ? "gone" : "invisible", nil) }
        guard let local = child.convertFromSuperview(point) else { return skip("singular-transform", nil) }
        guard child.bounds.contains(local) else { return skip("outside-bounds", local) }
        trace.add(
            .android(
                .candidate(
                    group: group, child: view.id, offered: true, reason: nil, point: local,
                    rule: reordered ? .ad4 : .ad5,
                    touch: touch)))
        return local
    }

    // MARK: - Later events

    private mutating func androidLater(_ action: AndroidAction, run: inout AndroidRun, trace: inout Trace)
        -> TouchDelivery
    {
        let g = android.gesture!
        run.touch = g.touch
        var delivery = TouchDelivery(
            touch: g.touch, phase: action.phase, view: nil, window: g.window, message: action.message)
        let points = androidPoints(g.chain, screen: g.point, window: g.window)
        var consumed = false
        var handler = g.chain.last
        var handled = false
        // AI1: every group holding a target is asked first, outermost first (AI7), unless told not to (AI5).
        for i in 0..<max(0, g.chain.count - 1) where !handled {
            let group = g.chain[i]
            guard androidIntercepts(group, action: action, run: &run, trace: &trace) else { continue }
            // AI4: the targets below get this event as CANCEL and are dropped; the group has the rest.
            let below = g.chain[i + 1]
            for id in g.chain[(i + 1)...] {
                trace.add(.android(.cancel(to: id, cause: "intercept", rule: .ai4, touch: g.touch)))
            }
            trace.add(.android(.target(group: group, child: below, added: false, rule: .ai4, touch: g.touch)))
            if let last = g.chain.last, let view = androidView(last), let p = points.last ?? nil {
                consumed = androidSelf(view, at: p, action: .cancel, run: &run, trace: &trace)
            }
            delivery.message = AndroidAction.cancel.message
            android.gesture?.chain = Array(g.chain[...i])
            androidCancelTargets(below: group, depth: i, trace: &trace)  // the other pointers' targets too
            handler = g.chain.last
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
                android.pointers[other].pressView = mine.pressView
                android.pointers[other].pressed = mine.pressed
                android.pointers[other].prepressed = mine.prepressed
                android.pointers[other].tapCheck = mine.tapCheck
                android.pointers[other].longPressCheck = mine.longPressCheck
                android.pointers[other].longPressPerformed = mine.longPressPerformed
            }
        } else if !handled {
            consumed = false
        }
        if !handled { androidActivityAfter(action, consumed: consumed, run: &run, trace: &trace) }
        if consumed, let h = handler {
            delivery.view = h
            delivery.localPoint = world.convert(screen: g.point, toWindow: g.window).flatMap {
                world.convert($0, fromWindow: g.window, to: h)
            }
        }
        if action == .up || action == .cancel {
            android.gesture = nil  // AD12: the gesture's state ends with it
        }
        return run.finish(delivery, consumed: consumed)
    }

    /// The point, given in screen coordinates, in each view of `chain` (nil where a transform cannot be undone).
    private func androidPoints(_ chain: [String], screen: Point, window: String) -> [Point?] {
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

    // MARK: - Interception

    /// AI1–AI6: whether `group` takes the event from its children.
    private mutating func androidIntercepts(
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
    /// not consume goes to its onTouchEvent, which consumes nothing here, and is finished unhandled.
    private mutating func androidActivityAfter(
        _ action: AndroidAction, consumed: Bool, run: inout AndroidRun, trace: inout Trace
    ) {
        guard let g = android.gesture ?? nil, let touch = run.touch else { return }
        if let activity = g.activity {
            trace.add(
                .android(
                    .activity(
                        id: activity, method: "dispatchTouchEvent", action: action.rawValue, result: consumed,
                        rule: .ar6, touch: touch)))
            if !consumed {
                trace.add(
                    .android(
                        .activity(
                            id: activity, method: "onTouchEvent", action: action.rawValue, result: false, rule: .ar5,
                            touch: touch)))
            }
        }
        if !consumed {
            trace.add(.android(.discard(action: action.rawValue, reason: "unhandled", rule: .ar7, touch: touch)))
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
