import ResponderProtocol

extension SessionState {
    /// After a tree change: touches whose view left its window are cancelled (T6, or dropped by
    /// profile), presses whose responder left its window get pressesCancelled (E2), and first responders
    /// that left their window are resigned by force (F6). Nil when nothing was affected.
    mutating func reconcile(before: World) -> Traced<TreeChangeOutcome>? {
        var trace = Trace(kind: .treeChange)
        let responders = Responders(world, before: before)
        var touchEntries: [TouchDelivery] = []
        var pressEntries: [PressCancellation] = []
        var resigned: [ForcedResign] = []

        // T6: a touch whose bound view no longer sits in the touch's window.
        var remaining: [LiveTouch] = []
        var leaving: [LiveTouch] = []
        for t in touches {
            if let v = t.view, world.window(of: v) != t.window { leaving.append(t) } else { remaining.append(t) }
        }
        touches = remaining
        for var t in leaving {
            t.phase = .cancelled
            switch profile.touchOnRemoval {
            case .cancel:
                var entry = deliver(t, phase: .cancelled, responders: responders, rule: .t6, trace: &trace)
                entry.reason = .viewLeftWindow
                touchEntries.append(entry)
            case .drop:
                tracking[t.id] = nil
                trace.discard("touchesCancelled", reason: .viewLeftWindow, rule: .t6, tag: .touch(t.id), view: t.view)
                var entry = TouchDelivery(touch: t.id, phase: .cancelled, view: t.view, window: t.window, message: nil)
                entry.reason = .viewLeftWindow
                entry.dropped = true
                touchEntries.append(entry)
            }
        }

        // E2 (as T6 for touches): a bound press whose responder left its window.
        var keptPresses: [LivePress] = []
        for p in presses {
            guard let responder = p.responder, world.responderWindow(of: responder) != p.window else {
                keptPresses.append(p)
                continue
            }
            let walk = walkChain(PressPhase.cancelled.message, from: responder, responders: responders, rule: .e2, tag: .press(p.id), trace: &trace)
            pressEntries.append(PressCancellation(press: p.id, responder: responder, visited: walk.visited, handledBy: walk.handledBy))
        }
        presses = keptPresses

        // F6: a first responder (or its ancestor) that left its window is resigned by force; nothing is
        // promoted in its place.
        for window in firstResponderByWindow.keys.sorted() {
            let fr = firstResponderByWindow[window]!
            let windowAlive = world[window]?.kind == .window && world.isAttached(window)
            if windowAlive && world.responderWindow(of: fr) == window { continue }
            firstResponderByWindow[window] = nil
            trace.focusChange(window: window, from: fr, to: nil, reason: .leftWindow, rule: .f6)
            resigned.append(ForcedResign(window: window, from: fr))
        }

        guard !touchEntries.isEmpty || !pressEntries.isEmpty || !resigned.isEmpty else { return nil }
        return trace.finish(TreeChangeOutcome(touches: touchEntries, presses: pressEntries, resigned: resigned))
    }
}
