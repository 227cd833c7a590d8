import ResponderProtocol

/// Focus under `android` (docs/rules-android.md AK1–AK6, AL1, AL4): a window's focused view, kept where UIKit keeps
/// its first responder so that `responder.first`, the focus topic and durable state serve both models.
extension SessionState {
    /// AK1, AK3: `to` takes the window's focus; the previous view loses it and cannot refuse.
    mutating func androidFocus(
        window: String, to: String?, reason: String, rule: Rule, touch: EventID?, trace: inout Trace
    ) {
        let from = firstResponderByWindow[window]
        guard from != to else { return }
        firstResponderByWindow[window] = to
        trace.add(.android(.focus(window: window, from: from, to: to, reason: reason, rule: rule, touch: touch)))
    }

    /// AK2: whether `view` can take focus: visible, focusable and enabled, and in touch mode focusable in it.
    private func androidCanFocus(_ view: AndroidView) -> Bool {
        view.visibility == .visible && view.focusable && view.enabled
            && (!android.touchMode || view.focusableInTouchMode)
    }

    /// AK4: a touch enters touch mode; a focused view that is not focusable in it loses focus.
    mutating func androidEnterTouchMode(window: String, touch: EventID, trace: inout Trace) {
        guard !android.touchMode else { return }
        android.touchMode = true
        guard let focused = firstResponderByWindow[window], let view = androidView(focused), !view.focusableInTouchMode
        else { return }
        androidFocus(window: window, to: nil, reason: "touch-mode", rule: .ak4, touch: touch, trace: &trace)
    }

    /// `responder.become`: requestFocus (AK2, AK3).
    mutating func androidBecome(_ id: String) -> Traced<FocusOutcome> {
        var trace = Trace(kind: .become)
        guard let window = world.window(of: id), let view = androidView(id) else {
            return trace.finish(FocusOutcome(result: false, reason: .notInWindow, resigned: nil))
        }
        let current = firstResponderByWindow[window]
        if current == id {
            return trace.finish(FocusOutcome(result: true, reason: .alreadyFirstResponder, resigned: nil))
        }
        guard androidCanFocus(view) else {
            return trace.finish(FocusOutcome(result: false, reason: .cannotBecome, resigned: nil))
        }
        androidFocus(window: window, to: id, reason: "request", rule: .ak3, touch: nil, trace: &trace)
        return trace.finish(FocusOutcome(result: true, reason: .became, resigned: current))
    }

    /// `responder.resign`: clearFocus. It cannot be refused (AK3); in touch mode nothing takes focus after it (AK6).
    mutating func androidResign(_ id: String) -> Traced<FocusOutcome> {
        var trace = Trace(kind: .resign)
        guard let window = world.window(of: id), firstResponderByWindow[window] == id else {
            return trace.finish(FocusOutcome(result: false, reason: .notFirstResponder, resigned: nil))
        }
        androidFocus(window: window, to: nil, reason: "clear", rule: .ak6, touch: nil, trace: &trace)
        return trace.finish(FocusOutcome(result: true, reason: .resigned, resigned: id))
    }

    /// AL1, AL2, AL3, AL4: a target that becomes temporarily detached is marked for a CANCEL at its next event
    /// (no step here); a tree change cancels the gesture's targets that left the window (a view merely hidden,
    /// disabled or made transparent keeps it), and a focused view that left loses focus.
    mutating func androidTreeChanged(before: World) -> Traced<TreeChangeOutcome>? {
        var trace = Trace(kind: .treeChange)
        var touches: [TouchDelivery] = []
        var resigned: [ForcedResign] = []
        for touch in android.pointers.map(\.touch) where android.activate(touch) {
            guard let g = android.gesture else { continue }
            var run = AndroidRun()
            run.touch = g.touch
            // AL2: onStartTemporaryDetach marks a target so that its next event is a CANCEL.
            for id in g.chain.dropFirst() where world.nodes[id]?.spec.android?.temporarilyDetached == true {
                if before.nodes[id]?.spec.android?.temporarilyDetached != true {
                    android.cancelNext.insert(id)
                }
            }
            if let cut = g.chain.firstIndex(where: { world.window(of: $0) != g.window }) {
                let gone = g.chain[cut]
                trace.add(.android(.cancel(to: gone, cause: "removal", rule: .al1, touch: g.touch)))
                if cut > 0 {
                    trace.add(
                        .android(
                            .target(group: g.chain[cut - 1], child: gone, added: false, rule: .al1, touch: g.touch)))
                }
                if g.pressed || g.prepressed, let view = g.pressView {
                    trace.add(.android(.press(view: view, state: "unpressed", rule: .ac8, touch: g.touch)))
                }
                var d = TouchDelivery(
                    touch: g.touch, phase: .cancelled, view: gone, window: g.window, message: "ACTION_CANCEL")
                d.visited = [gone]
                touches.append(d)
                if cut == 0 {
                    android.gesture = nil
                } else {
                    // AL1: the parent, left without a target, handles the rest of the gesture itself (AD10).
                    android.gesture?.chain = Array(g.chain[..<cut])
                    android.gesture?.unpress()
                    android.gesture?.delegate = nil
                }
            }
        }
        android.active = nil
        for (window, focused) in firstResponderByWindow.sorted(by: { $0.key < $1.key }) {
            guard world.window(of: focused) != window else { continue }
            // AL4: in touch mode, with a current target SDK, nothing takes focus in its place (AK6).
            firstResponderByWindow[window] = nil
            resigned.append(ForcedResign(window: window, from: focused))
            trace.add(.android(.focus(window: window, from: focused, to: nil, reason: "removed", rule: .al4)))
        }
        guard !trace.steps.isEmpty else { return nil }
        return trace.finish(TreeChangeOutcome(touches: touches, presses: [], resigned: resigned))
    }
}
