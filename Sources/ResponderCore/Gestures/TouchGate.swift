import ResponderProtocol

/// Between recognizers and the view (G7–G9): a phase is delivered, held back while recognizers decide, or
/// withheld because a recognizer took the touch.
extension SessionState {
    /// The recognizers still deciding that hold `phase` of `touch` back: delaysTouchesBegan holds began and
    /// moved (G8), delaysTouchesEnded holds ended (G9).
    func holders(of touch: LiveTouch, phase: TouchPhase) -> [String] {
        guard phase != .cancelled, phase != .stationary else { return [] }
        return touch.recognizers.filter { holds($0, touch, phase) }
    }

    /// Whether any recognizer holds `phase` of `touch` back: `holders` without making the list, which a touch
    /// no recognizer delays (the usual) would allocate and free for nothing.
    func isHeld(_ touch: LiveTouch, phase: TouchPhase) -> Bool {
        guard phase != .cancelled, phase != .stationary else { return false }
        return touch.recognizers.contains { holds($0, touch, phase) }
    }

    private func holds(_ id: String, _ touch: LiveTouch, _ phase: TouchPhase) -> Bool {
        guard let i = runIndex(id), runs[i].state == .possible, runs[i].seen.contains(touch.id),
            let delays = world.withRecognizer(
                id, on: runs[i].view, slot: runs[i].viewSlot,
                { phase == .ended ? $1.pointee.delaysTouchesEnded : $1.pointee.delaysTouchesBegan })
        else { return false }
        return phase == .ended ? delays : delays && !scrollDelayOver(id, touch: touch)
    }

    /// The phase the client just sent, after the recognizers have seen it (G1).
    mutating func deliverToView(_ index: Int, phase: TouchPhase, trace: inout Trace) -> TouchDelivery {
        let touch = touches[index]
        let message = phase.message!
        // The entry is built only where it is the answer: a delivered phase's entry is `deliver`'s.
        func entry() -> TouchDelivery {
            TouchDelivery(touch: touch.id, phase: phase, view: touch.view, window: touch.window, message: message)
        }
        if let withheld = touch.withheld {
            var entry = entry()
            trace.discard(
                message, reason: withheld.reason, rule: withheld.rule, tag: .touch(touch.id), view: touch.view)
            entry.reason = TouchDeliveryReason(rawValue: withheld.reason.rawValue)
            entry.rule = withheld.rule
            entry.localPoint = localPoint(touch, in: touch.view)
            return entry
        }
        if !touch.held.isEmpty || isHeld(touch, phase: phase) {
            let holding = holders(of: touch, phase: phase)
            let by = holding.isEmpty ? holders(of: touch, phase: touch.held[0].phase) : holding
            let rule: Rule = phase == .ended ? .g9 : .g8
            touches[index].held.append((phase, touch.point))
            trace.add(.held(touch: touch.id, message: message, by: by, rule: rule))
            var entry = entry()
            entry.localPoint = localPoint(touch, in: touch.view)
            entry.reason = .held
            entry.rule = rule
            entry.heldBy = by
            return entry
        }
        if phase == .began { touches[index].viewGot = true }
        return deliver(touch, phase: phase, responders: Responders(), rule: .t2, trace: &trace)
    }

    /// G8, G9: delivers, in order, each held phase no recognizer holds any more.
    mutating func releaseHeld(trace: inout Trace) {
        for index in touches.indices where !touches[index].held.isEmpty && touches[index].withheld == nil {
            while !hasCrashed, let first = touches[index].held.first,
                !isHeld(touches[index], phase: first.phase)
            {
                touches[index].held.removeFirst()
                var touch = touches[index]
                touch.point = first.point
                touch.phase = first.phase
                let message = first.phase.message!
                // K8: released because a scroll view's delay ran out, its pan still deciding.
                let delayed =
                    first.phase != .ended
                    && touch.recognizers.contains { r in
                        runs.first { $0.id == r }?.state == .possible && scrollDelayOver(r, touch: touch)
                    }
                trace.add(
                    .release(
                        touch: touch.id, message: message, by: delayed ? nil : releaseCause,
                        rule: delayed ? .k8 : first.phase == .ended ? .g9 : .g8))
                if first.phase == .began { touches[index].viewGot = true }
                var entry = deliver(touch, phase: first.phase, responders: Responders(), rule: .t2, trace: &trace)
                entry.reason = .released
                entry.rule = delayed ? .k8 : first.phase == .ended ? .g9 : .g8
                gestureLog.deliveries.append(entry)
            }
        }
    }

    /// G7, G8: a recognizer that recognized or began takes the touches it has seen from their views.
    mutating func takeTouches(_ id: String, spec: AttemptParameters, trace: inout Trace) {
        guard let run = runs.first(where: { $0.id == id }) else { return }
        for touchID in run.seen {
            guard let index = touches.firstIndex(where: { $0.id == touchID }), touches[index].view != nil,
                touches[index].withheld == nil
            else { continue }
            if spec.delaysTouchesBegan && !touches[index].viewGot {
                withhold(index, reason: .takenByGesture, rule: .g8, trace: &trace)
            } else if spec.cancelsTouchesInView {
                withhold(index, reason: .cancelledByGesture, rule: .g7, trace: &trace)
                // Only what was delivered is cancelled: a view that never had touchesBegan gets nothing.
                guard touches[index].viewGot else { continue }
                var touch = touches[index]
                touch.phase = .cancelled
                var entry = deliver(touch, phase: .cancelled, responders: Responders(), rule: .g7, trace: &trace)
                entry.reason = .cancelledByGesture
                entry.rule = .g7
                gestureLog.deliveries.append(entry)
            }
        }
    }

    /// The view gets nothing more of the touch; phases held for it are dropped (each a discard step).
    private mutating func withhold(_ index: Int, reason: DiscardReason, rule: Rule, trace: inout Trace) {
        for held in touches[index].held {
            trace.discard(
                held.phase.message!, reason: reason, rule: rule, tag: .touch(touches[index].id),
                view: touches[index].view)
        }
        touches[index].held = []
        touches[index].withheld = (reason, rule)
    }

    /// The touch's point in `view`'s bounds coordinates; nil when it cannot be converted (or `view` is gone:
    /// the conversion into it answers nil then, so it is not looked up first).
    func localPoint(_ touch: LiveTouch, in view: String?) -> Point? {
        guard let w = touch.window, let view, let wp = world.convert(screen: touch.point, toWindow: w)
        else { return nil }
        return world.convert(wp, fromWindow: w, to: view)
    }
}
