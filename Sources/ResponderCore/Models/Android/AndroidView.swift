import ResponderProtocol

/// A node as Android's View system sees it: its `android` object where it has one, and what the mapping
/// (docs/rules-android.md, "How a UIKit tree reads under android") derives from its UIKit fields where it does not.
/// Read afresh for each view the dispatch asks: the tree may change between events of one gesture (AL3).
struct AndroidView {
    enum Kind { case decorView, group, leaf }
    /// A class's own onTouchEvent and interception (AS1–AS3, AS7).
    enum Builtin { case none, scrollView(AndroidFields.Axis), seekBar }

    let id: String
    let kind: Kind
    let className: String
    let visibility: AndroidFields.Visibility
    let enabled: Bool
    let clickable: Bool
    let longClickable: Bool
    let focusable: Bool
    let focusableInTouchMode: Bool
    /// AC5: whether the group makes its descendants' presses wait for the tap timeout.
    let delaysChildPressedState: Bool
    /// AD4: elevation + translationZ.
    let z: Double
    let touchDelegate: AndroidFields.TouchDelegate?
    let onTouchEvent: AndroidFields.Answers?
    let dispatchTouchEvent: AndroidFields.Answers?
    let intercept: AndroidFields.Intercept
    let disallow: AndroidFields.DisallowIntercept?
    let touchListener: AndroidFields.Answers?
    /// AK9: onKeyDown / onKeyUp, read from UIKit's pressesBegan / pressesEnded handlers.
    let keyAnswers: [AndroidAction: AndroidFields.Answer]
    let click: AndroidFields.Method?
    let clickXml: String?
    let longClick: AndroidFields.LongClick?
    let builtin: Builtin
    /// AV4: drops touches while its window is obscured.
    let filterTouchesWhenObscured: Bool
    /// AX4: the items its onCreateContextMenu adds.
    let contextMenu: [String]
    /// AC2 (API 31+): disabled, the view still presses and clicks.
    let allowClickWhenDisabled: Bool
    /// AS5: the view starts a nested scroll at its DOWN.
    let nestedScrollingEnabled: Bool
    /// AC14: the view has a tooltip text.
    let tooltip: Bool
    let childCount: Int
    /// UIKit fields with no Android meaning that this node sets: reported once per dispatch, never silently.
    let unmapped: [(field: String, note: String)]

    static let groupClasses: Set<String> = [
        "ViewGroup", "FrameLayout", "LinearLayout", "RelativeLayout", "ScrollView", "HorizontalScrollView", "DecorView"
    ]
    /// AC5: the groups that do not delay their children's pressed state (ViewGroup's default is to delay).
    static let immediatePressGroups: Set<String> = ["FrameLayout", "LinearLayout", "RelativeLayout", "DecorView"]
    /// AC1: Button's style makes it clickable and focusable; CompoundButton (CheckBox, Switch) inherits it.
    static let buttonClasses: Set<String> = [
        "Button", "ImageButton", "CheckBox", "Switch", "ToggleButton", "RadioButton"
    ]

    init(_ node: Node) {
        let spec = node.spec
        let a = spec.android ?? AndroidFields()
        id = spec.id
        childCount = node.children.count
        let derivedClass: String
        switch spec.kind {
        case .window: derivedClass = "DecorView"
        case .textField, .textView: derivedClass = "EditText"
        case .control:
            switch spec.uikitClass {
            case .UISwitch: derivedClass = "Switch"
            case .UISlider: derivedClass = "SeekBar"
            default: derivedClass = "Button"
            }
        default:
            switch spec.uikitClass {
            case .UILabel: derivedClass = "TextView"
            case .UIImageView: derivedClass = "ImageView"
            case .UIScrollView, .UITableView, .UICollectionView: derivedClass = "ScrollView"
            default: derivedClass = node.children.isEmpty ? "View" : "FrameLayout"
            }
        }
        // On a window node `class` names the window (an Activity's, a `Dialog`): its view is the DecorView.
        let cls = spec.kind == .window ? derivedClass : a.className ?? derivedClass
        className = cls
        if spec.kind == .window {
            kind = .decorView
        } else if !node.children.isEmpty || Self.groupClasses.contains(cls) {
            kind = .group
        } else {
            kind = .leaf
        }
        visibility = a.visibility ?? (spec.hidden ? .invisible : .visible)
        enabled = a.enabled ?? spec.enabled
        // A control's touchUpInside action is its click listener (AX1); without a target it names a method
        // looked up on the Activity, as android:onClick does (AX2).
        let upInside = spec.targets.first { $0.event == .touchUpInside }
        let derivedClick = upInside.flatMap { t in t.target.map { AndroidFields.Method(target: $0, method: t.action) } }
        let derivedXml = upInside.flatMap { $0.target == nil ? $0.action : nil }
        // Each listener given replaces its own derived one only: a long-click listener keeps the derived click.
        let listeners = a.listeners
        let clickGiven = listeners?.click != nil || listeners?.clickXml != nil
        click = clickGiven ? listeners?.click : derivedClick
        clickXml = clickGiven ? listeners?.clickXml : derivedXml
        longClick = listeners?.longClick
        touchListener = listeners?.touch
        let isEditText = cls == "EditText"
        let classClickable = Self.buttonClasses.contains(cls) || isEditText
        clickable = a.clickable ?? (classClickable || click != nil || clickXml != nil)  // AC1
        // registerForContextMenu (setOnCreateContextMenuListener) makes the view long-clickable too (AX4).
        longClickable = a.longClickable ?? (isEditText || longClick != nil || !(a.contextMenu ?? []).isEmpty)
        let canFocus = spec.canBecomeFirstResponder && spec.kind != .window
        // On a window node `focusable` is the window's own flag (AR1); the DecorView itself takes no focus.
        focusable =
            spec.kind == .window ? false : a.focusable ?? (Self.buttonClasses.contains(cls) || isEditText || canFocus)
        focusableInTouchMode = a.focusableInTouchMode ?? (isEditText || canFocus)
        let delays: Bool
        switch cls {
        case "ScrollView", "HorizontalScrollView", "ViewGroup": delays = true
        default: delays = kind != .leaf && !Self.immediatePressGroups.contains(cls)
        }
        delaysChildPressedState = a.shouldDelayChildPressedState ?? delays
        z = (a.elevation ?? 0) + (a.translationZ ?? 0)
        touchDelegate = a.touchDelegate
        switch cls {
        case "ScrollView": builtin = .scrollView(.vertical)
        case "HorizontalScrollView": builtin = .scrollView(.horizontal)
        case "SeekBar": builtin = .seekBar
        default: builtin = .none
        }
        onTouchEvent = a.handles?.onTouchEvent ?? Self.derivedAnswers(spec)
        var keys: [AndroidAction: AndroidFields.Answer] = [:]
        if spec.handles["pressesBegan"] != nil { keys[.down] = .consume }
        if spec.handles["pressesEnded"] != nil { keys[.up] = .consume }
        keyAnswers = keys
        dispatchTouchEvent = a.handles?.dispatchTouchEvent
        if let i = a.handles?.onInterceptTouchEvent {
            intercept = i
        } else if case .scrollView(let axis) = builtin {
            intercept = .afterSlop(axis)  // AS1, AS3
        } else {
            intercept = .never  // AI2
        }
        disallow = a.handles?.requestDisallowIntercept
        filterTouchesWhenObscured = a.filterTouchesWhenObscured ?? false
        contextMenu = a.contextMenu ?? []
        allowClickWhenDisabled = a.allowClickWhenDisabled ?? false
        nestedScrollingEnabled = a.nestedScrollingEnabled ?? false
        tooltip = a.tooltip ?? false
        var unmapped: [(field: String, note: String)] = []
        if spec.interactionSetting == false {
            unmapped.append(("userInteractionEnabled", "Android has no userInteractionEnabled; ignored"))
        }
        let recognizers = spec.gestureRecognizers.filter { $0.kind != .pan || spec.uikitClass?.isScrollView != true }
        if !recognizers.isEmpty {
            unmapped.append(("gestureRecognizers", "Android has no gesture recognizers (AX6); ignored"))
        }
        self.unmapped = unmapped
    }

    /// UIKit's `handles` of the touch phases, read as onTouchEvent's answers: a view that handles a phase
    /// consumes that action; the others keep the default.
    private static func derivedAnswers(_ spec: NodeSpec) -> AndroidFields.Answers? {
        let phases: [(String, AndroidFields.Action)] = [
            ("touchesBegan", .down), ("touchesMoved", .move), ("touchesEnded", .up), ("touchesCancelled", .cancel)
        ]
        let handled = phases.filter { spec.handles[$0.0] != nil }.map { AndroidFields.ActionAnswer($0.1, .consume) }
        return handled.isEmpty ? nil : .byAction(handled)
    }

    var isGroup: Bool { kind != .leaf }

    /// AC2: whether onTouchEvent takes the disabled path (nothing but its answer).
    var acts: Bool { enabled || allowClickWhenDisabled }
}

extension AndroidFields.Answers {
    /// The answer for `action`: its own entry, else `*`, else the default.
    func answer(for action: AndroidAction) -> AndroidFields.Answer {
        switch self {
        case .always(let a): return a
        case .byAction(let list):
            let own = list.first { $0.action == action.fieldAction }
            return (own ?? list.first { $0.action == .other })?.answer ?? .super
        }
    }
}

/// A MotionEvent action (ME).
enum AndroidAction: String {
    case down, move, up, cancel
    /// AM2, AM3: another pointer went down or up on a view that already holds one.
    case pointerDown, pointerUp

    init(_ phase: TouchPhase) {
        switch phase {
        case .began: self = .down
        case .moved, .stationary: self = .move
        case .ended: self = .up
        case .cancelled: self = .cancel
        }
    }

    var fieldAction: AndroidFields.Action {
        switch self {
        case .down: return .down
        case .move: return .move
        case .up: return .up
        case .cancel: return .cancel
        case .pointerDown, .pointerUp: return .other
        }
    }

    /// The constant's name, as a delivery's `message`.
    var message: String {
        switch self {
        case .pointerDown: return "ACTION_POINTER_DOWN"
        case .pointerUp: return "ACTION_POINTER_UP"
        default: return "ACTION_" + rawValue.uppercased()
        }
    }
}
