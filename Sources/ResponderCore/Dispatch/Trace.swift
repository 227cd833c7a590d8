import ResponderProtocol

/// Building traces (H8: the explanation matters as much as the answer); the step shapes are in
/// ResponderProtocol's `TraceStep` and Protocol/README 12.4.
extension Trace {
    /// Records a first-responder change (it is also what `<session>/focus` publishes).
    mutating func focusChange(window: String, from: String?, to: String?, reason: FocusReason, rule: Rule) {
        add(.firstResponder(FocusChange(window: window, from: from, to: to, reason: reason), rule: rule))
    }

    mutating func discard(
        _ message: String, reason: DiscardReason, rule: Rule, tag: EventTag? = nil, blockedBy: String? = nil,
        view: String? = nil
    ) {
        add(.discard(message: message, reason: reason, rule: rule, tag: tag, blockedBy: blockedBy, view: view))
    }

    func finish<Outcome>(_ outcome: Outcome) -> Traced<Outcome> { Traced(outcome, trace: self) }
}
