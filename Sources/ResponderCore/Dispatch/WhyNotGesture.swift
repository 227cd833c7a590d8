import ResponderProtocol

/// `whyNot`'s touch question after the hit test: whether the hit-test view then gets the touch. The answer is
/// the dispatch's own: a tap at the point is carried out by `tap(at:)` on a copy of the session (T4, T5, G1–G11,
/// K8 as they run), and the copy's clock is run on from deadline to deadline (G11) until every recognizer that
/// observes the tap has decided. The view gets the touch when it gets touchesBegan and touchesEnded and no
/// touchesCancelled; otherwise the trace of that run names who kept it. The copy is dropped: nothing changes
/// and nothing is published.
extension SessionState {
    /// The causes that keep a tap at `point`, whose hit-test view is `view`, from `view`; empty when it gets it.
    func tapFate(of view: String, at point: Point) -> [WhyNotCause] {
        guard let (copy, steps, touch, crashed) = dryTap(at: point) else { return [] }
        var began = false, ended = false
        for (i, step) in steps.enumerated() {
            switch step {
            case .deliver(_, let message, _, let rule, _, .touch(touch)?):
                if message == TouchPhase.began.message { began = true }
                if message == TouchPhase.ended.message { ended = true }
                if message == TouchPhase.cancelled.message, rule == .g7 {
                    return [taken(view, reason: .cancelledByGesture, before: i, steps: steps)]
                }
            case .discard(_, let reason, _, .touch(touch)?, let blockedBy, _):
                switch reason {
                case .exclusiveTouch: return [blocked(view, reason: .exclusiveTouch, rule: .t5, by: blockedBy)]
                case .multipleTouchDisabled:
                    return [blocked(view, reason: .multipleTouchDisabled, rule: .t4, by: blockedBy)]
                case .cancelledByGesture, .takenByGesture:
                    let why: WhyNotReason = reason == .takenByGesture ? .takenByGesture : .cancelledByGesture
                    return [taken(view, reason: why, before: i, steps: steps)]
                default: break
                }
            default: break
            }
        }
        if began && ended { return [] }
        // A2, G3: the app crashed on the way (a recognizer's target lacking its action) before the view had it.
        if let crashed { return [self.crashed(view, crashed)] }
        // Still held when no deadline is left: a recognizer that waits on something a tap never brings.
        if let live = copy.touches.first(where: { $0.id == touch }), let phase = live.held.first?.phase,
            let holder = copy.holders(of: live, phase: phase).first
        {
            let (owner, kind) = recognizerOwner(holder)
            let rule: Rule = phase == .ended ? .g9 : .g8
            return [
                WhyNotCause(
                    rule: isScrollPan(holder) ? .k8 : rule, reason: .heldByGesture, culprit: owner,
                    recognizer: holder,
                    detail:
                        "\(holder), a \(kind) recognizer on \(owner ?? "a view"), holds \(phase.message ?? "the touch") "
                        + "back from \(view) and never decides on a tap, so \(view) does not get it.")
            ]
        }
        return []
    }

    /// A tap at `point` carried out on a copy, whose clock is run on from deadline to deadline (G11) until every
    /// recognizer that observes it has decided: the copy, every step of the run and the tap's touch.
    func dryTap(at point: Point) -> (copy: SessionState, steps: [TraceStep], touch: EventID, crashed: Crash?)? {
        var copy = self
        guard let tapped = try? copy.tap(at: point, client: Self.whyNotClient),
            let touch = tapped.outcome.deliveries.first?.touch
        else { return nil }
        var steps = tapped.trace.steps
        var crashed = tapped.outcome.crashed
        // G11: while the touch is live (a phase held back), time runs on to the next recognizer deadline. Each
        // round fires at least one deadline, and a tap's recognizers have a few; the bound only guards the loop.
        for _ in 0..<64 {
            guard copy.touches.contains(where: { $0.id == touch }), let next = copy.nextDeadline(),
                let advanced = try? copy.advanceClock(to: next, by: nil)
            else { break }
            steps += advanced.trace.steps
            crashed = crashed ?? advanced.outcome.crashed
        }
        return (copy, steps, touch, crashed)
    }

    /// The client id the dry-run tap is made by; no client sends as it (the copy is dropped).
    static let whyNotClient = "whyNot"

    /// G11: the earliest deadline of any recognizer run.
    func nextDeadline() -> Double? {
        runs.indices.compactMap { deadline(ofRun: $0) }.min()
    }

    /// G7/G8 (K8 for a scroll view's pan): the recognizer that took the touch is the last to recognize or begin
    /// before the step at `index` that withheld it (`takeTouches` runs right after that transition).
    private func taken(_ view: String, reason: WhyNotReason, before index: Int, steps: [TraceStep]) -> WhyNotCause {
        var recognizer: String?
        for step in steps[..<index].reversed() {
            if case .gesture(let t) = step, t.to == .recognized || t.to == .began {
                recognizer = t.recognizer
                break
            }
        }
        let rule: Rule = reason == .takenByGesture ? .g8 : .g7
        guard let recognizer else {
            return WhyNotCause(
                rule: rule, reason: reason, culprit: nil,
                detail: "A gesture recognizer takes the touch from \(view).")
        }
        let (owner, kind) = recognizerOwner(recognizer)
        let who = "\(recognizer), a \(kind) recognizer on \(owner ?? "a view"),"
        var detail =
            reason == .takenByGesture
            ? "\(who) delays touchesBegan (delaysTouchesBegan) and recognizes the tap, so \(view) gets nothing of it."
            : "\(who) recognizes the tap and cancels the touches in its view (cancelsTouchesInView): \(view) gets "
                + "touchesCancelled instead of touchesEnded."
        // K16 (c): for a cell that is the selection the tap was for.
        if world.cellContainer(of: view) != nil {
            detail += " \(view) is not selected: \(selectMessage(view)) is not called."
        }
        return WhyNotCause(
            rule: isScrollPan(recognizer) ? .k8 : rule, reason: reason, culprit: owner, recognizer: recognizer,
            detail: detail)
    }

    /// A2, G3: the crash that ended the tap's dispatch before `view` got the touch.
    private func crashed(_ view: String, _ crash: Crash) -> WhyNotCause {
        let who =
            crash.recognizer.map { "\($0) sends \(crash.action) to \(crash.target)" }
            ?? "\(crash.action) is sent to \(crash.target)"
        return WhyNotCause(
            rule: crash.rule, reason: .unrecognizedSelector, culprit: crash.target, recognizer: crash.recognizer,
            detail: "\(who), which does not implement it: the app crashes (unrecognized selector) before \(view) "
                + "gets the whole touch.")
    }

    /// T4/T5: another touch that `by`'s view is tracking keeps this one from `view`.
    private func blocked(_ view: String, reason: WhyNotReason, rule: Rule, by: String?) -> WhyNotCause {
        let other = by ?? "another view"
        let detail =
            rule == .t5
            ? "\(other) is tracking another touch in the same window and exclusiveTouch keeps the two apart, so "
                + "\(view) gets none of this one."
            : "\(view) is already tracking a touch and multipleTouchEnabled is false, so it gets no other until that "
                + "one ends."
        return WhyNotCause(rule: rule, reason: reason, culprit: by, detail: detail)
    }

    /// The view recognizer `id` is attached to (a scroll view for its built-in pan) and its kind.
    private func recognizerOwner(_ id: String) -> (view: String?, kind: String) {
        guard let (view, spec) = world.recognizer(id) else { return (nil, "gesture") }
        return (view, spec.kind.rawValue)
    }

    private func isScrollPan(_ id: String) -> Bool { world.builtInPanOwner(id) != nil }
}
