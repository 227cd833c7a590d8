import ResponderJSON
import ResponderProtocol

/// What is drawn over the world: a hit test (every view asked, why each was passed over, the touch point), a
/// responder chain, and lines of explanation. Built from the engine's replies and traces, never computed here.
public struct Overlay: Sendable, Equatable {
    public var title: String?
    public var hit: HitPath?
    /// The responder chain, first responder first: drawn as numbered arrows up to the application.
    public var chain: [String]
    public var chainTitle: String
    /// Further lines for the legend (what a tap delivered, who performed its action).
    public var notes: [String]
    /// whyNot's answer about a view (`draw --why`).
    public var why: WhyHighlight?
    /// The dispatch model the overlay explains: `android` reads `hit` as Android's search for the view that
    /// consumes the DOWN (AD4, AD5), not as UIKit's hit test; nil or `uikit` as UIKit's.
    public var profile: String?

    public init(
        title: String? = nil, hit: HitPath? = nil, chain: [String] = [], chainTitle: String = "Responder chain",
        notes: [String] = [], why: WhyHighlight? = nil, profile: String? = nil
    ) {
        self.title = title
        self.hit = hit
        self.chain = chain
        self.chainTitle = chainTitle
        self.notes = notes
        self.why = why
        self.profile = profile
    }

    /// Whether `hit` is Android's search for the DOWN's consumer.
    public var isAndroid: Bool { profile == "android" }

    public var isEmpty: Bool { title == nil && hit == nil && chain.isEmpty && notes.isEmpty && why == nil }
}

/// A hit test: `hitTest`'s `{window, view, visited}` or the `hitTest` steps of a touch trace (12.4).
public struct HitPath: Sendable, Equatable {
    public var point: Point
    public var window: String?
    public var view: String?
    public var visited: [Visit]

    public init(point: Point, window: String?, view: String?, visited: [Visit]) {
        self.point = point
        self.window = window
        self.view = view
        self.visited = visited
    }

    /// From a `hitTest` reply's result (or a trace's steps filtered to `step: "hitTest"`).
    public init(point: Point, result: JSON) {
        self.init(
            point: point, window: result["window"]?.stringValue, view: result["view"]?.stringValue,
            visited: (result["visited"]?.arrayValue ?? []).map(Visit.init(json:)))
    }
}

/// One view asked (H8): `{id, result, reason?, rule, point, to?}`.
public struct Visit: Sendable, Equatable {
    public var id: String
    /// `hit`, `miss` or `skipped`.
    public var result: String
    public var reason: String?
    public var rule: String
    public var point: Point?
    public var to: String?
    /// Android: the group's onInterceptTouchEvent answered true for the DOWN (AI1).
    public var intercepted: Bool

    public init(
        id: String, result: String, reason: String? = nil, rule: String, point: Point? = nil, to: String? = nil,
        intercepted: Bool = false
    ) {
        self.id = id
        self.result = result
        self.reason = reason
        self.rule = rule
        self.point = point
        self.to = to
        self.intercepted = intercepted
    }

    public init(json: JSON) {
        let p = Scene.numbers(json["point"], 2).map { Point($0[0], $0[1]) }
        self.init(
            id: json["id"]?.stringValue ?? "?", result: json["result"]?.stringValue ?? "?",
            reason: json["reason"]?.stringValue, rule: json["rule"]?.stringValue ?? "?", point: p,
            to: json["to"]?.stringValue)
    }

    /// `data-hit`: the picture knows hit and miss; a view that answered nil by its hitTest mode was missed too.
    public var dataHit: String { result == "hit" ? "hit" : "miss" }
}

/// Words for the reasons of 12.4 (hitTest steps), for legends and the page. A reason this client does not
/// know is shown as the engine wrote it.
public enum ReasonText {
    public static func describe(_ reason: String) -> String {
        switch reason {
        case "hidden": return "hidden: the view is hidden, so it and its subviews are skipped"
        case "alpha": return "alpha: its alpha is below 0.01, so it and its subviews are skipped"
        case "interaction-disabled": return "interaction-disabled: userInteractionEnabled is false"
        case "disabled-control": return "disabled-control: a control with enabled false"
        case "outside-bounds": return "outside-bounds: the point is outside its bounds"
        case "singular-transform": return "singular-transform: its transform cannot be inverted"
        case "pass-through": return "pass-through: its hitTest mode answers nil for itself"
        case "never": return "never: its hitTest mode answers nil"
        case "redirect": return "redirect: its hitTest answers another view"
        // Android's reasons (a `candidate` step's, and what the picture says of a view offered the DOWN).
        case "invisible": return "invisible: visibility INVISIBLE, so the group does not offer it the touch"
        case "gone": return "gone: visibility GONE, so the group does not offer it the touch"
        case "declined": return "declined: offered the DOWN, its dispatchTouchEvent answered false"
        case "intercepted": return "intercepted: its group took the DOWN away (onInterceptTouchEvent true)"
        default: return reason
        }
    }
}
