/// `whyNot`'s stable reason names (Protocol/README.md 12.3): why a view does not get a touch, an action or the
/// first responder. Hit-test reasons keep the names the trace gives them (12.4).
public enum WhyNotReason: String, WireEnum {
    // Touch (H1–H7, K1, K9, K10)
    case notAView = "not-a-view"
    case notInWindow = "not-in-window"
    case hidden, alpha
    case interactionDisabled = "interaction-disabled"
    case disabledControl = "disabled-control"
    case animating
    case presentedOver = "presented-over"
    /// K17, K18: a sheet's or popover's dimming view takes the touch.
    case dimmed
    case never
    case singularTransform = "singular-transform"
    case zeroSize = "zero-size"
    case outsideBounds = "outside-bounds"
    case outsideAncestor = "outside-ancestor"
    case covered
    case takenBySubview = "taken-by-subview"
    case redirect
    case passThrough = "pass-through"
    // Touch, after the hit test (T4, T5, G7–G9, K8)
    case exclusiveTouch = "exclusive-touch"
    case multipleTouchDisabled = "multiple-touch-disabled"
    case cancelledByGesture = "cancelled-by-gesture"
    case takenByGesture = "taken-by-gesture"
    case heldByGesture = "held-by-gesture"
    // Touch, what a tap on a cell is for (K14–K16)
    case controlInCell = "control-in-cell"
    case selectionDisallowed = "selection-disallowed"
    case highlightRefused = "highlight-refused"
    case selectionRefused = "selection-refused"
    case deselects
    /// A2, G3: an action the tap sets off crashes the app before the view gets the touch.
    case unrecognizedSelector = "unrecognized-selector"
    // Action (A3, A4, K6)
    case takenEarlier = "taken-earlier"
    case notImplemented = "not-implemented"
    case vetoed
    case notInChain = "not-in-chain"
    // First responder (F2)
    case cannotBecome = "cannot-become"
    case currentCannotResign = "current-cannot-resign"
    // First responder, text fields and views (K11); a tap on one asks them too
    case beginEditingRefused = "begin-editing-refused"
    case endEditingRefused = "end-editing-refused"
}

/// One reason a view does not get what was asked about: the rule, the responder to blame (`culprit`, nil when
/// none is to blame), the gesture recognizer to blame when one is (its id, as traces and `recognizers` name it;
/// `culprit` is then the view it is attached to) and a sentence saying it.
public struct WhyNotCause: Sendable, Equatable, Codable {
    public var rule: Rule
    public var reason: WhyNotReason
    public var culprit: String?
    @OmitNil public var recognizer: String?
    public var detail: String
    public init(rule: Rule, reason: WhyNotReason, culprit: String?, recognizer: String? = nil, detail: String) {
        self.rule = rule
        self.reason = reason
        self.culprit = culprit
        self.recognizer = recognizer
        self.detail = detail
    }
}

/// The share of a view's rect where a tap is the view's own, and one such screen point (nil when none); when
/// asked for, `area`: the screen rectangles `[x, y, width, height]` of the sampling grid's cells whose sample
/// hit-tests to the view (rows of cells merged), for drawing it.
public struct Hittable: Sendable, Equatable, Codable {
    public var fraction: Double
    public var point: Point?
    @OmitNil public var area: [[Double]]?
    public init(fraction: Double, point: Point?, area: [[Double]]? = nil) {
        self.fraction = fraction
        self.point = point
        self.area = area
    }
}

/// `whyNot`'s result: `cause` is the decisive cause (nil exactly when `ok`), first of `causes`.
public struct WhyNotAnswer: Sendable, Equatable, Codable {
    public var ok: Bool
    public var cause: WhyNotCause?
    public var causes: [WhyNotCause]
    public var hittable: Hittable
    public init(ok: Bool, causes: [WhyNotCause], hittable: Hittable) {
        self.ok = ok
        self.cause = causes.first
        self.causes = causes
        self.hittable = hittable
    }
}
