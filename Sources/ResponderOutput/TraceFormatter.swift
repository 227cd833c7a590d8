import ResponderJSON
import ResponderProtocol

/// Turns dispatch outcomes and traces into readable paths, e.g.
/// `touchesBegan: E → C → A → R → RVC → W → App → AD, handled by RVC`. Used by the dispatch commands
/// (on their replies) and by `watch` (on `trace` events, whose `trace` is `{kind, steps, outcome}`).
package enum TraceFormatter {
    /// A trace event's `trace` on one line: `kind: ` and the outcome's paths joined with "; " (the number of
    /// steps when the outcome is not one this client reads).
    package static func summary(trace value: JSON, names: NodeNames = .none) -> String {
        let kind = value["kind"]?.stringValue ?? "dispatch"
        var parts: [String] = []
        if let trace = try? WireDecoder.decode(Trace.self, from: value, strict: false),
            let outcome = outcome(of: trace.kind, from: value["outcome"] ?? .null)
        {
            // One line: the indented details of a delivery (recognizers) become parts of their own.
            parts = outcome.lines(message: nil, trace: trace, names: names).map { String($0.drop { $0 == " " }) }
        }
        if parts.isEmpty {
            let steps = value["steps"]?.arrayValue?.count ?? 0
            parts = ["\(steps) step\(steps == 1 ? "" : "s")"]
        }
        return "\(kind): " + parts.joined(separator: "; ")
    }

    /// The outcome of a published trace, typed by its kind.
    package static func outcome(of kind: TraceKind, from value: JSON) -> (any DispatchOutcome)? {
        func read<Outcome: DispatchOutcome>(_: Outcome.Type) -> (any DispatchOutcome)? {
            try? WireDecoder.decode(Outcome.self, from: value, strict: false)
        }
        switch kind {
        case .touch: return read(TouchOutcome.self)
        case .motion: return read(MotionOutcome.self)
        case .remoteControl: return read(RemoteControlOutcome.self)
        case .press: return read(PressOutcome.self)
        case .action: return read(ActionOutcome.self)
        case .become, .resign: return read(FocusOutcome.self)
        case .treeChange: return read(TreeChangeOutcome.self)
        case .clock: return read(ClockOutcome.self)
        case .hitTest, .responderChain, .canPerform, .makeKey: return nil
        }
    }

    /// `touch 1 began on E: touchesBegan: E → C → …, handled by RVC [control events: touchDown] [actions: …]`.
    package static func delivery(_ d: TouchDelivery, names: NodeNames = .none) -> String {
        var text =
            "touch \(Describe.id(d.touch)) \(d.phase.rawValue)" + (d.view.map { " on \(names.label($0))" } ?? "") + ": "
        let reason = d.reason?.rawValue
        if d.dropped {
            text += "dropped (\(reason ?? "?"))"
        } else if d.reason == .held {
            // G8/G9: nothing reached the view yet; the recognizers named hold the phase.
            text +=
                (d.message ?? "phase") + " held by " + (d.heldBy.isEmpty ? "?" : d.heldBy.joined(separator: ", "))
                + (d.rule.map { " (\($0.rawValue))" } ?? "")
        } else if d.reason == .cancelledByGesture || d.reason == .takenByGesture, d.visited.isEmpty {
            // G7/G8: a recognizer took the touch earlier; this phase reaches no view.
            text +=
                (d.message ?? "phase") + " not delivered (\(reason ?? "?")" + (d.rule.map { ", \($0.rawValue)" } ?? "")
                + ")"
        } else if d.message == nil, let reason {
            text += "nothing delivered (\(reason))"
        } else if d.visited.isEmpty, let reason {
            let rule = d.rule.map { ", \($0.rawValue)" } ?? ""
            text += "delivered to no one (\(reason)\(rule))" + (d.hitView.map { " at \(names.label($0))" } ?? "")
        } else {
            text += path(message: d.message, visited: d.visited, handledBy: d.handledBy, discard: nil, names: names)
            // Reasons of recognizers (released, cancelled-by-gesture) name their rule; the older ones never did.
            if let reason {
                text +=
                    " (\(reason)" + (d.reason?.isGestureReason == true ? d.rule.map { ", \($0.rawValue)" } ?? "" : "")
                    + ")"
            }
        }
        if !d.controlEvents.isEmpty {
            text += " [control events: " + d.controlEvents.map(\.rawValue).joined(separator: ", ") + "]"
        }
        if !d.actions.isEmpty {
            text += " [actions: " + d.actions.map { actionEntry($0, names: names) }.joined(separator: "; ") + "]"
        }
        return text
    }

    /// `gesture dismissTap: possible → recognized (G2, taps-completed)`; `(G4, excluded by cardHold)`.
    package static func gesture(_ t: GestureTransition) -> String {
        var why = [t.rule.rawValue]
        switch (t.reason, t.by) {
        case (let reason?, let by?): why.append("\(reason.rawValue) by \(by)")
        case (let reason?, nil): why.append(reason.rawValue)
        case (nil, let by?): why.append("by \(by)")
        case (nil, nil): break
        }
        return "gesture \(t.recognizer): \(t.from.rawValue) → \(t.to.rawValue) (\(why.joined(separator: ", ")))"
    }

    /// `action dismissKeyboard: dismissTap → rootVC, performed (G3)`, or `…, not performed (not-implemented, G3)`.
    package static func gestureAction(_ a: GestureActionSent, names: NodeNames = .none) -> String {
        "action \(label(a.action))\(a.recognizer) → \(names.label(a.target)), "
            + (a.performed ? "performed (G3)" : "not performed (\(a.reason?.rawValue ?? "?"), G3)")
    }

    /// G5: `gesture singleTap waits for doubleTap to fail (G5)` for each `gestureWait` step of a trace (a
    /// recognizer that would have recognized, holding its decision until the ones it requires fail); K19:
    /// `gesture carousel.pan stays possible: carousel cannot scroll vertically (K19)` for each `scrollAxis` step.
    package static func waitLines(_ trace: Trace) -> [String] {
        trace.steps.compactMap { step in
            switch step {
            case .gestureWait(let recognizer, let waitingFor):
                return "gesture \(recognizer) waits for \(waitingFor.joined(separator: ", ")) to fail (G5)"
            case .scrollAxis(let recognizer, let scrollView, let axes):
                return "gesture \(recognizer) stays possible: \(scrollView) cannot scroll "
                    + axes.map { $0 + "ly" }.joined(separator: " or ") + " (K19)"
            default:
                return nil
            }
        }
    }

    /// `message: a → b → c, handled by X` or `…, discarded (no responder handled it)`; a message that never
    /// started (no `start`, nothing visited) shows the trace's discard reason.
    package static func path(
        message: String?, start: String? = nil, visited: [String], handledBy: [String], discard: String?,
        names: NodeNames = .none
    ) -> String {
        var steps = visited
        if steps.isEmpty, let start { steps = [start] }
        var text = message.map(label) ?? ""
        if steps.isEmpty {
            return text + "discarded" + (discard.map { " (\($0))" } ?? " (no responder)")
        }
        text += names.path(steps)
        text += handledBy.isEmpty ? ", discarded (no responder handled it)" : ", handled by " + names.list(handledBy)
        return text
    }

    /// `copy: A → B, performed by B` or `copy: A → B, not performed (end-of-chain)`.
    package static func action(_ outcome: ActionOutcome, name: String?, names: NodeNames = .none) -> String {
        var text = name.map(label) ?? ""
        text += outcome.visited.isEmpty ? "(no responders)" : names.path(outcome.visited)
        if outcome.performed {
            text += ", performed by " + (outcome.by.map(names.label) ?? "?")
        } else {
            text += ", not performed (" + (outcome.reason?.rawValue ?? "no responder performed it") + ")"
        }
        return text
    }

    /// E5: a key and its modifiers as `responder press` takes them: `cmd+return`, `k`.
    package static func shortcut(_ key: String, _ modifiers: [KeyModifier]) -> String {
        (KeyModifier.canonical(modifiers).map(\.shorthand) + [key]).joined(separator: "+")
    }

    /// An entry of a delivery's `actions`: `save: → VC` or `save: not performed`.
    package static func actionEntry(_ a: ControlAction, names: NodeNames = .none) -> String {
        guard a.performed else { return "\(a.action) not performed" }
        return a.by.map { "\(a.action) → \(names.label($0))" } ?? a.action
    }

    /// A `treeChange` outcome: cancelled touches, cancelled presses, forced resignations, then recognizers
    /// cancelled or failed because their view left, and the phases they released.
    package static func treeChange(_ outcome: TreeChangeOutcome, trace: Trace, names: NodeNames = .none) -> [String] {
        var out = outcome.touches.map { delivery($0, names: names) }
        for p in outcome.presses {
            out.append(
                "press \(Describe.id(p.press)): "
                    + path(
                        message: p.message, start: p.responder, visited: p.visited, handledBy: p.handledBy,
                        discard: nil,
                        names: names) + " (\(p.reason))")
        }
        for r in outcome.resigned {
            out.append("\(names.label(r.from)) resigned first responder of \(names.label(r.window)) (left its window)")
        }
        var order = GestureOrder(trace: trace, names: names)
        out += order.lines(
            transitions: outcome.gestures ?? [], actions: [], deliveries: outcome.gestureDeliveries ?? [])
        return out
    }

    /// `focus window w1: tf1 → tf2 (become)`: a trace's first-responder change, or a focus event's.
    package static func focus(_ change: FocusChange, names: NodeNames = .none) -> String {
        "focus window \(names.label(change.window)): \(names.label(change.from)) → \(names.label(change.to))"
            + " (\(change.reason.rawValue))"
    }

    /// Who a become/resign trace is about: the responder that changed, else the first node checked.
    package static func subject(of trace: Trace) -> String? {
        let change = trace.focusChanges.first
        if let id = trace.kind == .become ? change?.to : change?.from { return id }
        for step in trace.steps {
            if case .check(let id, _, _, _) = step { return id }
        }
        return nil
    }

    /// The reason of the first `discard` step of a trace (`no-key-window, E3`).
    package static func discard(in trace: Trace) -> String? {
        for step in trace.steps {
            if case .discard(_, let reason, let rule, _, _, _) = step { return "\(reason.rawValue), \(rule.rawValue)" }
        }
        return nil
    }

    /// `touchesBegan: ` — or `copy: ` for a selector that already ends in a colon.
    package static func label(_ message: String) -> String { message.hasSuffix(":") ? message + " " : message + ": " }
}

extension TouchDeliveryReason {
    /// Reasons a recognizer gave (G7–G9): printed with their rule.
    package var isGestureReason: Bool {
        self == .held || self == .released || self == .cancelledByGesture || self == .takenByGesture
    }
}

extension GestureState {
    /// G3: the states on entering which a recognizer sends its actions.
    package var sendsActions: Bool { self == .recognized || self == .began || self == .changed || self == .ended }
}
