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
    // Action (A3, A4, K6)
    case takenEarlier = "taken-earlier"
    case notImplemented = "not-implemented"
    case vetoed
    case notInChain = "not-in-chain"
    // First responder (F2)
    case cannotBecome = "cannot-become"
    case currentCannotResign = "current-cannot-resign"
}

/// One reason a view does not get what was asked about: the rule, the responder to blame (`culprit`, nil when
/// none is to blame) and a sentence saying it.
public struct WhyNotCause: Sendable, Equatable, Codable {
    public var rule: Rule
    public var reason: WhyNotReason
    public var culprit: String?
    public var detail: String
    public init(rule: Rule, reason: WhyNotReason, culprit: String?, detail: String) {
        self.rule = rule
        self.reason = reason
        self.culprit = culprit
        self.detail = detail
    }
}

/// The share of a view's rect where a tap is the view's own, and one such screen point (nil when none).
public struct Hittable: Sendable, Equatable, Codable {
    public var fraction: Double
    public var point: Point?
    public init(fraction: Double, point: Point?) {
        self.fraction = fraction
        self.point = point
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
