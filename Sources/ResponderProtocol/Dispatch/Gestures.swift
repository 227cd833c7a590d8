/// Why a recognizer observed a touch or not (G1), or changed state (G2–G10): stable names for traces.
public enum GestureReason: String, WireEnum {
    // G1: not observing
    case disabled
    case shouldReceiveTouchFalse = "should-receive-touch-false"
    // G2: thresholds and their failures
    case tapsCompleted = "taps-completed"
    case movedTooFar = "moved-too-far"
    case timedOut = "timed-out"
    case durationElapsed = "duration-elapsed"
    case releasedEarly = "released-early"
    case threshold
    case endedBeforeThreshold = "ended-before-threshold"
    case swiped
    case wrongDirection = "wrong-direction"
    case tooSlow = "too-slow"
    case tooManyTouches = "too-many-touches"
    case tooFewTouches = "too-few-touches"
    case moved
    case touchesEnded = "touches-ended"
    case touchCancelled = "touch-cancelled"
    case reset
    case removed
    // G4, G5, G6, G10
    case excluded
    case requiredFailed = "required-failed"
    case requiredRecognized = "required-recognized"
    case shouldBeginFalse = "should-begin-false"
    case controlDefaultAction = "control-default-action"
    // K8: a scroll view's pan may not take a touch its content tracks
    case contentTracking = "content-tracking"
    case controlKeepsTouch = "control-keeps-touch"
    // K19: a scroll view's pan whose touch ended having moved only along axes its scroll view cannot scroll
    case cannotScroll = "cannot-scroll"
    // K8: the scroll view's touchesShouldCancel(in:) override (`never`) lets content keep its touch
    case touchesShouldCancelFalse = "touches-should-cancel-false"
}

/// One state change of a recognizer (a trace's `gesture` step, and an entry of an outcome's `gestures`).
/// `by` names what decided it: the excluding or required recognizer (G4, G5), or the control (G10).
public struct GestureTransition: Sendable, Equatable, Codable {
    public var recognizer: String
    public var from: GestureState
    public var to: GestureState
    public var rule: Rule
    @OmitNil public var reason: GestureReason?
    @OmitNil public var by: String?

    public init(
        recognizer: String, from: GestureState, to: GestureState, rule: Rule, reason: GestureReason? = nil,
        by: String? = nil
    ) {
        self.recognizer = recognizer
        self.from = from
        self.to = to
        self.rule = rule
        self.reason = reason
        self.by = by
    }
}

/// An action a recognizer sent straight to its target (G3).
public struct GestureActionSent: Sendable, Equatable, Codable {
    public var recognizer: String
    public var target: String
    public var action: String
    public var performed: Bool
    /// Nil when performed; `not-implemented` or `target-missing` otherwise.
    @OmitNil public var reason: ActionFailure?

    public init(recognizer: String, target: String, action: String, performed: Bool, reason: ActionFailure?) {
        self.recognizer = recognizer
        self.target = target
        self.action = action
        self.performed = performed
        self.reason = reason
    }
}

/// K5: a control event a timer sent (a held stepper's autorepeat), at the session time it fired.
public struct TimedControlEvent: Sendable, Equatable, Codable {
    public var control: String
    public var event: ControlEvent
    public var time: Double
    public var actions: [ControlAction]
    public init(control: String, event: ControlEvent, time: Double, actions: [ControlAction]) {
        self.control = control
        self.event = event
        self.time = time
        self.actions = actions
    }
}

/// `clock.advance` (G11): what the time that passed decided.
public struct ClockOutcome: Sendable, Equatable, Codable {
    /// The session clock before and after, in seconds.
    public var from: Double
    public var time: Double
    public var gestures: [GestureTransition]
    public var gestureActions: [GestureActionSent]
    /// Touch phases delivered to views because a recognizer decided: released (G8, G9) or cancelled (G7).
    public var gestureDeliveries: [TouchDelivery]
    /// K5: what a held stepper's autorepeat timer did meanwhile: its control events and the actions they sent.
    @OmitNil public var controlEvents: [TimedControlEvent]?
    /// A2, G3: the crash the time that passed ended in.
    @OmitNil public var crashed: Crash?

    public init(
        from: Double, time: Double, gestures: [GestureTransition] = [], gestureActions: [GestureActionSent] = [],
        gestureDeliveries: [TouchDelivery] = [], controlEvents: [TimedControlEvent]? = nil, crashed: Crash? = nil
    ) {
        self.from = from
        self.time = time
        self.gestures = gestures
        self.gestureActions = gestureActions
        self.gestureDeliveries = gestureDeliveries
        self.controlEvents = controlEvents
        self.crashed = crashed
    }
}

/// 12.8: one recognizer's live state.
public struct GestureRecognizerInfo: Sendable, Equatable, Codable {
    public var recognizer: String
    public var view: String
    public var kind: GestureKind
    public var state: GestureState
    /// The live touches it observes, in the order they began.
    public var touches: [EventID]
    /// G5: the recognizers it waits on before it may leave possible.
    public var waitingFor: [String]

    public init(
        recognizer: String, view: String, kind: GestureKind, state: GestureState, touches: [EventID],
        waitingFor: [String]
    ) {
        self.recognizer = recognizer
        self.view = view
        self.kind = kind
        self.state = state
        self.touches = touches
        self.waitingFor = waitingFor
    }
}
