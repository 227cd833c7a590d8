import ResponderProtocol

/// Android's View system as a dispatch model (docs/rules-android.md): touches are offered down the tree and kept
/// by the views that consumed their DOWN (`AndroidTouch.swift`, `AndroidPress.swift`), focus is a window's focused
/// view (`AndroidFocus.swift`), keys go down the focus path (`AndroidKeys.swift`), a node reads through
/// `AndroidView`.
enum AndroidModel: DispatchModel {
    static func touch(_ inputs: [TouchInput], tapCount: Int, client: String, in session: inout SessionState)
        throws(CoreError) -> Traced<TouchOutcome>
    {
        try session.androidTouch(inputs, client: client)
    }

    static func press(
        _ id: EventID, key: String?, modifiers: [KeyModifier], phase: PressPhase, client: String,
        in session: inout SessionState
    ) throws(CoreError) -> Traced<PressOutcome> {
        try session.androidPress(id, key: key, phase: phase, client: client)
    }

    static func become(_ id: String, in session: inout SessionState) throws(CoreError) -> Traced<FocusOutcome> {
        session.androidBecome(id)
    }

    static func resign(_ id: String, in session: inout SessionState) throws(CoreError) -> Traced<FocusOutcome> {
        session.androidResign(id)
    }

    static func treeChanged(before: World, in session: inout SessionState) -> Traced<TreeChangeOutcome>? {
        session.androidTreeChanged(before: before)
    }
}
