import ResponderProtocol

/// K5: a stepper's halves: − on the left, + on the right, split at the middle.
enum StepperHalf: Sendable { case minus, plus }

/// K5: a stepper tracking a touch: the half it highlights and its autorepeat timer on the session clock (G11).
struct StepperTrack: Sendable {
    let control: String
    var half: StepperHalf?
    /// When the timer fires next; nil without autorepeat.
    var nextTick: Double?
    /// The timer's steps since it last started (a tick that steps nothing restarts the acceleration).
    var ticks = 0
    /// Whether the timer has stepped: touch-up then adds no step.
    var timerStepped = false
}

extension SessionState {
    /// K5: a stepper's own part of a touch. Nothing happens at touch-down; the highlight follows the touch
    /// (within the control slop, T3); touch-up on a highlighted, enabled half steps once unless the timer
    /// already stepped, and then, with `continuous` false, sends the one `valueChanged` it held back.
    mutating func stepper(
        _ control: String, _ node: NodeSpec, touch: DeliveredTouch, phase: TouchPhase, point: Point?,
        events: [ControlEvent], trace: inout Trace
    ) -> [ControlEvent] {
        let inside = events.contains { [.touchDown, .touchDragInside, .touchUpInside].contains($0) }
        let half = inside ? point.map { Self.half(at: $0, node) } : nil
        switch phase {
        case .began:
            let tick = node.autorepeats ? clock + profile.stepperRepeatDelay : nil
            steppers[touch.id] = StepperTrack(control: control, half: half, nextTick: tick)
            return []
        case .moved:
            steppers[touch.id]?.half = half
            return []
        case .ended:
            guard let track = steppers.removeValue(forKey: touch.id), let half else { return [] }
            if track.timerStepped { return node.isContinuous ? [] : [.valueChanged] }
            return step(control, node, half, trace: &trace) ? [.valueChanged] : []
        case .cancelled:
            steppers[touch.id] = nil
            return []
        case .stationary:
            return []
        }
    }

    static func half(at p: Point, _ node: NodeSpec) -> StepperHalf {
        p.x - node.boundsOrigin.x >= node.frame.width / 2 ? .plus : .minus
    }

    /// K5: a half is disabled at its bound unless the stepper wraps.
    static func enabled(_ half: StepperHalf, _ node: NodeSpec) -> Bool {
        node.wraps || (half == .plus ? node.value < node.maximumValue : node.value > node.minimumValue)
    }

    /// K5: `value` ± `stepValue`, wrapped or stopped at the bounds; false when the half is disabled.
    private mutating func step(_ control: String, _ node: NodeSpec, _ half: StepperHalf, trace: inout Trace) -> Bool {
        guard Self.enabled(half, node) else { return false }
        var next = node.value + (half == .plus ? node.stepValue : -node.stepValue)
        if node.wraps {
            if next > node.maximumValue { next = node.minimumValue }
            if next < node.minimumValue { next = node.maximumValue }
        } else {
            next = min(max(next, node.minimumValue), node.maximumValue)
        }
        change(control, "value", \.uikit.value, to: next, rule: .k5, trace: &trace)
        return true
    }

    /// K5: the earliest autorepeat tick of a held stepper.
    func nextStepperTick() -> (touch: EventID, at: Double)? {
        var due: (touch: EventID, at: Double)?
        for (touch, track) in steppers {
            guard let at = track.nextTick else { continue }
            if due == nil || at < due!.at || (at == due!.at && "\(touch)" < "\(due!.touch)") { due = (touch, at) }
        }
        return due
    }

    /// K5: the timer fires: the highlighted half steps if it is enabled (and `valueChanged` goes out while
    /// `continuous`); five steps [stepperRepeatDelay] apart, then [stepperFastRepeatInterval]; a tick that steps
    /// nothing restarts that count. Ticks that would step nothing up to `until` (no input comes between them)
    /// are skipped, keeping the timer's beat.
    mutating func stepperTick(_ touch: EventID, at: Double, until: Double, trace: inout Trace) {
        clock = max(clock, at)
        guard var track = steppers[touch], tracking[touch]?.control == track.control,
            let node = world[track.control]?.spec, node.enabled
        else {
            steppers[touch] = nil
            return
        }
        if let half = track.half, step(track.control, node, half, trace: &trace) {
            track.timerStepped = true
            track.ticks += 1
            if node.isContinuous {
                trace.add(.controlEvent(control: track.control, event: .valueChanged, touch: touch, rule: .k5))
                let actions = sendControlActions(
                    track.control, events: [.valueChanged], responders: Responders(), trace: &trace)
                gestureLog.controlEvents.append(
                    TimedControlEvent(control: track.control, event: .valueChanged, time: at, actions: actions))
            }
            track.nextTick = at + (track.ticks < 5 ? profile.stepperRepeatDelay : profile.stepperFastRepeatInterval)
        } else {
            track.ticks = 0
            let beat = profile.stepperRepeatDelay
            track.nextTick = at + beat * (max(((until - at) / beat).rounded(.down), 0) + 1)
        }
        steppers[touch] = track
    }
}
