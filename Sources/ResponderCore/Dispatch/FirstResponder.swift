import ResponderProtocol

extension SessionState {
    /// F2 (with F1 defaults on the node, F4 per-window first responders, F7 controllers).
    mutating func becomeFirstResponder(_ id: String, focusReason: FocusReason, rule: Rule, trace: inout Trace)
        -> FocusOutcome
    {
        func check(_ check: FocusCheck, _ value: Bool, _ rule: Rule, on node: String = id) {
            trace.add(.check(id: node, check: check, value: value, rule: rule))
        }
        guard let node = world[id] else {
            check(.inWindow, false, .f2)
            return FocusOutcome(result: false, reason: .notInWindow, resigned: nil)
        }
        // F2.2: its chain must reach a window (F7: controllers too).
        guard let window = world.responderWindow(of: id) else {
            check(.inWindow, false, .f2)
            return FocusOutcome(result: false, reason: .notInWindow, resigned: nil)
        }
        let current = firstResponderByWindow[window]
        // F2.1: already first responder — true, nothing else happens.
        if current == id {
            check(.isFirstResponder, true, .f2)
            return FocusOutcome(result: true, reason: .alreadyFirstResponder, resigned: nil)
        }
        switch profile.becomeOrder {
        case .checkFirst:
            // F2.3: canBecome false → false, the current first responder is untouched; K11: so is a text
            // field or view whose delegate refuses to begin editing.
            check(.canBecomeFirstResponder, node.canBecomeFirstResponder, .f2)
            guard node.canBecomeFirstResponder, agreesToBeginEditing(id, trace: &trace) else {
                return FocusOutcome(result: false, reason: .cannotBecome, resigned: nil)
            }
            // F2.4: the current one is asked to resign and may refuse (K11: its delegate too).
            if let current {
                guard agreesToResign(current, rule: .f2, trace: &trace) else {
                    return FocusOutcome(result: false, reason: .currentCannotResign, resigned: nil)
                }
            }
        case .resignFirst:
            // Docs order: the current one resigns first; a refusal to become then leaves none.
            if let current {
                guard agreesToResign(current, rule: .f2, trace: &trace) else {
                    return FocusOutcome(result: false, reason: .currentCannotResign, resigned: nil)
                }
            }
            check(.canBecomeFirstResponder, node.canBecomeFirstResponder, .f2)
            guard node.canBecomeFirstResponder, agreesToBeginEditing(id, trace: &trace) else {
                if let current {
                    firstResponderByWindow[window] = nil
                    focusMoved(window: window, from: current, to: nil, reason: .resign, rule: .f2, trace: &trace)
                }
                return FocusOutcome(result: false, reason: .cannotBecome, resigned: current)
            }
        }
        // F2.5 (K11: the old field's session ends before the new one's begins)
        firstResponderByWindow[window] = id
        focusMoved(window: window, from: current, to: id, reason: focusReason, rule: rule, trace: &trace)
        return FocusOutcome(result: true, reason: .became, resigned: current)
    }

    /// F3: resigns `id` if it is its window's first responder and agrees to (K11: a text field's delegate too).
    /// On any other responder UIResponder's default answers true and changes nothing.
    mutating func resignFirstResponder(_ id: String, trace: inout Trace) -> FocusOutcome {
        guard let window = world.responderWindow(of: id), firstResponderByWindow[window] == id else {
            trace.add(.check(id: id, check: .isFirstResponder, value: false, rule: .f3))
            return FocusOutcome(result: true, reason: .notFirstResponder, resigned: nil)
        }
        guard agreesToResign(id, rule: .f3, trace: &trace) else {
            return FocusOutcome(result: false, reason: .cannotResign, resigned: nil)
        }
        firstResponderByWindow[window] = nil
        focusMoved(window: window, from: id, to: nil, reason: .resign, rule: .f3, trace: &trace)
        return FocusOutcome(result: true, reason: .resigned, resigned: id)
    }

    /// F2: the UIKit model's `responder.become` (`UIKitModel.become`); `resigned` is the first responder it replaced.
    mutating func uikitBecome(_ id: String) throws(CoreError) -> Traced<FocusOutcome> {
        var trace = Trace(kind: .become)
        let outcome = becomeFirstResponder(id, focusReason: .become, rule: .f2, trace: &trace)
        commitChanges()
        return trace.finish(outcome)
    }

    /// F3: the UIKit model's `responder.resign` (`UIKitModel.resign`).
    mutating func uikitResign(_ id: String) throws(CoreError) -> Traced<FocusOutcome> {
        var trace = Trace(kind: .resign)
        let outcome = resignFirstResponder(id, trace: &trace)
        commitChanges()
        return trace.finish(outcome)
    }
}
