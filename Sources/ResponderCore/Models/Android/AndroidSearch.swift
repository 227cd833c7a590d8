import ResponderProtocol

/// Finding the views that take a DOWN under `android` (docs/rules-android.md AD3–AD8, AM2): the search depth
/// first, front to back, with backtracking; the order children are asked in and who is a candidate; a second
/// finger's search through the groups already holding targets; and interception's cancellation of targets.
extension SessionState {
    /// AD3–AD8: the DOWN offered to `root` (already a candidate, the point in its coordinates) and its subtree:
    /// depth-first, front to back, with backtracking. The path from `root` to the view that consumed it, or nil.
    /// Each frame is a group whose children are offered the DOWN in turn; a child that is a group becomes a
    /// frame of its own.
    mutating func androidSearch(
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
            if session.androidFiltered(view, action: .down, run: &run, trace: &trace) { return }
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
    mutating func androidPointerDown(
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
                androidCancelTargets(below: current, depth: path.count - 1, run: &run, trace: &trace)
                action = .pointerDown
                consumed = true
                break walk
            }
            if world.nodes[current]?.spec.android?.splitMotionEvents == false, let oldest = holders.first {
                // AM3: a group that does not split searches for no later finger: the finger goes to the target
                // it has, which gets it as a POINTER_DOWN (with every pointer) and routes it by its own rules.
                let child = oldest.chain[path.count]
                guard let local = androidPoints(path + [child], screen: screen, window: window).last ?? nil,
                    world.nodes[child] != nil
                else { break walk }
                path.append(child)
                point = local
                continue walk
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
    /// Each handler gets the CANCEL through its own handlers (AV1, AC8). True when the active pointer's handler
    /// consumed its CANCEL.
    /// AL2: with `child`, only the targets through that child are cancelled (it was temporarily detached).
    @discardableResult
    mutating func androidCancelTargets(
        below group: String, depth: Int, child: String? = nil, run: inout AndroidRun, trace: inout Trace
    )
        -> Bool
    {
        let active = android.active
        let touch = run.touch
        let (cause, rule): (String, Rule) = child == nil ? ("intercept", .ai4) : ("detached", .al2)
        var consumed = false
        for i in android.pointers.indices
        where android.pointers[i].chain.count > depth + 1
            && android.pointers[i].chain[depth] == group
            && (child == nil || android.pointers[i].chain[depth + 1] == child)
        {
            let p = android.pointers[i]
            for id in p.chain[(depth + 1)...] {
                trace.add(.android(.cancel(to: id, cause: cause, rule: rule, touch: p.touch)))
                android.cancelNext.remove(id)  // the CANCEL resets the flag (resetCancelNextUpFlag)
            }
            trace.add(
                .android(.target(group: group, child: p.chain[depth + 1], added: false, rule: rule, touch: p.touch)))
            android.active = i
            run.touch = p.touch
            let points = androidPoints(p.chain, screen: p.point, window: p.window)
            if let handler = p.chain.last, let view = androidView(handler), let point = points.last ?? nil {
                let took = androidSelf(view, at: point, action: .cancel, run: &run, trace: &trace)
                if i == active { consumed = took }
            }
            android.pointers[i].chain = Array(p.chain[...depth])
        }
        android.active = active
        run.touch = touch
        return consumed
    }

    /// AD4: the children of `group` in the order they are offered a DOWN, front-most first: by Z (elevation +
    /// translationZ), then drawing order. A view controller is not a view: its root view stands in its place.
    /// `reordered`: Z changed the order.
    func androidOrder(of group: String) -> (children: [String], reordered: Bool) {
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
    func androidCandidate(
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
}
