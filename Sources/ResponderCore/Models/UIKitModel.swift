import ResponderProtocol

/// UIKit's dispatch model, the rules of docs/rules.md. They live where they always have, as `SessionState`
/// extensions in `Dispatch/`, `Gestures/` and `UIKit/` (hit-testing, the responder chain, touches and
/// recognizers, control tracking, first responders, key commands, UIKit's classes); this conformance is the
/// door to them, and the `Profile` switches are its settings.
enum UIKitModel: DispatchModel {
    static func touch(_ inputs: [TouchInput], tapCount: Int, client: String, in session: inout SessionState)
        throws(CoreError) -> Traced<TouchOutcome>
    {
        try session.uikitTouch(inputs, tapCount: tapCount, client: client)
    }

    static func press(
        _ id: EventID, key: String?, modifiers: [KeyModifier], phase: PressPhase, client: String,
        in session: inout SessionState
    ) throws(CoreError) -> Traced<PressOutcome> {
        try session.uikitPress(id, key: key, modifiers: modifiers, phase: phase, client: client)
    }

    static func become(_ id: String, in session: inout SessionState) throws(CoreError) -> Traced<FocusOutcome> {
        try session.uikitBecome(id)
    }

    static func resign(_ id: String, in session: inout SessionState) throws(CoreError) -> Traced<FocusOutcome> {
        try session.uikitResign(id)
    }

    static func treeChanged(before: World, in session: inout SessionState) -> Traced<TreeChangeOutcome>? {
        session.uikitTreeChanged(before: before)
    }
}
