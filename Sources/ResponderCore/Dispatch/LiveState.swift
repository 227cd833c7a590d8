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
    /// The session clock when it began (K8: delaysContentTouches counts from here).
    var beganAt = 0.0
    /// Why the touch is delivered to no one, with the rule.
    var undelivered: (reason: TouchDeliveryReason, rule: Rule)?
    /// G1: the recognizers observing it, in the order they get each phase.
    var recognizers: [String] = []
    /// Whether its view has had touchesBegan (G7 cancels only what was delivered).
    var viewGot = false
    /// G8/G9: phases held back from the view, in order, with the point each one had.
    var held: [(phase: TouchPhase, point: Point)] = []
    /// G7/G8: a recognizer took the touch; the view gets nothing more of it.
    var withheld: (reason: DiscardReason, rule: Rule)?
    /// The client has ended or cancelled it; it stays while its view still has phases to get (G9).
    var finished = false
    /// Ended or cancelled with no phase left to deliver (G9): the session forgets it.
    var isDone: Bool { finished && held.isEmpty }
    /// K17, K18: the dimming view it hit, while it may still be that view's tap (within tapSlop of `from`).
    var dimmingTap: (id: String, from: Point)?

    /// The touch as one of its phases is delivered.
    var delivered: DeliveredTouch {
        DeliveredTouch(id: id, view: view, window: window, point: point, phase: phase, tapCount: tapCount)
    }
}

/// What delivering a phase of a touch reads of it (T2, T3, K2–K5, K14–K16): its id, the view and window it is
/// bound to, its point, phase and tap count. A phase is delivered with this, copied, rather than with a copy of
/// the `LiveTouch`, whose lists (its recognizers, its held phases) would be retained and released with it.
struct DeliveredTouch {
    var id: EventID
    var view: String?
    var window: String?
    var point: Point
    var phase: TouchPhase
    var tapCount: Int
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

    var info: LivePressInfo {
        LivePressInfo(press: id, client: client, key: keyName, responder: responder, window: window, phase: phase)
    }
}

/// T3: a control tracking a touch, and whether the touch is currently inside (with slop).
struct ControlTrack: Sendable {
    var control: String
    var inside: Bool
}

/// T3: the control tracking each live touch. A session tracks a touch or two at a time, so the tracks are a list
/// searched in order: a dictionary's lookup hashes the touch's id, several times a tap. Nothing walks the tracks
/// in order.
struct ControlTracks: Sendable {
    private var touches: [EventID] = []
    /// The tracks, in the order of `index(forKey:)`'s answers.
    var values: [ControlTrack] = []

    var isEmpty: Bool { touches.isEmpty }

    func index(forKey touch: EventID) -> Int? { touches.firstIndex(of: touch) }

    subscript(touch: EventID) -> ControlTrack? {
        get { index(forKey: touch).map { values[$0] } }
        set {
            if let i = index(forKey: touch) {
                if let newValue { values[i] = newValue } else { remove(at: i) }
            } else if let newValue {
                touches.append(touch)
                values.append(newValue)
            }
        }
    }

    mutating func remove(at i: Int) {
        touches.remove(at: i)
        values.remove(at: i)
    }
}

extension SessionState {
    /// Whether an action has crashed the app during this dispatch (A2, G3). Asked by the case alone: `Crash` is
    /// Equatable, so `crash == nil` copies the crash to compare it with a nil one and frees both copies.
    var hasCrashed: Bool {
        if case .some = crash { return true }
        return false
    }

    // The three below leave a `Crash?` that is nil untouched. `Crash` keeps its optional members in a generic
    // property wrapper, so copying, assigning over or destroying a `Crash?` looks that type's metadata up first
    // (≈ 300 instructions), nil or not — several times a dispatch that crashes nothing.

    /// The rule of the crash the dispatch ended in, if it did.
    var crashRule: Rule? { hasCrashed ? crash?.rule : nil }

    /// No crash: at the start of a dispatch.
    mutating func clearCrash() {
        if hasCrashed { crash = nil }
    }

    /// The crash the dispatch ended in, if any, taken out of the session.
    mutating func takeCrash() -> Crash? { hasCrashed ? crash.take() : nil }
}
