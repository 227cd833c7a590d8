import ResponderProtocol

/// A dispatch model: what input does to a world. The world, the session clock, the trace plumbing, dry runs,
/// durability and streams are shared; a model owns the rules that turn a touch sequence, a key press, a focus
/// request and a tree change into outcomes and a trace, and the live state those rules keep in the session.
///
/// A session's profile names its model (`Profile.model`), and each public entry below switches on it once and
/// calls the model's static function: the model is known for the whole request, so nothing is looked up per
/// view visited and the rules it calls are direct calls.
protocol DispatchModel {
    /// `event.touch` (and `event.tap`, which is one): each phase in the order given. Atomic: an error leaves the
    /// session exactly as it was.
    static func touch(_ inputs: [TouchInput], tapCount: Int, client: String, in session: inout SessionState)
        throws(CoreError) -> Traced<TouchOutcome>

    /// `event.press`: one phase of a key press.
    static func press(
        _ id: EventID, key: String?, modifiers: [KeyModifier], phase: PressPhase, client: String,
        in session: inout SessionState
    ) throws(CoreError) -> Traced<PressOutcome>

    /// `responder.become`: a focus request for `id`, which exists.
    static func become(_ id: String, in session: inout SessionState) throws(CoreError) -> Traced<FocusOutcome>

    /// `responder.resign`: `id`, which exists, is asked to give focus up.
    static func resign(_ id: String, in session: inout SessionState) throws(CoreError) -> Traced<FocusOutcome>

    /// What a tree change (a batch or a load) did to the model's live state: `session.world` is the world after
    /// it, `before` the one before. Nil when nothing live was affected.
    static func treeChanged(before: World, in session: inout SessionState) -> Traced<TreeChangeOutcome>?
}

/// The entry points: each goes to the session's model.
extension SessionState {
    /// A touch sequence, by the session's model (UIKit: T1–T6, G1–G11, K3–K21).
    public mutating func touch(_ inputs: [TouchInput], tapCount: Int = 1, client: String) throws(CoreError) -> Traced<
        TouchOutcome
    > {
        switch profile.model {
        case .uikit: return try UIKitModel.touch(inputs, tapCount: tapCount, client: client, in: &self)
        case .android: return try AndroidModel.touch(inputs, tapCount: tapCount, client: client, in: &self)
        }
    }

    /// A key press, by the session's model (UIKit: E1–E5).
    public mutating func press(
        _ id: EventID, key: String?, modifiers: [KeyModifier] = [], phase: PressPhase, client: String
    ) throws(CoreError) -> Traced<PressOutcome> {
        switch profile.model {
        case .uikit:
            return try UIKitModel.press(id, key: key, modifiers: modifiers, phase: phase, client: client, in: &self)
        case .android:
            return try AndroidModel.press(id, key: key, modifiers: modifiers, phase: phase, client: client, in: &self)
        }
    }

    /// `responder.become`, by the session's model (UIKit: F2).
    public mutating func become(_ id: String) throws(CoreError) -> Traced<FocusOutcome> {
        _ = try existing(id)
        switch profile.model {
        case .uikit: return try UIKitModel.become(id, in: &self)
        case .android: return try AndroidModel.become(id, in: &self)
        }
    }

    /// `responder.resign`, by the session's model (UIKit: F3).
    public mutating func resign(_ id: String) throws(CoreError) -> Traced<FocusOutcome> {
        _ = try existing(id)
        switch profile.model {
        case .uikit: return try UIKitModel.resign(id, in: &self)
        case .android: return try AndroidModel.resign(id, in: &self)
        }
    }

    /// What a tree change did to live input and focus, by the session's model (UIKit: T6, E2, F6, G2, K9).
    mutating func treeChanged(before: World) -> Traced<TreeChangeOutcome>? {
        switch profile.model {
        case .uikit: return UIKitModel.treeChanged(before: before, in: &self)
        case .android: return AndroidModel.treeChanged(before: before, in: &self)
        }
    }
}

extension SessionState {
    /// The requests whose answer is UIKit's alone (hit-testing, the responder chain, nil-targeted actions, why-not,
    /// motion and remote-control events, endEditing): under another model they are refused, naming what that
    /// model has instead, rather than answered by rules the session does not run.
    public func requireUIKit(_ request: String) throws(CoreError) {
        switch profile.model {
        case .uikit: return
        case .android:
            let instead: String
            switch request {
            case "hitTest", "whyNot":
                instead =
                    "\(request): a DOWN is offered to views in turn (AD8); event.tap with dryRun shows who takes it"
            case "action.send", "action.canPerform", "responderChain":
                instead = "\(request): there is no responder chain; a click calls its view's listener (AX1, AX2)"
            default:
                instead = "\(request)"
            }
            throw .notModelled(instead, model: .android, field: "method")
        }
    }
}
