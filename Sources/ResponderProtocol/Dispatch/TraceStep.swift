import ResponderJSON

/// What a trace is about (12.4): published kinds, then the kinds of replies only.
public enum TraceKind: String, WireEnum {
    case touch, motion, remoteControl, press, action, become, resign, treeChange, clock
    case hitTest, responderChain, canPerform, makeKey
}

/// One view asked during hit-testing (H8).
public enum HitResult: String, WireEnum { case hit, miss, skipped }

public enum HitReason: String, WireEnum {
    case hidden, alpha
    case interactionDisabled = "interaction-disabled"
    case disabledControl = "disabled-control"
    case outsideBounds = "outside-bounds"
    case singularTransform = "singular-transform"
    case passThrough = "pass-through"
    case never, redirect
    /// K10: animating without allowUserInteraction.
    case animating
    /// K9: the presenter's views while a full-screen presentation covers them.
    case presentedOver = "presented-over"
    /// K18: the dimming view lets a touch inside one of the popover's passthrough views through.
    case passthroughView = "passthrough-view"
}

public enum Disposition: String, WireEnum {
    case notHandled = "not-handled"
    case handled
    case handledAndSuper = "handled+super"
    case consumedByControl = "consumed-by-control"
}

public enum DeliverReason: String, WireEnum { case vetoed }

public enum ActionFailure: String, WireEnum {
    case notImplemented = "not-implemented"
    case targetMissing = "target-missing"
    case endOfChain = "end-of-chain"
    /// A2, G3: the explicit target does not implement the action; the app crashes (profile `unrecognizedSelector`).
    case unrecognizedSelector = "unrecognized-selector"
}

public enum FocusCheck: String, WireEnum {
    case inWindow, isFirstResponder, canBecomeFirstResponder, canResignFirstResponder
    /// K11: a text field's or text view's delegate answers.
    case shouldBeginEditing, shouldEndEditing
    /// K13: the text field delegate's textFieldShouldReturn(_:).
    case shouldReturn
    /// K12: textField(_:shouldChangeCharactersIn:replacementString:) (a text view's shouldChangeTextIn).
    case shouldChangeCharacters
    /// F8: whether the window's first responder lies in the view's hierarchy.
    case firstResponderInside
    /// K17, K18: a tap on the dimming view is a dismissal attempt that these answers decide.
    case isModalInPresentation, presentationControllerShouldDismiss
}

public enum FocusReason: String, WireEnum {
    case become, tap, resign
    case leftWindow = "left-window"
    /// F8: endEditing(_:) made it resign (by force, or asked).
    case endEditing = "end-editing"
    /// F9 (`hiddenFirstResponder: nextKeyView`): it was hidden, or the next key view took its place.
    case hidden
    /// K13: the Return key ended editing.
    case returnKey = "return-key"
    // The `android` profile's focus changes (12.10), as its `focus` steps name them.
    /// AC7, AK5: a tap focused a view focusable in touch mode.
    case touch
    /// AK2, AK3: responder.become (requestFocus).
    case request
    /// AK6: responder.resign (clearFocus).
    case clear
    /// AL4: the focused view left the tree.
    case removed
    /// AK4: entering touch mode took focus from a view not focusable in it.
    case touchMode = "touch-mode"
    /// AK4, AK6: a key leaving touch mode gave focus to the first focusable view.
    case defaultFocus = "default"
    /// AK11: an arrow or TAB moved focus.
    case navigation
}

public enum DiscardReason: String, WireEnum {
    case endOfChain = "end-of-chain"
    case cycle
    case noHit = "no-hit"
    case multipleTouchDisabled = "multiple-touch-disabled"
    case exclusiveTouch = "exclusive-touch"
    case noView = "no-view"
    case noKeyWindow = "no-key-window"
    case noFirstResponder = "no-first-responder"
    case noResponder = "no-responder"
    case notReceivingRemoteControlEvents = "not-receiving-remote-control-events"
    case viewLeftWindow = "view-left-window"
    /// G7: a recognizer took the touch and the view got touchesCancelled; later phases reach no one.
    case cancelledByGesture = "cancelled-by-gesture"
    /// G8: a recognizer that delays touchesBegan took the touch; the view gets nothing of it.
    case takenByGesture = "taken-by-gesture"
    /// K17, K18: the touch hit a presentation's dimming view; nothing behind it gets the touch.
    case dimmed
}

/// Which event of a multi-event trace a step belongs to.
public enum EventTag: Sendable, Equatable {
    case touch(EventID)
    case press(EventID)

    var key: String {
        switch self {
        case .touch: return "touch"
        case .press: return "press"
        }
    }
    var id: EventID {
        switch self {
        case .touch(let id), .press(let id): return id
        }
    }
}

/// One view asked by hitTest: `{id, result, reason?, rule, point, to?}` (12.3 `hitTest`, 12.4).
public struct HitVisit: Sendable, Equatable, Codable {
    public var id: String
    public var result: HitResult
    @OmitNil public var reason: HitReason?
    public var rule: Rule
    /// The point in `id`'s bounds coordinates; nil when it cannot be converted (singular transform).
    public var point: Point?
    /// The redirect target (H6).
    @OmitNil public var to: String?

    /// Inlinable: called from the hit tester in another module, a visit would be made in a temporary, copied
    /// into the list of visits and the temporary released, for every view a hit test visits.
    @inlinable public init(
        id: String, point: Point?, result: HitResult = .miss, reason: HitReason? = nil, rule: Rule = .h2,
        to: String? = nil
    ) {
        self.id = id
        self.result = result
        self.reason = reason
        self.rule = rule
        self.point = point
        self.to = to
    }
}

/// One step of a trace (12.4). Each names the rule it applied.
public enum TraceStep: Sendable, Equatable {
    case hitTest(HitVisit, touch: EventID?)
    case deliver(
        to: String, message: String, disposition: Disposition, rule: Rule, reason: DeliverReason?, tag: EventTag?)
    /// `touch` nil: an event no touch caused (K11–K13: editing sessions, typing, the Return key).
    case controlEvent(control: String, event: ControlEvent, touch: EventID?, rule: Rule = .t3)
    case action(
        action: String, target: String?, sender: String?, performed: Bool, by: String?, rule: Rule,
        reason: ActionFailure?)
    case check(id: String, check: FocusCheck, value: Bool, rule: Rule)
    case firstResponder(FocusChange, rule: Rule)
    case next(from: String, to: String?, rule: Rule)
    case discard(message: String, reason: DiscardReason, rule: Rule, tag: EventTag?, blockedBy: String?, view: String?)
    case keyWindow(from: String?, to: String?)
    /// G1: whether a recognizer observes a touch that began.
    case observe(recognizer: String, view: String, touch: EventID, observes: Bool, reason: GestureReason?)
    /// G2–G10: a recognizer's state changed.
    case gesture(GestureTransition)
    /// G3: a recognizer sent an action to its target.
    case gestureAction(GestureActionSent)
    /// G5: a recognizer that would leave possible waits for others to fail.
    case gestureWait(recognizer: String, waitingFor: [String])
    /// K19: a scroll view's pan reached the threshold only along axes (`horizontal`, `vertical`) its scroll view
    /// cannot scroll: it stays possible.
    case scrollAxis(recognizer: String, scrollView: String, axes: [String])
    /// G8/G9: a touch phase held back from the view while recognizers decide.
    case held(touch: EventID, message: String, by: [String], rule: Rule)
    /// G8/G9: a held phase is delivered now (the deliver steps follow); `by` is the recognizer whose decision released it.
    case release(touch: EventID, message: String, by: String?, rule: Rule)
    /// K3–K8: dispatch changed a node field (published as a tree change, 12.6).
    case change(FieldChange)
    /// E5: a key command matched a press, lost to another, or had its action performed (or not).
    case keyCommand(KeyCommandStep)
    /// A step of the `android` profile (12.10).
    case android(AndroidStep)

    /// A `hitTest` step's name, for a writer that writes such steps without the value.
    static var hitTestName: String { "hitTest" }

    public var name: String {
        switch self {
        case .hitTest: return Self.hitTestName
        case .deliver: return "deliver"
        case .controlEvent: return "controlEvent"
        case .action: return "action"
        case .check: return "check"
        case .firstResponder: return "firstResponder"
        case .next: return "next"
        case .discard: return "discard"
        case .keyWindow: return "keyWindow"
        case .observe: return "observe"
        case .gesture: return "gesture"
        case .gestureAction: return "gestureAction"
        case .gestureWait: return "gestureWait"
        case .scrollAxis: return "scrollAxis"
        case .held: return "held"
        case .release: return "release"
        case .change: return "change"
        case .keyCommand: return "keyCommand"
        case .android(let step): return step.kind.rawValue
        }
    }

    public var rule: Rule {
        switch self {
        case .hitTest(let v, _): return v.rule
        case .deliver(_, _, _, let rule, _, _), .action(_, _, _, _, _, let rule, _), .check(_, _, _, let rule),
            .firstResponder(_, let rule), .next(_, _, let rule), .discard(_, _, let rule, _, _, _):
            return rule
        case .controlEvent(_, _, _, let rule): return rule
        case .keyWindow: return .f4
        case .observe: return .g1
        case .gesture(let t): return t.rule
        case .gestureAction: return .g3
        case .gestureWait: return .g5
        case .scrollAxis: return .k19
        case .held(_, _, _, let rule), .release(_, _, _, let rule): return rule
        case .change(let c): return c.rule
        case .keyCommand: return .e5
        case .android(let step): return step.rule
        }
    }
}

/// E5: what happened to a key command: `matched` (the winner), `skipped` (another responder's matching
/// command won, `keyCommandClash`), then `performed` or `not-performed` once its action was sent.
public enum KeyCommandResult: String, WireEnum {
    case matched, skipped, performed
    case notPerformed = "not-performed"
}

/// E5: a trace's `keyCommand` step.
public struct KeyCommandStep: Sendable, Equatable {
    /// The responder that declares the command (the application for the system's own commands).
    public var id: String
    public var input: String
    public var modifierFlags: [KeyModifier]
    public var action: String
    public var result: KeyCommandResult
    /// Who performed the action (`performed` only).
    public var by: String?
    /// One of the system's commands (⌘X ⌘C ⌘V ⌘A), sent through A5.
    public var system: Bool
    public var press: EventID
    public init(
        id: String, command: KeyCommand, result: KeyCommandResult, by: String? = nil, system: Bool = false,
        press: EventID
    ) {
        self.id = id
        self.input = command.input
        self.modifierFlags = command.modifierFlags
        self.action = command.action
        self.result = result
        self.by = by
        self.system = system
        self.press = press
    }
}

/// A node field dispatch changed (K3–K8): a trace's `change` step.
public struct FieldChange: Sendable, Equatable {
    public var id: String
    public var field: String
    public var from: JSON
    public var to: JSON
    public var rule: Rule
    public init(id: String, field: String, from: JSON, to: JSON, rule: Rule) {
        self.id = id
        self.field = field
        self.from = from
        self.to = to
        self.rule = rule
    }
}

/// A first-responder change: a trace's `firstResponder` step without its rule, and a focus event's `change`.
public struct FocusChange: Sendable, Equatable, Codable {
    public var window: String
    public var from: String?
    public var to: String?
    public var reason: FocusReason

    public init(window: String, from: String?, to: String?, reason: FocusReason) {
        self.window = window
        self.from = from
        self.to = to
        self.reason = reason
    }
}

extension TraceStep: Codable {
    private enum Key: String, CodingKey {
        case step, id, result, reason, rule, point, to, touch, press, message, disposition, control, event, action,
            target, sender
        case performed, by, check, value, window, from, blockedBy, view
        case recognizer, observes, waitingFor, field, axes
        case input, modifierFlags, system
    }

    public func encode(to encoder: any Encoder) throws {
        if case .android(let step) = self { return try step.encode(to: encoder) }
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(name, forKey: .step)
        func tag(_ t: EventTag?) throws {
            if let t { try c.encode(t.id, forKey: t.key == "touch" ? .touch : .press) }
        }
        switch self {
        case .hitTest(let v, let touch):
            try c.encode(v.id, forKey: .id)
            try c.encode(v.result, forKey: .result)
            if let reason = v.reason { try c.encode(reason, forKey: .reason) }
            try c.encode(v.rule, forKey: .rule)
            try c.encode(v.point, forKey: .point)
            if let to = v.to { try c.encode(to, forKey: .to) }
            if let touch { try c.encode(touch, forKey: .touch) }
        case .deliver(let to, let message, let disposition, let rule, let reason, let t):
            try c.encode(to, forKey: .to)
            try c.encode(message, forKey: .message)
            try c.encode(disposition, forKey: .disposition)
            try c.encode(rule, forKey: .rule)
            if let reason { try c.encode(reason, forKey: .reason) }
            try tag(t)
        case .controlEvent(let control, let event, let touch, let rule):
            try c.encode(control, forKey: .control)
            try c.encode(event, forKey: .event)
            try c.encode(rule, forKey: .rule)
            try c.encodeIfPresent(touch, forKey: .touch)
        case .action(let action, let target, let sender, let performed, let by, let rule, let reason):
            try c.encode(action, forKey: .action)
            try c.encodeIfPresent(target, forKey: .target)
            try c.encodeIfPresent(sender, forKey: .sender)
            try c.encode(performed, forKey: .performed)
            try c.encodeIfPresent(by, forKey: .by)
            try c.encode(rule, forKey: .rule)
            if let reason { try c.encode(reason, forKey: .reason) }
        case .check(let id, let check, let value, let rule):
            try c.encode(id, forKey: .id)
            try c.encode(check, forKey: .check)
            try c.encode(value, forKey: .value)
            try c.encode(rule, forKey: .rule)
        case .firstResponder(let change, let rule):
            try c.encode(change.window, forKey: .window)
            try c.encodeIfPresent(change.from, forKey: .from)
            try c.encodeIfPresent(change.to, forKey: .to)
            try c.encode(change.reason, forKey: .reason)
            try c.encode(rule, forKey: .rule)
        case .next(let from, let to, let rule):
            try c.encode(from, forKey: .from)
            try c.encodeIfPresent(to, forKey: .to)
            try c.encode(rule, forKey: .rule)
        case .discard(let message, let reason, let rule, let t, let blockedBy, let view):
            try c.encode(message, forKey: .message)
            try c.encode(reason, forKey: .reason)
            try c.encode(rule, forKey: .rule)
            try tag(t)
            if let blockedBy { try c.encode(blockedBy, forKey: .blockedBy) }
            if let view { try c.encode(view, forKey: .view) }
        case .keyWindow(let from, let to):
            try c.encodeIfPresent(from, forKey: .from)
            try c.encodeIfPresent(to, forKey: .to)
            try c.encode(Rule.f4, forKey: .rule)
        case .observe(let recognizer, let view, let touch, let observes, let reason):
            try c.encode(recognizer, forKey: .recognizer)
            try c.encode(view, forKey: .view)
            try c.encode(touch, forKey: .touch)
            try c.encode(observes, forKey: .observes)
            if let reason { try c.encode(reason, forKey: .reason) }
            try c.encode(Rule.g1, forKey: .rule)
        case .gesture(let t):
            try c.encode(t.recognizer, forKey: .recognizer)
            try c.encode(t.from, forKey: .from)
            try c.encode(t.to, forKey: .to)
            try c.encode(t.rule, forKey: .rule)
            if let reason = t.reason { try c.encode(reason, forKey: .reason) }
            if let by = t.by { try c.encode(by, forKey: .by) }
        case .gestureAction(let a):
            try c.encode(a.recognizer, forKey: .recognizer)
            try c.encode(a.target, forKey: .target)
            try c.encode(a.action, forKey: .action)
            try c.encode(a.performed, forKey: .performed)
            if let reason = a.reason { try c.encode(reason, forKey: .reason) }
            try c.encode(Rule.g3, forKey: .rule)
        case .gestureWait(let recognizer, let waitingFor):
            try c.encode(recognizer, forKey: .recognizer)
            try c.encode(waitingFor, forKey: .waitingFor)
            try c.encode(Rule.g5, forKey: .rule)
        case .scrollAxis(let recognizer, let scrollView, let axes):
            try c.encode(recognizer, forKey: .recognizer)
            try c.encode(scrollView, forKey: .view)
            try c.encode(axes, forKey: .axes)
            try c.encode(Rule.k19, forKey: .rule)
        case .held(let touch, let message, let by, let rule):
            try c.encode(touch, forKey: .touch)
            try c.encode(message, forKey: .message)
            try c.encode(by, forKey: .by)
            try c.encode(rule, forKey: .rule)
        case .release(let touch, let message, let by, let rule):
            try c.encode(touch, forKey: .touch)
            try c.encode(message, forKey: .message)
            try c.encodeIfPresent(by, forKey: .by)
            try c.encode(rule, forKey: .rule)
        case .change(let change):
            try c.encode(change.id, forKey: .id)
            try c.encode(change.field, forKey: .field)
            try c.encode(change.from, forKey: .from)
            try c.encode(change.to, forKey: .to)
            try c.encode(change.rule, forKey: .rule)
        case .keyCommand(let k):
            try c.encode(k.id, forKey: .id)
            try c.encode(k.input, forKey: .input)
            try c.encode(k.modifierFlags, forKey: .modifierFlags)
            try c.encode(k.action, forKey: .action)
            try c.encode(k.result.rawValue, forKey: .result)
            if let by = k.by { try c.encode(by, forKey: .by) }
            if k.system { try c.encode(true, forKey: .system) }
            try c.encode(k.press, forKey: .press)
            try c.encode(Rule.e5, forKey: .rule)
        case .android:
            break
        }
    }

    public init(from decoder: any Decoder) throws {
        if let step = try AndroidStep.decodeIfAndroid(from: decoder) {
            self = .android(step)
            return
        }
        let c = try decoder.container(keyedBy: Key.self)
        let rule = try c.decode(Rule.self, forKey: .rule)
        func tag() throws -> EventTag? {
            if let t = try c.decodeIfPresent(EventID.self, forKey: .touch) { return .touch(t) }
            if let p = try c.decodeIfPresent(EventID.self, forKey: .press) { return .press(p) }
            return nil
        }
        switch try c.decode(String.self, forKey: .step) {
        case "hitTest":
            let visit = HitVisit(
                id: try c.decode(String.self, forKey: .id), point: try c.decodeIfPresent(Point.self, forKey: .point),
                result: try c.decode(HitResult.self, forKey: .result),
                reason: try c.decodeIfPresent(HitReason.self, forKey: .reason),
                rule: rule, to: try c.decodeIfPresent(String.self, forKey: .to))
            self = .hitTest(visit, touch: try c.decodeIfPresent(EventID.self, forKey: .touch))
        case "deliver":
            self = .deliver(
                to: try c.decode(String.self, forKey: .to), message: try c.decode(String.self, forKey: .message),
                disposition: try c.decode(Disposition.self, forKey: .disposition), rule: rule,
                reason: try c.decodeIfPresent(DeliverReason.self, forKey: .reason), tag: try tag())
        case "controlEvent":
            self = .controlEvent(
                control: try c.decode(String.self, forKey: .control),
                event: try c.decode(ControlEvent.self, forKey: .event),
                touch: try c.decodeIfPresent(EventID.self, forKey: .touch), rule: rule)
        case "action":
            self = .action(
                action: try c.decode(String.self, forKey: .action),
                target: try c.decodeIfPresent(String.self, forKey: .target),
                sender: try c.decodeIfPresent(String.self, forKey: .sender),
                performed: try c.decode(Bool.self, forKey: .performed),
                by: try c.decodeIfPresent(String.self, forKey: .by), rule: rule,
                reason: try c.decodeIfPresent(ActionFailure.self, forKey: .reason))
        case "check":
            self = .check(
                id: try c.decode(String.self, forKey: .id), check: try c.decode(FocusCheck.self, forKey: .check),
                value: try c.decode(Bool.self, forKey: .value), rule: rule)
        case "firstResponder":
            self = .firstResponder(
                FocusChange(
                    window: try c.decode(String.self, forKey: .window),
                    from: try c.decodeIfPresent(String.self, forKey: .from),
                    to: try c.decodeIfPresent(String.self, forKey: .to),
                    reason: try c.decode(FocusReason.self, forKey: .reason)), rule: rule)
        case "next":
            self = .next(
                from: try c.decode(String.self, forKey: .from), to: try c.decodeIfPresent(String.self, forKey: .to),
                rule: rule)
        case "discard":
            self = .discard(
                message: try c.decode(String.self, forKey: .message),
                reason: try c.decode(DiscardReason.self, forKey: .reason), rule: rule,
                tag: try tag(), blockedBy: try c.decodeIfPresent(String.self, forKey: .blockedBy),
                view: try c.decodeIfPresent(String.self, forKey: .view))
        case "keyWindow":
            self = .keyWindow(
                from: try c.decodeIfPresent(String.self, forKey: .from),
                to: try c.decodeIfPresent(String.self, forKey: .to))
        case "observe":
            self = .observe(
                recognizer: try c.decode(String.self, forKey: .recognizer),
                view: try c.decode(String.self, forKey: .view),
                touch: try c.decode(EventID.self, forKey: .touch), observes: try c.decode(Bool.self, forKey: .observes),
                reason: try c.decodeIfPresent(GestureReason.self, forKey: .reason))
        case "gesture":
            self = .gesture(
                GestureTransition(
                    recognizer: try c.decode(String.self, forKey: .recognizer),
                    from: try c.decode(GestureState.self, forKey: .from),
                    to: try c.decode(GestureState.self, forKey: .to), rule: rule,
                    reason: try c.decodeIfPresent(GestureReason.self, forKey: .reason),
                    by: try c.decodeIfPresent(String.self, forKey: .by)))
        case "gestureAction":
            self = .gestureAction(
                GestureActionSent(
                    recognizer: try c.decode(String.self, forKey: .recognizer),
                    target: try c.decode(String.self, forKey: .target),
                    action: try c.decode(String.self, forKey: .action),
                    performed: try c.decode(Bool.self, forKey: .performed),
                    reason: try c.decodeIfPresent(ActionFailure.self, forKey: .reason)))
        case "gestureWait":
            self = .gestureWait(
                recognizer: try c.decode(String.self, forKey: .recognizer),
                waitingFor: try c.decode([String].self, forKey: .waitingFor))
        case "scrollAxis":
            self = .scrollAxis(
                recognizer: try c.decode(String.self, forKey: .recognizer),
                scrollView: try c.decode(String.self, forKey: .view), axes: try c.decode([String].self, forKey: .axes))
        case "held":
            self = .held(
                touch: try c.decode(EventID.self, forKey: .touch), message: try c.decode(String.self, forKey: .message),
                by: try c.decode([String].self, forKey: .by), rule: rule)
        case "release":
            self = .release(
                touch: try c.decode(EventID.self, forKey: .touch), message: try c.decode(String.self, forKey: .message),
                by: try c.decodeIfPresent(String.self, forKey: .by), rule: rule)
        case "change":
            self = .change(
                FieldChange(
                    id: try c.decode(String.self, forKey: .id), field: try c.decode(String.self, forKey: .field),
                    from: try c.decode(JSON.self, forKey: .from), to: try c.decode(JSON.self, forKey: .to), rule: rule))
        case "keyCommand":
            var step = KeyCommandStep(
                id: try c.decode(String.self, forKey: .id),
                command: KeyCommand(
                    input: try c.decode(String.self, forKey: .input),
                    modifierFlags: try c.decode([KeyModifier].self, forKey: .modifierFlags),
                    action: try c.decode(String.self, forKey: .action)),
                result: try c.decode(KeyCommandResult.self, forKey: .result),
                by: try c.decodeIfPresent(String.self, forKey: .by),
                system: try c.decodeIfPresent(Bool.self, forKey: .system) ?? false,
                press: try c.decode(EventID.self, forKey: .press))
            step.modifierFlags = try c.decode([KeyModifier].self, forKey: .modifierFlags)
            self = .keyCommand(step)
        case let other:
            throw RPCError(.internalError, "unknown trace step \"\(other)\"")
        }
    }
}

/// The steps of one dispatch, in the order they happened (H8: the explanation matters as much as the answer).
public struct Trace: Sendable, Equatable, Codable {
    public var kind: TraceKind
    public var steps: [TraceStep]

    public init(kind: TraceKind, steps: [TraceStep] = []) {
        self.kind = kind
        self.steps = steps
        // Room for a tap's steps: grown from empty, a tap's trace would be reallocated six times.
        if steps.isEmpty { self.steps.reserveCapacity(24) }
    }

    /// Takes the step (a borrowed one would be copied into the array: a retain per string it holds).
    public mutating func add(_ step: consuming TraceStep) { steps.append(step) }

    /// Every first-responder change, in order: what `<session>/focus` publishes.
    public var focusChanges: [FocusChange] { steps.compactMap(\.focusChange) }
}

extension TraceStep {
    /// The first-responder change this step records, if it records one.
    public var focusChange: FocusChange? {
        switch self {
        case .firstResponder(let change, _): change
        case .android(let s): s.focusChange
        default: nil
        }
    }
}
