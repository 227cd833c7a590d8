import ResponderProtocol

extension SessionState {
    /// After a tree change: touches whose view left its window are cancelled (T6, or dropped by
    /// profile), presses whose responder left its window get pressesCancelled (E2), and first responders
    /// that left their window are resigned by force (F6). Nil when nothing was affected.
    mutating func reconcile(before: World) -> Dispatch? {
        var trace = Trace(kind: "treeChange")
        let responders = Responders(world, before: before)
        var touchEntries: [JSON] = []
        var pressEntries: [JSON] = []
        var resigned: [JSON] = []

        // T6: a touch whose bound view no longer sits in the touch's window.
        var remaining: [LiveTouch] = []
        var leaving: [LiveTouch] = []
        for t in touches {
            if let v = t.view, world.window(of: v) != t.window { leaving.append(t) } else { remaining.append(t) }
        }
        touches = remaining
        for var t in leaving {
            t.phase = "cancelled"
            switch profile.touchOnRemoval {
            case .cancel:
                let entry = deliver(t, phase: "cancelled", responders: responders, rule: "T6", trace: &trace)
                touchEntries.append(entry.setting("reason", "view-left-window"))
            case .drop:
                tracking[t.key] = nil
                trace.discard("touchesCancelled", reason: "view-left-window", rule: "T6", extra: [("touch", t.id), ("view", JSON(t.view))])
                touchEntries.append(["touch": t.id, "phase": "cancelled", "view": JSON(t.view), "window": JSON(t.window), "message": .null, "reason": "view-left-window", "dropped": true])
            }
        }

        // E2 (as T6 for touches): a bound press whose responder left its window.
        var keptPresses: [LivePress] = []
        for p in presses {
            guard let responder = p.responder, world.responderWindow(of: responder) != p.window else {
                keptPresses.append(p)
                continue
            }
            let tag: [(key: String, value: JSON)] = [("press", p.id)]
            let walk = walkChain("pressesCancelled", from: responder, responders: responders, rule: "E2", tag: tag, trace: &trace)
            pressEntries.append(["press": p.id, "responder": .string(responder), "message": "pressesCancelled", "visited": JSON(walk.visited), "handledBy": JSON(walk.handledBy), "reason": "responder-left-window"])
        }
        presses = keptPresses

        // F6: a first responder (or its ancestor) that left its window is resigned by force; nothing is
        // promoted in its place.
        for window in firstResponderByWindow.keys.sorted() {
            let fr = firstResponderByWindow[window]!
            let windowAlive = world[window]?.kind == .window && world.isAttached(window)
            if windowAlive && world.responderWindow(of: fr) == window { continue }
            firstResponderByWindow[window] = nil
            trace.focusChange(window: window, from: fr, to: nil, reason: "left-window", rule: "F6")
            resigned.append(["window": .string(window), "from": .string(fr)])
        }

        guard !touchEntries.isEmpty || !pressEntries.isEmpty || !resigned.isEmpty else { return nil }
        return trace.finish(["touches": .array(touchEntries), "presses": .array(pressEntries), "resigned": .array(resigned)])
    }
}
