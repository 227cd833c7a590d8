/// The outcomes of the dispatch methods (12.3): what a reply holds at its top level and its trace repeats.

/// `hitTest`: the window and view hit (nil when nothing is), the point in the view, every view asked.
public struct HitTestOutcome: Sendable, Equatable, Codable {
    public var window: String?
    public var view: String?
    public var localPoint: Point?
    public var visited: [HitVisit]
    public init(window: String?, view: String?, localPoint: Point?, visited: [HitVisit]) {
        self.window = window
        self.view = view
        self.localPoint = localPoint
        self.visited = visited
    }
}

/// `responderChain`: the node, then each next responder.
public struct ChainOutcome: Sendable, Equatable, Codable {
    public var chain: [String]
    public init(chain: [String]) { self.chain = chain }
}

/// An action a control sent for a control event (A1).
public struct ControlAction: Sendable, Equatable, Codable {
    public var action: String
    /// Nil for an `android` click listener's call (AC10), which no control event sends.
    public var event: ControlEvent?
    public var target: String?
    public var performed: Bool
    public var by: String?
    public init(action: String, event: ControlEvent?, target: String?, performed: Bool, by: String?) {
        self.action = action
        self.event = event
        self.target = target
        self.performed = performed
        self.by = by
    }
}

/// Why a touch phase was not (or not normally) delivered (12.5).
public enum TouchDeliveryReason: String, WireEnum {
    case stationary
    case viewLeftWindow = "view-left-window"
    case noHit = "no-hit"
    case multipleTouchDisabled = "multiple-touch-disabled"
    case exclusiveTouch = "exclusive-touch"
    case noView = "no-view"
    /// G8/G9: held back from the view while recognizers decide (`heldBy`); delivered later, when released.
    case held
    /// G8/G9: a phase held earlier, delivered now that the recognizers holding it have decided.
    case released
    /// G7: a recognizer took the touch: the view gets touchesCancelled, and nothing after.
    case cancelledByGesture = "cancelled-by-gesture"
    /// G8: a recognizer that delays touchesBegan took the touch: the view gets nothing of it.
    case takenByGesture = "taken-by-gesture"
    /// K17, K18: the touch hit a presentation's dimming view (`hitView`); no responder gets it.
    case dimmed
    /// A2, G3: an action this phase set off crashed the app; nothing after it in the dispatch is carried out.
    case crashed
    /// AR7 (`android`): no view and not the Activity consumed the event.
    case unhandled
}

/// One touch phase as delivered (12.5): delivered up the chain, undelivered (`rule` says why), or — in a
/// treeChange under `touchOnRemoval: "drop"` — dropped.
public struct TouchDelivery: Sendable, Equatable {
    public var touch: EventID
    public var phase: TouchPhase
    public var view: String?
    public var window: String?
    public var localPoint: Point?
    public var message: String?
    public var visited: [String] = []
    public var handledBy: [String] = []
    public var controlEvents: [ControlEvent] = []
    public var actions: [ControlAction] = []
    public var reason: TouchDeliveryReason?
    public var rule: Rule?
    public var hitView: String?
    public var dropped = false
    /// G8/G9: the recognizers holding this phase back (reason `held`).
    public var heldBy: [String] = []
    /// G1–G10: recognizer state changes while this entry was carried out (including those its time caused, G11).
    public var gestures: [GestureTransition] = []
    /// G3: the actions recognizers sent meanwhile.
    public var gestureActions: [GestureActionSent] = []
    /// G7–G9: phases delivered to views because a recognizer decided (released or cancelled), in order.
    public var gestureDeliveries: [TouchDelivery] = []

    /// Every member a dispatch sets, given at once: an entry made and then changed member by member is copied.
    /// Not inlinable: inlined into the core, the entry is still made in a temporary and copied out whole (the
    /// struct is too large for the optimizer to build it in place), and the inlined copy costs more than the call
    /// (callgrind: −0.3k a tap).
    public init(
        touch: EventID, phase: TouchPhase, view: String?, window: String?, localPoint: Point? = nil, message: String?,
        visited: [String] = [], handledBy: [String] = [], controlEvents: [ControlEvent] = [],
        actions: [ControlAction] = [], reason: TouchDeliveryReason? = nil, rule: Rule? = nil, hitView: String? = nil,
        heldBy: [String] = []
    ) {
        self.touch = touch
        self.phase = phase
        self.view = view
        self.window = window
        self.localPoint = localPoint
        self.message = message
        self.visited = visited
        self.handledBy = handledBy
        self.controlEvents = controlEvents
        self.actions = actions
        self.reason = reason
        self.rule = rule
        self.hitView = hitView
        self.heldBy = heldBy
    }
}

extension TouchDelivery: Codable {
    private enum Key: String, CodingKey {
        case touch, phase, view, window, localPoint, message, visited, handledBy, controlEvents, actions, reason, rule,
            hitView, dropped
        case heldBy, gestures, gestureActions, gestureDeliveries
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(touch, forKey: .touch)
        try c.encode(phase, forKey: .phase)
        try c.encodeIfPresent(view, forKey: .view)
        try c.encodeIfPresent(window, forKey: .window)
        if dropped {
            try c.encodeIfPresent(message, forKey: .message)
            try c.encodeIfPresent(reason, forKey: .reason)
            try c.encode(true, forKey: .dropped)
            return
        }
        try c.encodeIfPresent(localPoint, forKey: .localPoint)
        try c.encodeIfPresent(message, forKey: .message)
        try c.encode(visited, forKey: .visited)
        try c.encode(handledBy, forKey: .handledBy)
        try c.encode(controlEvents, forKey: .controlEvents)
        try c.encode(actions, forKey: .actions)
        if let reason { try c.encode(reason, forKey: .reason) }
        if let rule { try c.encode(rule, forKey: .rule) }
        if let hitView { try c.encode(hitView, forKey: .hitView) }
        // Members of recognizers only: a world without recognizers keeps the deliveries of protocol 1.
        if !heldBy.isEmpty { try c.encode(heldBy, forKey: .heldBy) }
        if !gestures.isEmpty { try c.encode(gestures, forKey: .gestures) }
        if !gestureActions.isEmpty { try c.encode(gestureActions, forKey: .gestureActions) }
        if !gestureDeliveries.isEmpty { try c.encode(gestureDeliveries, forKey: .gestureDeliveries) }
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Key.self)
        self.init(
            touch: try c.decode(EventID.self, forKey: .touch), phase: try c.decode(TouchPhase.self, forKey: .phase),
            view: try c.decodeIfPresent(String.self, forKey: .view),
            window: try c.decodeIfPresent(String.self, forKey: .window),
            localPoint: try c.decodeIfPresent(Point.self, forKey: .localPoint),
            message: try c.decodeIfPresent(String.self, forKey: .message))
        visited = try c.decodeIfPresent([String].self, forKey: .visited) ?? []
        handledBy = try c.decodeIfPresent([String].self, forKey: .handledBy) ?? []
        controlEvents = try c.decodeIfPresent([ControlEvent].self, forKey: .controlEvents) ?? []
        actions = try c.decodeIfPresent([ControlAction].self, forKey: .actions) ?? []
        reason = try c.decodeIfPresent(TouchDeliveryReason.self, forKey: .reason)
        rule = try c.decodeIfPresent(Rule.self, forKey: .rule)
        hitView = try c.decodeIfPresent(String.self, forKey: .hitView)
        dropped = try c.decodeIfPresent(Bool.self, forKey: .dropped) ?? false
        heldBy = try c.decodeIfPresent([String].self, forKey: .heldBy) ?? []
        gestures = try c.decodeIfPresent([GestureTransition].self, forKey: .gestures) ?? []
        gestureActions = try c.decodeIfPresent([GestureActionSent].self, forKey: .gestureActions) ?? []
        gestureDeliveries = try c.decodeIfPresent([TouchDelivery].self, forKey: .gestureDeliveries) ?? []
    }
}

/// `event.touch` and `event.tap`.
public struct TouchOutcome: Sendable, Equatable, Codable {
    public var deliveries: [TouchDelivery]
    /// A2, G3: the crash that ended the request; the inputs after the one it happened in are not carried out.
    @OmitNil public var crashed: Crash?
    public init(deliveries: [TouchDelivery], crashed: Crash? = nil) {
        self.deliveries = deliveries
        self.crashed = crashed
    }
}

/// `event.motion`.
public struct MotionOutcome: Sendable, Equatable, Codable {
    public var subtype: MotionSubtype
    public var phase: MotionPhase
    public var message: String
    public var start: String?
    public var visited: [String]
    public var handledBy: [String]
    public init(subtype: MotionSubtype, phase: MotionPhase, start: String?, visited: [String], handledBy: [String]) {
        self.subtype = subtype
        self.phase = phase
        self.message = phase.message
        self.start = start
        self.visited = visited
        self.handledBy = handledBy
    }
}

/// `event.remoteControl`.
public struct RemoteControlOutcome: Sendable, Equatable, Codable {
    public var subtype: RemoteControlSubtype
    public var message: String
    public var start: String?
    public var visited: [String]
    public var handledBy: [String]
    public init(subtype: RemoteControlSubtype, start: String?, visited: [String], handledBy: [String]) {
        self.subtype = subtype
        self.message = "remoteControlReceived"
        self.start = start
        self.visited = visited
        self.handledBy = handledBy
    }
}

/// `event.press`.
public struct PressOutcome: Sendable, Equatable, Codable {
    public var press: EventID
    public var key: String?
    public var phase: PressPhase
    public var message: String
    public var start: String?
    public var visited: [String]
    public var handledBy: [String]
    /// E4: the text field or view that took the press as typing (absent when none did).
    @OmitNil public var textInput: String?
    /// E5: the modifier keys held with it (absent when none).
    @OmitNil public var modifiers: [KeyModifier]?
    /// E5: the key command that matched the press and what its action did (absent when none matched or the
    /// press never reached the key-command step).
    @OmitNil public var keyCommand: KeyCommandOutcome?
    public init(press: EventID, key: String?, phase: PressPhase, start: String?, visited: [String], handledBy: [String])
    {
        self.press = press
        self.key = key
        self.phase = phase
        self.message = phase.message
        self.start = start
        self.visited = visited
        self.handledBy = handledBy
    }
}

/// E5: the winning key command of a press: whose it is, and its action as sent nil-targeted (A3/A4).
public struct KeyCommandOutcome: Sendable, Equatable, Codable {
    /// The responder that declares it (the application for the system's own ⌘X ⌘C ⌘V ⌘A).
    public var responder: String
    public var input: String
    public var modifierFlags: [KeyModifier]
    public var action: String
    public var performed: Bool
    public var by: String?
    public var system: Bool
    public init(
        responder: String, command: KeyCommand, performed: Bool, by: String?, system: Bool
    ) {
        self.responder = responder
        self.input = command.input
        self.modifierFlags = command.modifierFlags
        self.action = command.action
        self.performed = performed
        self.by = by
        self.system = system
    }
}

/// Why becomeFirstResponder / resignFirstResponder answered as it did (F2, F3).
public enum FocusResultReason: String, WireEnum {
    case became
    case alreadyFirstResponder = "already-first-responder"
    case notInWindow = "not-in-window"
    case cannotBecome = "cannot-become"
    case currentCannotResign = "current-cannot-resign"
    case resigned
    case notFirstResponder = "not-first-responder"
    case cannotResign = "cannot-resign"
    /// F8: the window's first responder is not in the view's hierarchy (or there is none).
    case noFirstResponderInside = "no-first-responder-inside"
}

/// `responder.become` and `responder.resign`.
public struct FocusOutcome: Sendable, Equatable, Codable {
    public var result: Bool
    public var reason: FocusResultReason
    public var resigned: String?
    public init(result: Bool, reason: FocusResultReason, resigned: String?) {
        self.result = result
        self.reason = reason
        self.resigned = resigned
    }
}

/// `action.send`.
public struct ActionOutcome: Sendable, Equatable, Codable {
    public var performed: Bool
    public var by: String?
    public var visited: [String]
    @OmitNil public var reason: ActionFailure?
    /// A2, G3: the crash the send ended in.
    @OmitNil public var crashed: Crash?
    public init(performed: Bool, by: String?, visited: [String], reason: ActionFailure?, crashed: Crash? = nil) {
        self.performed = performed
        self.by = by
        self.visited = visited
        self.reason = reason
        self.crashed = crashed
    }
}

/// `action.canPerform` (A5).
public struct CanPerformOutcome: Sendable, Equatable, Codable {
    public var available: Bool
    public var by: String?
    public var visited: [String]
    public var editingCommand: Bool
    public init(available: Bool, by: String?, visited: [String], editingCommand: Bool) {
        self.available = available
        self.by = by
        self.visited = visited
        self.editingCommand = editingCommand
    }
}

/// `window.makeKey` (F4).
public struct MakeKeyOutcome: Sendable, Equatable, Codable {
    public var key: String?
    public var previous: String?
    public init(key: String?, previous: String?) {
        self.key = key
        self.previous = previous
    }
}

/// A bound press whose responder left its window (E2, 12.6).
public struct PressCancellation: Sendable, Equatable, Codable {
    public var press: EventID
    public var responder: String
    public var message: String
    public var visited: [String]
    public var handledBy: [String]
    public var reason: String
    public init(press: EventID, responder: String, visited: [String], handledBy: [String]) {
        self.press = press
        self.responder = responder
        self.message = PressPhase.cancelled.message
        self.visited = visited
        self.handledBy = handledBy
        self.reason = "responder-left-window"
    }
}

/// A first responder resigned by force (F6, 12.6).
public struct ForcedResign: Sendable, Equatable, Codable {
    public var window: String
    public var from: String
    public init(window: String, from: String) {
        self.window = window
        self.from = from
    }
}

/// A tree change's consequences for live dispatch state (12.6).
public struct TreeChangeOutcome: Sendable, Equatable, Codable {
    public var touches: [TouchDelivery]
    public var presses: [PressCancellation]
    public var resigned: [ForcedResign]
    /// G2: recognizers whose view left its window, that were removed or disabled (absent when none).
    @OmitNil public var gestures: [GestureTransition]?
    /// G3: actions recognizers sent meanwhile (a recognizer waiting on a removed one may complete; absent when none).
    @OmitNil public var gestureActions: [GestureActionSent]?
    /// G8/G9: phases released to views because the recognizers holding them are gone (absent when none).
    @OmitNil public var gestureDeliveries: [TouchDelivery]?
    public init(
        touches: [TouchDelivery], presses: [PressCancellation], resigned: [ForcedResign],
        gestures: [GestureTransition] = [], gestureActions: [GestureActionSent] = [],
        gestureDeliveries: [TouchDelivery] = []
    ) {
        self.touches = touches
        self.presses = presses
        self.resigned = resigned
        self.gestures = gestures.isEmpty ? nil : gestures
        self.gestureActions = gestureActions.isEmpty ? nil : gestureActions
        self.gestureDeliveries = gestureDeliveries.isEmpty ? nil : gestureDeliveries
    }
}
