import ResponderProtocol

/// Between recognizers and the view (G7–G9): a phase is delivered, held back while recognizers decide, or
/// withheld because a recognizer took the touch.
extension SessionState {
    /// The recognizers still deciding that hold `phase` of `touch` back: delaysTouchesBegan holds began and
    /// moved (G8), delaysTouchesEnded holds ended (G9).
    func holders(of touch: LiveTouch, phase: TouchPhase) -> [String] {
        guard phase != .cancelled, phase != .stationary else { return [] }
        return touch.recognizers.filter { holds($0, touch.id, beganAt: touch.beganAt, phase) }
    }

    /// Whether any recognizer holds `phase` of the live touch at `index` back: `holders` without making the
    /// list, which a touch no recognizer delays (the usual) would allocate and free for nothing. By index: the
    /// touch handed over as `touches[index]` would have the whole session copied for the call.
    func isHeld(touchAt index: Int, phase: TouchPhase) -> Bool {
        guard phase != .cancelled, phase != .stationary else { return false }
        let touch = touches[index].id, beganAt = touches[index].beganAt
        return touches[index].recognizers.contains { holds($0, touch, beganAt: beganAt, phase) }
    }

    private func holds(_ id: String, _ touch: EventID, beganAt: Double, _ phase: TouchPhase) -> Bool {
        guard let i = runIndex(id), runs[i].state == .possible, runs[i].seen.contains(touch),
            let delays = world.withRecognizer(
                id, on: runs[i].view, slot: runs[i].viewSlot,
                { phase == .ended ? $1.pointee.delaysTouchesEnded : $1.pointee.delaysTouchesBegan })
        else { return false }
        return phase == .ended ? delays : delays && !scrollDelayOver(id, touchBeganAt: beganAt)
    }

    /// The phase the client just sent, after the recognizers have seen it (G1).
    mutating func deliverToView(_ index: Int, phase: TouchPhase, trace: inout Trace) -> TouchDelivery {
        if touches[index].withheld != nil || !touches[index].held.isEmpty || isHeld(touchAt: index, phase: phase) {
            return keptFromView(index, phase: phase, trace: &trace)
        }
        if phase == .began { touches[index].viewGot = true }
        return deliver(touches[index].delivered, phase: phase, responders: Responders(), rule: .t2, trace: &trace)
    }

    /// The phase withheld from the view (a recognizer took the touch, G7/G8) or held back for it (G8/G9).
    private mutating func keptFromView(_ index: Int, phase: TouchPhase, trace: inout Trace) -> TouchDelivery {
        let touch = touches[index]
        let message = phase.message!
        var entry = TouchDelivery(
            touch: touch.id, phase: phase, view: touch.view, window: touch.window,
            localPoint: localPoint(touch.delivered, in: touch.view), message: message)
        if let withheld = touch.withheld {
            trace.discard(
                message, reason: withheld.reason, rule: withheld.rule, tag: .touch(touch.id), view: touch.view)
            entry.reason = TouchDeliveryReason(rawValue: withheld.reason.rawValue)
            entry.rule = withheld.rule
            return entry
        }
        let holding = holders(of: touch, phase: phase)
        let by = holding.isEmpty ? holders(of: touch, phase: touch.held[0].phase) : holding
        let rule: Rule = phase == .ended ? .g9 : .g8
        touches[index].held.append((phase, touch.point))
        trace.add(.held(touch: touch.id, message: message, by: by, rule: rule))
        entry.reason = .held
        entry.rule = rule
        entry.heldBy = by
        return entry
    }

    /// G8, G9: delivers, in order, each held phase no recognizer holds any more.
    mutating func releaseHeld(trace: inout Trace) {
        for index in touches.indices where !touches[index].held.isEmpty && touches[index].withheld == nil {
            while !hasCrashed, let first = touches[index].held.first,
                !isHeld(touchAt: index, phase: first.phase)
            {
                touches[index].held.removeFirst()
                var touch = touches[index].delivered
                touch.point = first.point
                touch.phase = first.phase
                let message = first.phase.message!
                // K8: released because a scroll view's delay ran out, its pan still deciding.
                let beganAt = touches[index].beganAt
                let delayed =
                    first.phase != .ended
                    && touches[index].recognizers.contains { r in
                        runs.first { $0.id == r }?.state == .possible && scrollDelayOver(r, touchBeganAt: beganAt)
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
                var touch = touches[index].delivered
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

    /// The touch's point in `view`'s bounds coordinates; nil when it cannot be converted (or `view` is gone).
    /// The view and the window are each looked up once.
    func localPoint(_ touch: DeliveredTouch, in view: String?) -> Point? {
        guard let window = touch.window, let view else { return nil }
        return world.convert(screen: touch.point, inWindow: window, to: view)
    }
}
