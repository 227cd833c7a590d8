/// How a responder implements a message: it handles it and stops, or handles it and calls super
/// (so the message also travels on to the next responder, T2).
public enum HandleMode: String, WireEnum {
    case handle
    case handleAndSuper = "handle+super"
}

/// H6: the declarative form of a hitTest / point(inside:) override.
public struct HitTestOverride: Sendable, Equatable {
    public enum Mode: String, WireEnum { case `default`, passThroughSelf, never }
    public enum RedirectWhen: String, WireEnum { case `self`, `nil` }
    public struct Redirect: Sendable, Equatable {
        public var to: String
        public var when: RedirectWhen
        public init(to: String, when: RedirectWhen) {
            self.to = to
            self.when = when
        }
    }
    public var insets: EdgeInsets = .zero
    public var mode: Mode = .default
    public var redirect: Redirect?
    public init(insets: EdgeInsets = .zero, mode: Mode = .default, redirect: Redirect? = nil) {
        self.insets = insets
        self.mode = mode
        self.redirect = redirect
    }
    public var isDefault: Bool { self == HitTestOverride() }
}

/// A target-action registration of a control (A1): on `event`, send `action` to `target` (nil: the chain).
public struct TargetAction: Sendable, Equatable {
    public var event: ControlEvent
    public var action: String
    public var target: String?
    public init(event: ControlEvent, action: String, target: String?) {
        self.event = event
        self.action = action
        self.target = target
    }
}

/// UIControl.Event values a control can emit from touches (T3), plus valueChanged/primaryActionTriggered
/// which tools may register even though touches alone do not emit them.
public enum ControlEvent: String, WireEnum {
    case touchDown, touchDownRepeat, touchDragInside, touchDragOutside, touchDragEnter, touchDragExit
    case touchUpInside, touchUpOutside, touchCancel, valueChanged, primaryActionTriggered
    case editingDidBegin, editingChanged, editingDidEnd, editingDidEndOnExit
}

/// A node's id and every settable field (section 8.2), without its place in a tree. The table of fields
/// (`NodeField.all`) reads, writes and resets each one.
public struct NodeSpec: Sendable, Equatable {
    public var id: String
    public var kind: NodeKind
    public var className: String { didSet { uikitClass = Self.resolveClass(className, baseClass) } }
    public var frame: Rect = .zero
    public var boundsOrigin: Point = .zero
    public var transform: AffineTransform?
    public var hidden = false
    public var alpha = 1.0
    public var clipsToBounds = false
    /// K1: `userInteractionEnabled` as the node sets it; nil takes the class default (`userInteractionEnabled`).
    public var interactionSetting: Bool?
    /// K1: the UIKit class a custom `class` derives from (8.6).
    public var baseClass: String? { didSet { uikitClass = Self.resolveClass(className, baseClass) } }
    /// K1: the UIKit class this node behaves as, kept with `className` and `baseClass`: dispatch asks it of
    /// every view it visits, and naming it from the strings each time was most of a hit test's cost.
    public private(set) var uikitClass: UIKitClass?
    /// K2–K10: the class-specific fields, nil where the node takes the class default (8.6).
    public var uikit = UIKitFields()
    public var multipleTouchEnabled = false
    public var exclusiveTouch = false
    public var enabled = true
    public var windowLevel = 0.0
    public var key = false
    public var canBecomeFirstResponder: Bool
    public var canResignFirstResponder = true
    public var hitTest = HitTestOverride()
    /// Message name (touchesBegan, motionEnded, copy:, …) → how this responder implements it.
    public var handles: [String: HandleMode] = [:]
    /// Actions this responder's canPerformAction refuses even though it implements them (A4).
    public var vetoes: [String] = []
    public var targets: [TargetAction] = []
    /// G1–G11: the recognizers attached to this view or window, in attachment order.
    public var gestureRecognizers: [GestureRecognizerSpec] = []
    public var presentedBy: String?
    public var receivesRemoteControlEvents = false
    /// Free-form notes carried with the node and never used by dispatch (e.g. what `responder import` read
    /// from a dump that the model has no field for: `tag`, `text`, a scroll view's `contentSize`).
    public var annotations: [String: String] = [:]

    public init(id: String, kind: NodeKind) {
        self.id = id
        self.kind = kind
        self.className = kind.defaultClassName
        self.uikitClass = UIKitClass(rawValue: className)
        self.canBecomeFirstResponder = kind.defaultCanBecomeFirstResponder
    }

    /// Whether this responder implements `message`, and how.
    public func handling(_ message: String) -> HandleMode? { handles[message] }
}
