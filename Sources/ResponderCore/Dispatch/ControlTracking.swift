import ResponderProtocol

extension SessionState {
    /// T3: a control turns the phases of the touch it tracks into control events, then sends the actions
    /// registered for them (A1). A text field that sees touch-up inside becomes first responder (F5).
    /// `local`: the touch's point in its own view's bounds, as the world is now (nil where it cannot be converted).
    mutating func trackControl(
        _ control: String, touch: DeliveredTouch, local: Point?, phase: TouchPhase, responders: Responders,
        trace: inout Trace
    ) -> (events: [ControlEvent], actions: [ControlAction]) {
        // Room for a phase's events and those its control's class adds (K2–K5) at once: made for the first event
        // and grown for the next, the list would be allocated twice.
        var events: [ControlEvent] = []
        events.reserveCapacity(4)
        switch phase {
        case .began:
            tracking[touch.id] = ControlTrack(control: control, inside: true)
            events.append(.touchDown)
            if touch.tapCount > 1 { events.append(.touchDownRepeat) }
        case .moved:
            // The track found once and changed where it is: each lookup hashes the touch's id.
            guard let i = tracking.index(forKey: touch.id), tracking.values[i].control == control else { break }
            let inside = isInside(control, touch: touch, local: local, responders: responders)
            switch (tracking.values[i].inside, inside) {
            case (true, true): events.append(.touchDragInside)
            case (false, true):
                events.append(.touchDragEnter)
                events.append(.touchDragInside)
            case (true, false):
                events.append(.touchDragExit)
                events.append(.touchDragOutside)
            case (false, false): events.append(.touchDragOutside)
            }
            tracking.values[i].inside = inside
        case .ended:
            guard let i = tracking.index(forKey: touch.id), tracking.values[i].control == control else { break }
            events.append(
                isInside(control, touch: touch, local: local, responders: responders) ? .touchUpInside : .touchUpOutside
            )
            tracking.remove(at: i)
        case .cancelled:
            guard let i = tracking.index(forKey: touch.id), tracking.values[i].control == control else { break }
            events.append(.touchCancel)
            tracking.remove(at: i)
        case .stationary:
            break
        }
        for event in events {
            trace.add(.controlEvent(control: control, event: event, touch: touch.id))
        }
        // K2–K5: a standard control's own events, with the state they change.
        let (together, after) = classControlEvents(control, touch: touch, phase: phase, events: events, trace: &trace)
        for event in together { trace.add(.controlEvent(control: control, event: event, touch: touch.id, rule: .k2)) }
        // Appending nothing (a button's began) still goes the general way of `+=`.
        if !together.isEmpty { events += together }
        var actions = sendControlActions(control, events: events, responders: responders, trace: &trace)
        for (event, rule) in after where !hasCrashed {
            trace.add(.controlEvent(control: control, event: event, touch: touch.id, rule: rule))
            events.append(event)
            actions += sendControlActions(control, events: [event], responders: responders, trace: &trace)
        }
        // F5: a text field becomes first responder at touch-up inside; a button does not.
        if !hasCrashed, events.contains(.touchUpInside),
            responders.read(control, in: world, { $0.pointee.spec.kind }) == .textField
        {
            _ = becomeFirstResponder(control, focusReason: .tap, rule: .f5, trace: &trace)
        }
        return (events, actions)
    }

    /// T3: inside means within the control's bounds (its hit area, H6) grown by the profile's slop. The touch's
    /// own view is the control, usually: its point there is `local`, converted already.
    private func isInside(_ control: String, touch: DeliveredTouch, local: Point?, responders: Responders) -> Bool {
        guard let p = control == touch.view ? local : localPoint(touch, in: control),
            let slot = world.nodes.slot(of: control)
        else { return false }
        let area = world.nodes.read(slot: slot) { $0.pointee.spec.bounds.inset(by: $0.pointee.spec.hitTest.insets) }
        let s = profile.controlSlop
        return area.inset(by: EdgeInsets(top: -s, left: -s, bottom: -s, right: -s)).contains(p)
    }

    /// A1: every action registered for one of `events`, in registration order, via A2 (explicit target)
    /// or A3/A4 (nil target, the chain) with the control as sender.
    mutating func sendControlActions(
        _ control: String, events: [ControlEvent], responders: Responders, trace: inout Trace
    ) -> [ControlAction] {
        guard !events.isEmpty, let targets = responders.read(control, in: world, { $0.pointee.spec.targets }) else {
            return []
        }
        var out: [ControlAction] = []
        var unrecorded: [String]? = nil
        for (i, registration) in targets.enumerated() where events.contains(registration.event) {
            // A2: a control keeps a target-action-event triple once (UIControl.addTarget(_:action:for:) "is safe to
            // call … multiple times with the same values"): a registration listed again is sent once.
            if targets[..<i].contains(registration) { continue }
            // A2: after a crash nothing more of the dispatch is carried out.
            if hasCrashed { break }
            let outcome = send(
                registration.action, target: registration.target, sender: control, responders: responders,
                visited: &unrecorded, trace: &trace)
            out.append(
                ControlAction(
                    action: registration.action, event: registration.event, target: registration.target,
                    performed: outcome.performed, by: outcome.by))
        }
        return out
    }
}
