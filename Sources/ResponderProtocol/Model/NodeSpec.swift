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
///
/// Fields most nodes leave at their defaults (transform, class-specific fields, handlers, targets, recognizers,
/// annotations, …) live out of line in `extras`, shared copy-on-write and absent until a node sets one: a node
/// that sets only its id, kind and frame costs about a quarter of what it would with every field inline, and a
/// large world is mostly such nodes.
public struct NodeSpec: Sendable, Equatable {
    public var id: String
    public var kind: NodeKind
    public var className: String { didSet { uikitClass = Self.resolveClass(className, baseClass) } }
    public var frame: Rect = .zero
    public var boundsOrigin: Point = .zero
    public var hidden = false
    public var alpha = 1.0
    public var clipsToBounds = false
    /// K1: `userInteractionEnabled` as the node sets it; nil takes the class default (`userInteractionEnabled`).
    public var interactionSetting: Bool?
    /// K1: the UIKit class this node behaves as, kept with `className` and `baseClass`: dispatch asks it of
    /// every view it visits, and naming it from the strings each time would be most of a hit test's cost.
    public private(set) var uikitClass: UIKitClass?
    public var multipleTouchEnabled = false
    public var exclusiveTouch = false
    public var enabled = true
    public var windowLevel = 0.0
    public var key = false
    public var canBecomeFirstResponder: Bool
    public var canResignFirstResponder = true
    public var receivesRemoteControlEvents = false
    // Internal but usable from inlinable getters: another module reading a field through a pointer to the
    // node (ResponderCore's `World.read`) otherwise has to copy the whole spec to call each getter.
    @usableFromInline var extras = NodeExtras.Storage()

    public var transform: AffineTransform? {
        @inlinable get { extras.box?.value.transform }
        _modify { yield &extras.unique().value.transform }
    }
    /// K1: the UIKit class a custom `class` derives from (8.6).
    public var baseClass: String? {
        @inlinable get { extras.box?.value.baseClass }
        set {
            extras.unique().value.baseClass = newValue
            uikitClass = Self.resolveClass(className, newValue)
        }
    }
    /// K2–K10: the class-specific fields, nil where the node takes the class default (8.6).
    public var uikit: UIKitFields {
        @inlinable get { extras.box?.value.uikit ?? UIKitFields() }
        _modify { yield &extras.unique().value.uikit }
    }
    public var hitTest: HitTestOverride {
        @inlinable get { extras.box?.value.hitTest ?? HitTestOverride() }
        _modify { yield &extras.unique().value.hitTest }
    }
    /// One field of `hitTest`, for a hit test asking every view: reading `hitTest` whole copies the override
    /// (its redirect holds a string) for each view asked.
    @inlinable public var hitTestMode: HitTestOverride.Mode { extras.box?.value.hitTest.mode ?? .default }
    @inlinable public var hitTestInsets: EdgeInsets { extras.box?.value.hitTest.insets ?? .zero }
    @inlinable public var hitTestRedirect: HitTestOverride.Redirect? { extras.box?.value.hitTest.redirect }
    /// K10's field alone: `uikit.animatingAllowsInteraction` copied all the class fields first.
    @inlinable public var animatingAllowsInteraction: Bool? { extras.box?.value.uikit.animatingAllowsInteraction }
    /// Message name (touchesBegan, motionEnded, copy:, …) → how this responder implements it.
    public var handles: [String: HandleMode] {
        @inlinable get { extras.box?.value.handles ?? [:] }
        _modify { yield &extras.unique().value.handles }
    }
    /// Actions this responder's canPerformAction refuses even though it implements them (A4).
    public var vetoes: [String] {
        @inlinable get { extras.box?.value.vetoes ?? [] }
        _modify { yield &extras.unique().value.vetoes }
    }
    public var targets: [TargetAction] {
        @inlinable get { extras.box?.value.targets ?? [] }
        _modify { yield &extras.unique().value.targets }
    }
    /// G1–G11: the recognizers attached to this view or window, in attachment order.
    public var gestureRecognizers: [GestureRecognizerSpec] {
        @inlinable get { extras.box?.value.gestureRecognizers ?? [] }
        _modify { yield &extras.unique().value.gestureRecognizers }
    }
    public var presentedBy: String? {
        @inlinable get { extras.box?.value.presentedBy }
        _modify { yield &extras.unique().value.presentedBy }
    }
    /// 8.7: the node as an Android View (nil: not given; the `uikit` model never reads it).
    public var android: AndroidFields? {
        @inlinable get { extras.box?.value.android }
        _modify { yield &extras.unique().value.android }
    }
    /// Free-form notes carried with the node and never used by dispatch (e.g. what `responder import` read
    /// from a dump that the model has no field for: `tag`, `text`, a scroll view's `contentSize`).
    public var annotations: [String: String] {
        @inlinable get { extras.box?.value.annotations ?? [:] }
        _modify { yield &extras.unique().value.annotations }
    }

    public init(id: String, kind: NodeKind) {
        self.id = id
        self.kind = kind
        self.className = kind.defaultClassName
        self.uikitClass = kind.defaultUIKitClass
        self.canBecomeFirstResponder = kind.defaultCanBecomeFirstResponder
    }

    /// Whether this responder implements `message`, and how.
    /// Always inlined: called through a pointer to the node, an out-of-line call copied the whole spec first.
    @inlinable @inline(__always) public func handling(_ message: String) -> HandleMode? {
        extras.box?.value.handles[message]
    }

    /// Whether every out-of-line field is certainly at its default (none was ever set).
    var outOfLineFieldsUnset: Bool { extras.box == nil }

    /// The wire names of the fields kept out of line (`NodeExtras`) and written from there. A node with no
    /// extras holds each at its default.
    static let outOfLineFields: Set<String> = [
        "transform", "baseClass", "hitTest", "handles", "vetoes", "targets",
        "gestureRecognizers", "presentedBy", "annotations", "android"
    ]
}

/// The out-of-line fields of a `NodeSpec`.
@usableFromInline struct NodeExtras: Sendable, Equatable {
    @usableFromInline var transform: AffineTransform?
    @usableFromInline var baseClass: String?
    @usableFromInline var uikit = UIKitFields()
    @usableFromInline var hitTest = HitTestOverride()
    @usableFromInline var handles: [String: HandleMode] = [:]
    @usableFromInline var vetoes: [String] = []
    @usableFromInline var targets: [TargetAction] = []
    @usableFromInline var gestureRecognizers: [GestureRecognizerSpec] = []
    @usableFromInline var presentedBy: String?
    @usableFromInline var annotations: [String: String] = [:]
    @usableFromInline var android: AndroidFields?

    /// Copy-on-write storage: nil until a field is set. Equal by value (a box holding only defaults equals none).
    @usableFromInline struct Storage: Sendable, Equatable {
        @usableFromInline var box: Box?

        mutating func unique() -> Box {
            if !isKnownUniquelyReferenced(&box) { box = Box(box?.value ?? NodeExtras()) }
            return box!
        }

        @usableFromInline static func == (lhs: Storage, rhs: Storage) -> Bool {
            lhs.box === rhs.box || (lhs.box?.value ?? NodeExtras()) == (rhs.box?.value ?? NodeExtras())
        }
    }

    /// Mutated only through `Storage.unique()`, that is while no other value shares it.
    @usableFromInline final class Box: @unchecked Sendable {
        // Unchecked: a shared box is only read (it is copied before any change, `unique()`), and every read of a
        // field would otherwise make a dynamic exclusivity check (a `swift_beginAccess` call).
        @exclusivity(unchecked) @usableFromInline var value: NodeExtras
        init(_ value: NodeExtras) { self.value = value }
    }
}
