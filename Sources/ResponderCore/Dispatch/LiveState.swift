import ResponderProtocol

/// A touch between began and ended/cancelled (T1). It stays bound to the view and window found at began.
struct LiveTouch: Sendable {
    var id: EventID
    var client: String
    /// The bound view; nil when the touch was delivered to no one (no hit, T4, T5).
    var view: String?
    var window: String?
    var phase: TouchPhase
    /// The latest point in screen coordinates.
    var point: Point
    var tapCount: Int
    /// Why the touch is delivered to no one, with the rule.
    var undelivered: (reason: TouchDeliveryReason, rule: Rule)?

    var info: LiveTouchInfo { LiveTouchInfo(touch: id, client: client, view: view, window: window, phase: phase) }
}

/// A press between began and ended/cancelled, bound to the responder that got its began (E2).
struct LivePress: Sendable {
    var id: EventID
    var client: String
    var keyName: String?
    /// Nil when began was dropped (E3 drop profile, or no key window).
    var responder: String?
    var window: String?
    var phase: PressPhase

    var info: LivePressInfo { LivePressInfo(press: id, client: client, key: keyName, responder: responder, window: window, phase: phase) }
}

/// T3: a control tracking a touch, and whether the touch is currently inside (with slop).
struct ControlTrack: Sendable {
    var control: String
    var inside: Bool
}
