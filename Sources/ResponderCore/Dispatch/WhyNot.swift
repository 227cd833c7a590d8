import ResponderProtocol

/// What `whyNot` asks about a view.
public enum WhyNotQuestion: Sendable, Equatable {
    /// A touch at a screen point, or anywhere on the view (nil).
    case touch(at: Point?)
    /// An action sent with a nil target from `sender` (A3: else from the first responder).
    case action(String, sender: String?)
    /// becomeFirstResponder (F2).
    case become
}

extension SessionState {
    /// Why view `id` does not get a touch, an action or the first responder: the decisive cause first, with the
    /// rule and the responder to blame. Each question is answered by the rules that decide it (the hit test, the
    /// A3/A4 walk, F2), run on a copy: nothing changes.
    /// For a touch, what follows the hit test (T4, T5, G1–G11, K8) decides too: `tapFate` runs the tap through
    /// the dispatch on a copy. `area`: `hittable` carries the area it was measured over.
    public func whyNot(_ id: String, _ question: WhyNotQuestion, area: Bool = false) throws(CoreError)
        -> WhyNotAnswer
    {
        let node = try existing(id, field: "view")
        var hittable = Hittable(fraction: 0, point: nil)
        var touchCauses: [WhyNotCause] = []
        var touchOK = false
        if !node.kind.isView {
            touchCauses = [
                WhyNotCause(
                    rule: .h2, reason: .notAView, culprit: id,
                    detail: "\(id) is a \(node.kind.rawValue), not a view: only views are hit-tested.")
            ]
        } else if let path = world.hitTestPath(to: id) {
            let point: Point? = if case .touch(let p) = question { p } else { nil }
            let answer = TouchWhy(world: world, profile: profile, view: id, path: path).answer(at: point, area: area)
            (touchOK, touchCauses, hittable) = (answer.ok, answer.causes, answer.hittable)
            // Wherever the view is the hit-test view, the same recognizers observe a tap, and a tap does not move:
            // one tap, at the point asked or at the hittable point, answers for all of them.
            if case .touch = question, touchOK, let at = point ?? hittable.point {
                let kept = tapFate(of: id, at: at)
                if !kept.isEmpty {
                    (touchOK, touchCauses) = (false, kept + answer.elsewhere)
                } else {
                    // K11, K14–K16: the tap reaches the view; what it is for (a cell's selection, a text field's
                    // editing) may still not happen.
                    let purpose = tapPurposeCauses(id, at: at)
                    if !purpose.isEmpty { (touchOK, touchCauses) = (false, purpose) }
                }
            } else if case .touch = question, !touchOK, touchCauses.first?.reason == .takenBySubview,
                world.cellContainer(of: id) != nil, let at = point ?? hittable.point ?? answer.centre
            {
                // K14: a view inside a cell that does not handle touches passes them up to the cell, whose
                // selection is what a tap there is for.
                if let through = cellTapThroughSubview(id, at: at) {
                    (touchOK, touchCauses) = (through.isEmpty, through)
                }
            }
        } else {
            touchCauses = [
                WhyNotCause(
                    rule: .h1, reason: .notInWindow, culprit: world.treeRoot(of: id),
                    detail: "\(id) is not in an attached window's views, so hit-testing never reaches it.")
            ]
        }
        if area, hittable.area == nil { hittable.area = [] }
        switch question {
        case .touch:
            return WhyNotAnswer(ok: touchOK, causes: touchCauses, hittable: hittable)
        case .action(let action, let sender):
            if let sender { _ = try existing(sender, field: "sender") }
            let causes = actionCauses(id, action: action, sender: sender)
            return WhyNotAnswer(ok: causes.isEmpty, causes: causes, hittable: hittable)
        case .become:
            let causes = becomeCauses(id)
            return WhyNotAnswer(ok: causes.isEmpty, causes: causes, hittable: hittable)
        }
    }

    /// A3/A4: the nil-target walk, found as `action.canPerform` finds it, without performing anything.
    func actionCauses(_ id: String, action: String, sender: String?) -> [WhyNotCause] {
        var query = self
        var trace = Trace(kind: .canPerform)
        let outcome = query.performAction(
            action, target: nil, sender: sender, responders: Responders(), perform: false, trace: &trace)
        if outcome.by == id { return [] }
        let start = nilTargetStart(sender: sender)
        let then = outcome.by.map { "; \($0) performs it" } ?? "; nobody after it performs it"
        if outcome.visited.contains(id) {
            // Asked and passed on: it does not implement the action, or its canPerformAction refuses it.
            for step in trace.steps {
                if case .deliver(let to, _, _, let rule, .vetoed?, _) = step, to == id {
                    return [
                        WhyNotCause(
                            rule: rule, reason: .vetoed, culprit: id,
                            detail: "\(id) implements \(action) but its canPerformAction refuses it\(then).")
                    ]
                }
            }
            return [
                WhyNotCause(
                    rule: .a4, reason: .notImplemented, culprit: id,
                    detail: "\(id) does not implement \(action)\(then).")
            ]
        }
        if let by = outcome.by, world.responderChain(from: start).contains(id) {
            return [
                WhyNotCause(
                    rule: .a4, reason: .takenEarlier, culprit: by,
                    detail: "\(by) performs \(action) before the walk from \(start) reaches \(id).")
            ]
        }
        return [
            WhyNotCause(
                rule: .a3, reason: .notInChain, culprit: start,
                detail: "The walk starts at \(start), whose responder chain does not pass \(id)\(then).")
        ]
    }

    /// F2: becomeFirstResponder, asked as `responder.become` asks it, on a copy.
    func becomeCauses(_ id: String) -> [WhyNotCause] {
        var query = self
        var trace = Trace(kind: .become)
        let outcome = query.becomeFirstResponder(id, focusReason: .become, rule: .f2, trace: &trace)
        switch outcome.reason {
        case .notInWindow:
            return [
                WhyNotCause(
                    rule: .f2, reason: .notInWindow, culprit: id,
                    detail: "\(id)'s responder chain reaches no attached window (detached, covered by a full-screen "
                        + "presentation, or not a view's responder).")
            ]
        case .cannotBecome:
            if trace.steps.contains(where: { step in
                if case .check(id, .shouldBeginEditing, false, _) = step { return true } else { return false }
            }) {
                return [
                    WhyNotCause(
                        rule: .k11, reason: .beginEditingRefused, culprit: id,
                        detail: "\(id)'s delegate refuses to begin editing (textFieldShouldBeginEditing answers "
                            + "false), so it does not become first responder.")
                ]
            }
            return [
                WhyNotCause(
                    rule: .f2, reason: .cannotBecome, culprit: id,
                    detail: "\(id)'s canBecomeFirstResponder is false (F1: true by default only for text fields and "
                        + "text views).")
            ]
        case .currentCannotResign:
            var current: String?
            for step in trace.steps {
                if case .check(let who, .canResignFirstResponder, false, _) = step { current = who }
                if case .check(let who, .shouldEndEditing, false, _) = step {
                    return [
                        WhyNotCause(
                            rule: .k11, reason: .endEditingRefused, culprit: who,
                            detail: "\(who), its window's first responder, is editing and its delegate refuses to "
                                + "end editing (textFieldShouldEndEditing answers false), so it does not resign.")
                    ]
                }
            }
            return [
                WhyNotCause(
                    rule: .f2, reason: .currentCannotResign, culprit: current,
                    detail: "\(current ?? "The first responder"), its window's first responder, refuses to resign "
                        + "(canResignFirstResponder is false).")
            ]
        default:
            return []
        }
    }
}
