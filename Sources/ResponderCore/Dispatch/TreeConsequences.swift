import ResponderProtocol

extension SessionState {
    /// After a tree change: touches whose view left its window are cancelled (T6, or dropped by
    /// profile), presses whose responder left its window get pressesCancelled (E2), and first responders
    /// that left their window are resigned by force (F6). Nil when nothing was affected. The UIKit model's
    /// answer to a tree change (`UIKitModel.treeChanged`).
    mutating func uikitTreeChanged(before: World) -> Traced<TreeChangeOutcome>? {
        var trace = Trace(kind: .treeChange)
        gestureLog = GestureLog()
        releaseCause = nil
        crash = nil
        let responders = Responders(before: before)
        var touchEntries: [TouchDelivery] = []
        var pressEntries: [PressCancellation] = []
        var resigned: [ForcedResign] = []

        // G2: recognizers that were removed or disabled, or whose view left its window, go first, so that
        // they are cancelled for that reason rather than by the cancelled touches below.
        cancelGoneRecognizers(trace: &trace)

        // T6: a touch whose bound view no longer sits in the touch's window.
        var remaining: [LiveTouch] = []
        var leaving: [LiveTouch] = []
        for t in touches {
            if let v = t.view, world.window(of: v) != t.window { leaving.append(t) } else { remaining.append(t) }
        }
        touches = remaining
        for var t in leaving {
            t.phase = .cancelled
            if !t.finished { recognizersSee(t.id, observers: t.recognizers, .cancelled(t.id), trace: &trace) }
            // A touch a recognizer took, or whose began its view never had, has nothing to cancel (G7, G8).
            // Its entry says it is over (dropped: nothing was delivered).
            if t.withheld != nil || (t.view != nil && !t.viewGot && !t.recognizers.isEmpty) {
                for held in t.held {
                    trace.discard(
                        held.phase.message!, reason: .viewLeftWindow, rule: .t6, tag: .touch(t.id), view: t.view)
                }
                tracking[t.id] = nil
                var entry = TouchDelivery(touch: t.id, phase: .cancelled, view: t.view, window: t.window, message: nil)
                entry.reason = .viewLeftWindow
                entry.dropped = true
                touchEntries.append(entry)
                continue
            }
            switch profile.touchOnRemoval {
            case .cancel:
                var entry = deliver(t.delivered, phase: .cancelled, responders: responders, rule: .t6, trace: &trace)
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
            let walk = walkChain(
                PressPhase.cancelled.message, from: responder, world: world, responders: responders, rule: .e2,
                tag: .press(p.id),
                trace: &trace)
            pressEntries.append(
                PressCancellation(press: p.id, responder: responder, visited: walk.visited, handledBy: walk.handledBy))
        }
        presses = keptPresses

        // F6: a first responder (or its ancestor) that left its window is resigned by force; nothing is
        // promoted in its place.
        for window in firstResponderByWindow.keys.sorted() {
            let fr = firstResponderByWindow[window]!
            let windowAlive = world[window]?.kind == .window && world.isAttached(window)
            if windowAlive && world.responderWindow(of: fr) == window { continue }
            firstResponderByWindow[window] = nil
            focusMoved(
                window: window, from: fr, to: nil, reason: .leftWindow, rule: .f6, before: before, trace: &trace)
            resigned.append(ForcedResign(window: window, from: fr))
        }
        moveHiddenFirstResponders(before: before, resigned: &resigned, trace: &trace)

        releaseHeld(trace: &trace)
        resetFinished(trace: &trace)
        touches.removeAll(where: \.isDone)
        let log = gestureLog
        gestureLog = GestureLog()
        guard
            !touchEntries.isEmpty || !pressEntries.isEmpty || !resigned.isEmpty || !log.transitions.isEmpty
                || !log.actions.isEmpty || !log.deliveries.isEmpty
        else { return nil }
        return trace.finish(
            TreeChangeOutcome(
                touches: touchEntries, presses: pressEntries, resigned: resigned, gestures: log.transitions,
                gestureActions: log.actions, gestureDeliveries: log.deliveries))
    }
}

extension SessionState {
    /// G2: a recognizer that was removed, disabled, moved to another view, or whose view left the window
    /// mid-gesture is cancelled (or fails, if still possible) and observes nothing more; the phases it held
    /// are released afterwards (G8, G9).
    mutating func cancelGoneRecognizers(trace: inout Trace) {
        guard !runs.isEmpty else { return }
        for run in runs {
            let current = world.recognizer(run.id)
            let inWindow = current.map { $0.view == run.view && world.window(of: run.view) != nil } ?? false
            guard current?.spec.enabled != true || !inWindow else { continue }
            let reason: GestureReason = inWindow ? .disabled : .removed
            if run.state == .possible {
                fail(run.id, reason: reason, rule: .g2, by: nil, trace: &trace)
            } else if run.state == .began || run.state == .changed {
                transition(run.id, to: .cancelled, rule: .g2, reason: reason, trace: &trace)
            }
            if let i = runIndex(run.id) {
                runs[i].touches = []
                runs[i].seen = []
            }
            for t in touches.indices { touches[t].recognizers.removeAll { $0 == run.id } }
        }
    }
}
