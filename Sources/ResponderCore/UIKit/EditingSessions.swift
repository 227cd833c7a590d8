import ResponderProtocol

/// K11: a text field's or text view's editing session lasts exactly as long as it is first responder. Every
/// path that changes the first responder (F2, F3, F5, F6, F8, F9, K7, K13) goes through `focusMoved`, which
/// ends the old session and begins the new one.
extension SessionState {
    /// Whether `id` is a text field or text view (by its UIKit class, K1).
    func isTextInput(_ id: String) -> Bool {
        world.read(id) { $0.pointee.spec.uikitClass?.isTextInput == true } ?? false
    }

    /// Asks `id`'s delegate one of its questions. The answer is a `check` step when the node declares a
    /// delegate; without one nothing is asked (every answer is true) and the trace stays as it was.
    func askDelegate(
        _ id: String, _ check: FocusCheck, _ answer: KeyPath<TextDelegate, Bool>, rule: Rule, trace: inout Trace
    ) -> Bool {
        guard let delegate = world.read(id, { $0.pointee.spec.uikit.textDelegate }) ?? nil else { return true }
        let value = delegate[keyPath: answer]
        trace.add(.check(id: id, check: check, value: value, rule: rule))
        return value
    }

    /// K11: whether the text field or view `id` agrees to begin editing (its delegate's shouldBeginEditing);
    /// any other responder agrees without being asked.
    func agreesToBeginEditing(_ id: String, trace: inout Trace) -> Bool {
        guard isTextInput(id) else { return true }
        return askDelegate(id, .shouldBeginEditing, \.shouldBeginEditing, rule: .k11, trace: &trace)
    }

    /// F2.4/F3 with K11: a voluntary resign is refused by canResignFirstResponder false, and for a text field or
    /// view by its delegate's shouldEndEditing (asked only once canResignFirstResponder allows it).
    func agreesToResign(_ id: String, rule: Rule, trace: inout Trace) -> Bool {
        let canResign = world.read(id) { $0.pointee.spec.canResignFirstResponder } ?? true
        trace.add(.check(id: id, check: .canResignFirstResponder, value: canResign, rule: rule))
        guard canResign, isTextInput(id) else { return canResign }
        return askDelegate(id, .shouldEndEditing, \.shouldEndEditing, rule: .k11, trace: &trace)
    }

    /// Records a first-responder change and runs its editing sessions (K11): the old text field's
    /// `editingDidEnd` first, then the new one's `editingDidBegin`. `endsEditing` false leaves out the old
    /// field's editingDidEnd (K13's `returnKeyEditingDidEnd: suppressed`).
    /// `before`: the world before a tree change, where a field that left the world is still found (F6).
    mutating func focusMoved(
        window: String, from: String?, to: String?, reason: FocusReason, rule: Rule, endsEditing: Bool = true,
        before: World? = nil, trace: inout Trace
    ) {
        trace.focusChange(window: window, from: from, to: to, reason: reason, rule: rule)
        let responders = Responders(before: before)
        if let from, endsEditing {
            sendEditingEvent(.editingDidEnd, from: from, responders: responders, trace: &trace)
        }
        if let to { sendEditingEvent(.editingDidBegin, from: to, responders: responders, trace: &trace) }
    }

    /// K11–K13: a text field sends the actions registered for an editing event (A1); a text view, not a
    /// UIControl, sends none. The event is a `controlEvent` step when the field has actions for it.
    mutating func sendEditingEvent(
        _ event: ControlEvent, from id: String, responders: Responders? = nil, trace: inout Trace
    ) {
        let responders = responders ?? Responders()
        guard
            responders.read(
                id, in: world,
                { node in
                    node.pointee.spec.uikitClass == .UITextField
                        && node.pointee.spec.targets.contains { $0.event == event }
                }) == true
        else { return }
        let rule: Rule =
            switch event {
            case .editingChanged: .k12
            case .editingDidEndOnExit: .k13
            default: .k11
            }
        trace.add(.controlEvent(control: id, event: event, touch: nil, rule: rule))
        _ = sendControlActions(id, events: [event], responders: responders, trace: &trace)
    }

    /// F8: UIView.endEditing(_ force:) on `id` (a view or a window): the window's first responder, when it lies
    /// in `id`'s hierarchy, resigns — asked as by F3 (it may refuse), or by force without being asked.
    public mutating func endEditing(_ id: String, force: Bool) throws(CoreError) -> Traced<FocusOutcome> {
        _ = try existing(id)
        var trace = Trace(kind: .resign)
        let outcome = endEditing(in: id, force: force, trace: &trace)
        commitChanges()
        return trace.finish(outcome)
    }

    mutating func endEditing(in id: String, force: Bool, trace: inout Trace) -> FocusOutcome {
        let window = world.responderWindow(of: id)
        let fr = window.flatMap { firstResponderByWindow[$0] }
        // F8: a view controller first responder is not in any view's subview hierarchy.
        let inside =
            fr.map { fr in
                world.read(fr, { $0.pointee.spec.kind.isView }) == true && world.isAncestor(id, of: fr)
            } ?? false
        trace.add(.check(id: fr ?? id, check: .firstResponderInside, value: inside, rule: .f8))
        guard let window, let fr, inside else {
            return FocusOutcome(result: false, reason: .noFirstResponderInside, resigned: nil)
        }
        if !force {
            guard agreesToResign(fr, rule: .f8, trace: &trace) else {
                return FocusOutcome(result: false, reason: .cannotResign, resigned: nil)
            }
        }
        firstResponderByWindow[window] = nil
        focusMoved(window: window, from: fr, to: nil, reason: .endEditing, rule: .f8, trace: &trace)
        return FocusOutcome(result: true, reason: .resigned, resigned: fr)
    }
}

/// F9: hiding the first responder, or a view that contains it.
extension SessionState {
    /// Whether `id` or one of its ancestors is hidden in `world`.
    static func isHidden(_ id: String, in world: World) -> Bool {
        var current: String? = id
        while let c = current, let node = world.nodes[c] {
            if node.kind.isView && node.spec.hidden { return true }
            current = node.parent
        }
        return false
    }

    /// F9 (`hiddenFirstResponder: nextKeyView`): a first responder that has just been hidden resigns by force, and
    /// the next view after the hidden subtree in the window's depth-first order (children back to front) that
    /// is not hidden and can become first responder takes its place. With `stays` (iOS) nothing changes.
    mutating func moveHiddenFirstResponders(before: World, resigned: inout [ForcedResign], trace: inout Trace) {
        guard profile.hiddenFirstResponder == .nextKeyView else { return }
        for window in firstResponderByWindow.keys.sorted() {
            guard let fr = firstResponderByWindow[window], world.read(fr, { $0.pointee.spec.kind.isView }) == true,
                Self.isHidden(fr, in: world), !Self.isHidden(fr, in: before)
            else { continue }
            // The outermost hidden view at or above the first responder: the subtree to skip.
            var hiddenRoot = fr
            var current: String? = fr
            while let c = current, c != window, let node = world.nodes[c] {
                if node.spec.hidden { hiddenRoot = c }
                current = node.parent
            }
            let next = nextKeyView(after: hiddenRoot, in: window)
            firstResponderByWindow[window] = next
            resigned.append(ForcedResign(window: window, from: fr))
            focusMoved(window: window, from: fr, to: nil, reason: .hidden, rule: .f9, trace: &trace)
            if let next { focusMoved(window: window, from: nil, to: next, reason: .hidden, rule: .f9, trace: &trace) }
        }
    }

    /// The first view after `subtree` in `window`'s depth-first order that is visible and can become first
    /// responder (the engine's reading: UIKit defines no key-view order).
    func nextKeyView(after subtree: String, in window: String) -> String? {
        var order: [String] = []
        var stack = [window]
        while let id = stack.popLast() {
            guard let node = world.nodes[id] else { continue }
            order.append(id)
            stack.append(contentsOf: node.children.reversed())
        }
        guard let start = order.firstIndex(of: subtree) else { return nil }
        for id in order[(start + 1)...] where !world.isAncestor(subtree, of: id) {
            guard let node = world.nodes[id], node.kind.isView, node.spec.canBecomeFirstResponder,
                !Self.isHidden(id, in: world), world.responderWindow(of: id) == window
            else { continue }
            return id
        }
        return nil
    }
}
