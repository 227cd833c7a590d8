/// `hitTest` (H1–H8): the view at a screen point; no side effects.
public struct HitTestRequest: SessionRequest, TraceSelecting {
    public static let method = "hitTest"
    /// 1.8: `none` leaves the explanation out of the reply (12.2); nil (absent) is `full`.
    public var trace: TraceDetail? = nil
    public var session: String?
    public var point: Point
    public init(session: String?, point: Point, trace: TraceDetail? = nil) {
        self.session = session
        self.point = point
        self.trace = trace
    }
    public typealias Response = Traced<HitTestOutcome>
}

/// `responderChain` (N1–N4).
public struct ResponderChainRequest: SessionRequest, TraceSelecting {
    public static let method = "responderChain"
    /// 1.8: `none` leaves the explanation out of the reply (12.2); nil (absent) is `full`.
    public var trace: TraceDetail? = nil
    public var session: String?
    public var id: String
    public init(session: String?, id: String, trace: TraceDetail? = nil) {
        self.session = session
        self.id = id
        self.trace = trace
    }
    public typealias Response = Traced<ChainOutcome>
}

/// One entry of `event.touch`'s `touches`.
public struct TouchInput: Codable, Sendable, Equatable {
    public var touch: EventID
    public var phase: TouchPhase
    public var point: Point?
    /// G11: when the phase happens, in seconds on the session's clock (non-decreasing); nil: the clock's time.
    @OmitNil public var time: Double?
    public init(touch: EventID, phase: TouchPhase, point: Point? = nil, time: Double? = nil) {
        self.touch = touch
        self.phase = phase
        self.point = point
        self.time = time
    }
}

/// `event.touch` (T1–T6): touch phases, in order, atomically.
public struct TouchRequest: SessionRequest, ValidatedParams, DryRunnable, TraceSelecting {
    public static let method = "event.touch"
    /// 1.8: `none` leaves the explanation out of the reply (12.2); nil (absent) is `full`.
    public var trace: TraceDetail? = nil
    /// `dryRun: true`: answer what it would do, change nothing (section 12.2).
    public var dryRun: Bool? = nil
    public var session: String?
    public var touches: [TouchInput]
    public var tapCount: Int?
    public init(session: String?, touches: [TouchInput], tapCount: Int? = nil, trace: TraceDetail? = nil) {
        self.session = session
        self.touches = touches
        self.tapCount = tapCount
        self.trace = trace
    }
    public func validate() throws(RPCError) {
        guard !touches.isEmpty else { throw invalid("touches", "is required and must not be empty") }
        if let tapCount, tapCount < 1 { throw invalid("tapCount", "must be at least 1") }
        for (i, t) in touches.enumerated() {
            if t.phase == .began && t.point == nil { throw invalid("touches[\(i)].point", "is required for began") }
            if let time = t.time, !(time.isFinite && time >= 0) {
                throw invalid("touches[\(i)].time", "must be a finite number of seconds ≥ 0")
            }
        }
    }
    public typealias Response = Published<Traced<TouchOutcome>>
}

/// `event.tap`: a fresh touch that begins and ends at a point.
public struct TapRequest: SessionRequest, ValidatedParams, DryRunnable, TraceSelecting {
    public static let method = "event.tap"
    /// 1.8: `none` leaves the explanation out of the reply (12.2); nil (absent) is `full`.
    public var trace: TraceDetail? = nil
    /// `dryRun: true`: answer what it would do, change nothing (section 12.2).
    public var dryRun: Bool? = nil
    public var session: String?
    public var point: Point
    public var tapCount: Int?
    /// G11: when the tap happens (it begins and ends at once); nil: the session clock's time.
    @OmitNil public var time: Double?
    public init(session: String?, point: Point, tapCount: Int? = nil, time: Double? = nil, trace: TraceDetail? = nil) {
        self.session = session
        self.point = point
        self.tapCount = tapCount
        self.time = time
        self.trace = trace
    }
    public func validate() throws(RPCError) {
        if let tapCount, tapCount < 1 { throw invalid("tapCount", "must be at least 1") }
        if let time, !(time.isFinite && time >= 0) { throw invalid("time", "must be a finite number of seconds ≥ 0") }
    }
    public typealias Response = Published<Traced<TouchOutcome>>
}

/// `clock.advance` (G11): moves the session's clock forward without a touch; recognizers waiting on time decide.
public struct ClockAdvanceRequest: SessionRequest, ValidatedParams, DryRunnable, TraceSelecting {
    public static let method = "clock.advance"
    /// 1.8: `none` leaves the explanation out of the reply (12.2); nil (absent) is `full`.
    public var trace: TraceDetail? = nil
    /// `dryRun: true`: answer what it would do, change nothing (section 12.2).
    public var dryRun: Bool? = nil
    public var session: String?
    /// The new time, in seconds (not before the clock's time).
    public var to: Double?
    /// Seconds to add (≥ 0).
    public var by: Double?
    public init(session: String?, to: Double? = nil, by: Double? = nil, trace: TraceDetail? = nil) {
        self.session = session
        self.to = to
        self.by = by
        self.trace = trace
    }
    public func validate() throws(RPCError) {
        switch (to, by) {
        case (nil, nil): throw invalid("to", "give either to (a time) or by (seconds)")
        case (.some, .some): throw invalid("by", "give either to or by, not both")
        case (let to?, nil):
            if !(to.isFinite && to >= 0) { throw invalid("to", "must be a finite number of seconds ≥ 0") }
        case (nil, let by?):
            if !(by.isFinite && by >= 0) { throw invalid("by", "must be a finite number of seconds ≥ 0") }
        }
    }
    public typealias Response = Published<Traced<ClockOutcome>>
}

/// `event.motion` (E1, E3).
public struct MotionRequest: SessionRequest, DryRunnable, TraceSelecting {
    public static let method = "event.motion"
    /// 1.8: `none` leaves the explanation out of the reply (12.2); nil (absent) is `full`.
    public var trace: TraceDetail? = nil
    /// `dryRun: true`: answer what it would do, change nothing (section 12.2).
    public var dryRun: Bool? = nil
    public var session: String?
    public var subtype: MotionSubtype?
    public var phase: MotionPhase
    public init(session: String?, subtype: MotionSubtype? = nil, phase: MotionPhase, trace: TraceDetail? = nil) {
        self.session = session
        self.subtype = subtype
        self.phase = phase
        self.trace = trace
    }
    public typealias Response = Published<Traced<MotionOutcome>>
}

/// `event.remoteControl` (E1, E3).
public struct RemoteControlRequest: SessionRequest, DryRunnable, TraceSelecting {
    public static let method = "event.remoteControl"
    /// 1.8: `none` leaves the explanation out of the reply (12.2); nil (absent) is `full`.
    public var trace: TraceDetail? = nil
    /// `dryRun: true`: answer what it would do, change nothing (section 12.2).
    public var dryRun: Bool? = nil
    public var session: String?
    public var subtype: RemoteControlSubtype
    public init(session: String?, subtype: RemoteControlSubtype, trace: TraceDetail? = nil) {
        self.session = session
        self.subtype = subtype
        self.trace = trace
    }
    public typealias Response = Published<Traced<RemoteControlOutcome>>
}

/// `event.press` (E1–E3).
public struct PressRequest: SessionRequest, ValidatedParams, DryRunnable, TraceSelecting {
    public static let method = "event.press"
    /// 1.8: `none` leaves the explanation out of the reply (12.2); nil (absent) is `full`.
    public var trace: TraceDetail? = nil
    /// `dryRun: true`: answer what it would do, change nothing (section 12.2).
    public var dryRun: Bool? = nil
    public var session: String?
    public var press: EventID
    public var key: String?
    /// E5: the modifier keys held with it (absent: none).
    public var modifiers: [KeyModifier]?
    public var phase: PressPhase
    public init(
        session: String?, press: EventID, key: String? = nil, modifiers: [KeyModifier]? = nil, phase: PressPhase,
        trace: TraceDetail? = nil
    ) {
        self.session = session
        self.press = press
        self.key = key
        self.modifiers = modifiers
        self.phase = phase
        self.trace = trace
    }
    public func validate() throws(RPCError) {
        if phase == .began, key == nil { throw invalid("key", "is required for began") }
    }
    public typealias Response = Published<Traced<PressOutcome>>
}

/// `responder.become` (F2).
public struct BecomeRequest: SessionRequest, DryRunnable, TraceSelecting {
    public static let method = "responder.become"
    /// 1.8: `none` leaves the explanation out of the reply (12.2); nil (absent) is `full`.
    public var trace: TraceDetail? = nil
    /// `dryRun: true`: answer what it would do, change nothing (section 12.2).
    public var dryRun: Bool? = nil
    public var session: String?
    public var id: String
    public init(session: String?, id: String, trace: TraceDetail? = nil) {
        self.session = session
        self.id = id
        self.trace = trace
    }
    public typealias Response = Published<Traced<FocusOutcome>>
}

/// `responder.resign` (F3).
public struct ResignRequest: SessionRequest, DryRunnable, TraceSelecting {
    public static let method = "responder.resign"
    /// 1.8: `none` leaves the explanation out of the reply (12.2); nil (absent) is `full`.
    public var trace: TraceDetail? = nil
    /// `dryRun: true`: answer what it would do, change nothing (section 12.2).
    public var dryRun: Bool? = nil
    public var session: String?
    public var id: String
    public init(session: String?, id: String, trace: TraceDetail? = nil) {
        self.session = session
        self.id = id
        self.trace = trace
    }
    public typealias Response = Published<Traced<FocusOutcome>>
}

/// `responder.first` (F4): a window's first responder, bare.
public struct FirstResponderRequest: SessionRequest {
    public static let method = "responder.first"
    public var session: String?
    public var window: String?
    public init(session: String?, window: String? = nil) {
        self.session = session
        self.window = window
    }
    public typealias Response = String?
}

/// `window.makeKey` (F4): applied as one tree batch.
public struct MakeKeyRequest: OwnerGated, DryRunnable, TraceSelecting {
    public static let method = "window.makeKey"
    /// 1.8: `none` leaves the explanation out of the reply (12.2); nil (absent) is `full`.
    public var trace: TraceDetail? = nil
    /// `dryRun: true`: answer what it would do, change nothing (section 12.2).
    public var dryRun: Bool? = nil
    public var session: String?
    public var owner: String?
    public var id: String
    public init(session: String?, id: String, trace: TraceDetail? = nil) {
        self.session = session
        self.id = id
        self.trace = trace
    }
    public typealias Response = Published<Traced<MakeKeyOutcome>>
}

/// `action.send` (A2–A4).
public struct SendActionRequest: SessionRequest, ValidatedParams, DryRunnable, TraceSelecting {
    public static let method = "action.send"
    /// 1.8: `none` leaves the explanation out of the reply (12.2); nil (absent) is `full`.
    public var trace: TraceDetail? = nil
    /// `dryRun: true`: answer what it would do, change nothing (section 12.2).
    public var dryRun: Bool? = nil
    public var session: String?
    public var action: String
    public var target: String?
    public var sender: String?
    public init(
        session: String?, action: String, target: String? = nil, sender: String? = nil, trace: TraceDetail? = nil
    ) {
        self.session = session
        self.action = action
        self.target = target
        self.sender = sender
        self.trace = trace
    }
    public func validate() throws(RPCError) {
        guard !action.isEmpty else { throw invalid("action", "must not be empty") }
    }
    public typealias Response = Published<Traced<ActionOutcome>>
}

/// Which menu `event.menuItem` chooses an item of.
public enum MenuKind: String, WireEnum {
    case options, context
}

/// `event.menuItem` (1.16): an item chosen from the options menu or from the context menu a long press on
/// `view` showed. Under `android` it goes to the Activity, then the fragments (AX3, AX4); under `uikit` it is the
/// menu command's nil-target action from the first responder (A3, A4).
public struct MenuItemRequest: SessionRequest, ValidatedParams, DryRunnable, TraceSelecting {
    public static let method = "event.menuItem"
    public var trace: TraceDetail? = nil
    public var dryRun: Bool? = nil
    public var session: String?
    public var item: String
    /// Absent: `options`.
    public var menu: MenuKind?
    /// The view whose context menu it is; with `context` only, and required there.
    public var view: String?
    public init(
        session: String?, item: String, menu: MenuKind? = nil, view: String? = nil, trace: TraceDetail? = nil
    ) {
        self.session = session
        self.item = item
        self.menu = menu
        self.view = view
        self.trace = trace
    }
    public func validate() throws(RPCError) {
        guard !item.isEmpty else { throw invalid("item", "must not be empty") }
        switch menu ?? .options {
        case .options:
            if view != nil { throw invalid("view", "goes with menu \"context\" only") }
        case .context:
            guard let view, !view.isEmpty else { throw invalid("view", "is required for menu \"context\"") }
        }
    }
    public typealias Response = Published<Traced<ActionOutcome>>
}

/// `action.canPerform` (A5): the nil-target walk without performing anything.
public struct CanPerformRequest: SessionRequest, ValidatedParams, TraceSelecting {
    public static let method = "action.canPerform"
    /// 1.8: `none` leaves the explanation out of the reply (12.2); nil (absent) is `full`.
    public var trace: TraceDetail? = nil
    public var session: String?
    public var action: String
    public var sender: String?
    public init(session: String?, action: String, sender: String? = nil, trace: TraceDetail? = nil) {
        self.session = session
        self.action = action
        self.sender = sender
        self.trace = trace
    }
    public func validate() throws(RPCError) {
        guard !action.isEmpty else { throw invalid("action", "must not be empty") }
    }
    public typealias Response = Traced<CanPerformOutcome>
}

/// `whyNot`: why a view does not get a touch (H1–H7, K1, K9, K10; then T4, T5, G1–G11, K8), an action (A3, A4) or the first responder
/// (F2); a query, answered from the same rules the dispatching methods use.
public struct WhyNotRequest: SessionRequest, ValidatedParams {
    public static let method = "whyNot"
    public var session: String?
    public var view: String
    /// A touch at this screen point; absent: anywhere on the view.
    public var point: Point?
    /// An action sent with a nil target from `sender` (A3).
    public var action: String?
    public var sender: String?
    /// Whether the view can become first responder (F2).
    public var become: Bool?
    /// Whether the answer's `hittable` carries the area it was measured over (`hittable.area`), for a picture.
    public var area: Bool?
    public init(
        session: String?, view: String, point: Point? = nil, action: String? = nil, sender: String? = nil,
        become: Bool? = nil, area: Bool? = nil
    ) {
        self.session = session
        self.view = view
        self.point = point
        self.action = action
        self.sender = sender
        self.become = become
        self.area = area
    }
    public func validate() throws(RPCError) {
        // One question at a time: a point belongs to a touch, a sender to an action.
        if let action, action.isEmpty { throw invalid("action", "must not be empty") }
        if become == true, action != nil { throw invalid("become", "asks another question than action") }
        if point != nil, action != nil || become == true {
            throw invalid("point", "belongs to a touch question, not an action or become question")
        }
        if sender != nil, action == nil { throw invalid("sender", "is only taken with action") }
    }
    public typealias Response = WhyNotAnswer
}
