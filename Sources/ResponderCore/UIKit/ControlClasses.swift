import ResponderProtocol

/// K2–K5: what UIKit's standard controls add to the control events of a touch (T3): their state changes and
/// the events that go with them.
extension SessionState {
    /// `together`: sent with the touch's own events (registration order, A1); `after`: sent afterwards, each
    /// event's actions in turn.
    mutating func classControlEvents(
        _ control: String, touch: DeliveredTouch, phase: TouchPhase, events: [ControlEvent], trace: inout Trace
    )
        -> (together: [ControlEvent], after: [(ControlEvent, Rule)])
    {
        // A button, the common case, needs neither the node's fields nor the touch's point in it.
        guard let cls = world.read(control, { $0.pointee.spec.uikitClass }) ?? nil else { return ([], []) }
        let upInside = events.contains(.touchUpInside)
        if cls == .UIButton { return upInside ? ([.primaryActionTriggered], []) : ([], []) }
        guard let node = world[control]?.spec else { return ([], []) }
        let p = localPoint(touch, in: control)
        switch cls {
        case .UISwitch:
            guard upInside else { return ([], []) }
            change(control, "on", \.uikit.on, to: !node.isOn, rule: .k3, trace: &trace)
            return ([], [(.valueChanged, .k3), (.primaryActionTriggered, .k3)])
        case .UISlider:
            return ([], slider(control, node, touch: touch, phase: phase, point: p, trace: &trace).map { ($0, .k4) })
        case .UISegmentedControl:
            guard upInside, let p, node.numberOfSegments > 0, node.frame.width > 0 else { return ([], []) }
            let width = node.frame.width / Double(node.numberOfSegments)
            let index = min(
                max(Int(((p.x - node.boundsOrigin.x) / width).rounded(.down)), 0), node.numberOfSegments - 1)
            guard index != node.selectedSegmentIndex else { return ([], []) }
            change(control, "selectedSegmentIndex", \.uikit.selectedSegmentIndex, to: index, rule: .k5, trace: &trace)
            return ([], [(.valueChanged, .k5)])
        case .UIStepper:
            let after = stepper(control, node, touch: touch, phase: phase, point: p, events: events, trace: &trace)
            return ([], after.map { ($0, .k5) })
        default:
            return ([], [])
        }
    }

    /// K4: a touch that begins on the thumb drags it; the value follows the touch's horizontal movement.
    private mutating func slider(
        _ control: String, _ node: NodeSpec, touch: DeliveredTouch, phase: TouchPhase, point: Point?, trace: inout Trace
    ) -> [ControlEvent] {
        switch phase {
        case .began:
            if let p = point, thumbArea(node).contains(p) { thumbs[touch.id] = (control, node.value, p.x) }
            return []
        case .moved:
            guard let thumb = thumbs[touch.id], let p = point, node.frame.width > 0 else { return [] }
            let range = node.maximumValue - node.minimumValue
            let next = min(
                max(thumb.value + (p.x - thumb.x) / node.frame.width * range, node.minimumValue), node.maximumValue)
            guard next != node.value else { return [] }
            change(control, "value", \.uikit.value, to: next, rule: .k4, trace: &trace)
            return node.isContinuous ? [.valueChanged] : []
        case .ended, .cancelled:
            guard let thumb = thumbs.removeValue(forKey: touch.id) else { return [] }
            return phase == .ended && !node.isContinuous && node.value != thumb.value ? [.valueChanged] : []
        case .stationary:
            return []
        }
    }

    /// K4: the thumb, a square as tall as the slider centred where `value` lies along its width, grown by the
    /// control slop (T3).
    func thumbArea(_ node: NodeSpec) -> Rect {
        let range = node.maximumValue - node.minimumValue
        let fraction = range > 0 ? (node.value - node.minimumValue) / range : 0
        let side = node.frame.height
        let x = node.boundsOrigin.x + fraction * node.frame.width - side / 2
        let s = profile.controlSlop
        return Rect(x, node.boundsOrigin.y, side, side).inset(by: EdgeInsets(top: -s, left: -s, bottom: -s, right: -s))
    }
}
