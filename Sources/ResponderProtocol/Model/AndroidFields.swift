import ResponderJSON

/// A node's `android` object (8.7): what the node is and declares as an Android View, for a session whose model
/// is Android's. The `uikit` model never reads it. Every member is optional and nil until the node gives it: a
/// member left out is derived from the UIKit fields by the Android model, and output writes back only the members
/// given, so a node reads back exactly as it was sent.
public struct AndroidFields: Sendable, Equatable {
    /// View#setVisibility.
    public enum Visibility: String, Sendable, CaseIterable { case visible, invisible, gone }

    /// What an override or a listener returns for one action: the default implementation (`super`), or true
    /// (`consume`) or false (`pass`) without it.
    public enum Answer: String, Sendable, CaseIterable {
        case `super`, consume, pass
    }

    /// The MotionEvent actions an answer can be given for; `*` stands for every action not named.
    public enum Action: String, Sendable, CaseIterable {
        case down, move, up, cancel
        case other = "*"
    }

    /// One answer for every action, or an answer per action (in the order given; an action not named answers
    /// `*`'s, else `super`).
    public enum Answers: Sendable, Equatable {
        case always(Answer)
        case byAction([ActionAnswer])
    }

    public struct ActionAnswer: Sendable, Equatable {
        public var action: Action
        public var answer: Answer
        public init(_ action: Action, _ answer: Answer) {
            self.action = action
            self.answer = answer
        }
    }

    /// The direction a movement past the touch slop is tested in.
    public enum Axis: String, Sendable, CaseIterable { case vertical, horizontal, any }

    /// onInterceptTouchEvent's policy: never, on every event, on the DOWN only, once the touch has moved past the
    /// slop along `axis`, or at the gesture's `n`-th event (the DOWN is the first).
    public enum Intercept: Sendable, Equatable {
        case never, always, down
        case afterSlop(Axis)
        case atEvent(Int)
    }

    /// When the view calls requestDisallowInterceptTouchEvent(true) on its parent: at the DOWN, or once the touch
    /// has moved past the slop along `axis`.
    public enum DisallowIntercept: Sendable, Equatable {
        case down
        case afterSlop(Axis)
    }

    /// A TouchDelegate the view installs: touches within `bounds` (the view's coordinates) go to `delegate`.
    public struct TouchDelegate: Sendable, Equatable {
        public var bounds: Rect
        public var delegate: String
        public init(bounds: Rect, delegate: String) {
            self.bounds = bounds
            self.delegate = delegate
        }
    }

    /// The overrides of the view's class, by what they return.
    public struct Handles: Sendable, Equatable {
        public var onTouchEvent: Answers?
        public var dispatchTouchEvent: Answers?
        public var onInterceptTouchEvent: Intercept?
        public var requestDisallowIntercept: DisallowIntercept?
        public init() {}
    }

    /// A listener method: `method` called on `target` (a node id).
    public struct Method: Sendable, Equatable {
        public var target: String
        public var method: String
        public init(target: String, method: String) {
            self.target = target
            self.method = method
        }
    }

    /// An OnLongClickListener: the method it calls and what onLongClick returns.
    public struct LongClick: Sendable, Equatable {
        public var target: String
        public var method: String
        public var returns: Bool
        public init(target: String, method: String, returns: Bool) {
            self.target = target
            self.method = method
            self.returns = returns
        }
    }

    /// The listeners set on the view.
    public struct Listeners: Sendable, Equatable {
        /// OnTouchListener#onTouch's answer.
        public var touch: Answers?
        /// OnClickListener.
        public var click: Method?
        /// android:onClick: a method of the activity, by name.
        public var clickXml: String?
        /// OnLongClickListener.
        public var longClick: LongClick?
        public init() {}
    }

    /// The View class the node is (Button, FrameLayout, …).
    public var className: String?
    public var visibility: Visibility?
    public var enabled: Bool?
    public var clickable: Bool?
    public var longClickable: Bool?
    public var focusable: Bool?
    public var focusableInTouchMode: Bool?
    public var shouldDelayChildPressedState: Bool?
    public var elevation: Double?
    public var translationZ: Double?
    public var touchDelegate: TouchDelegate?
    public var handles: Handles?
    public var listeners: Listeners?

    // Windows, the Activity, fragments and menus (AR1, AR5, AV4, AK7, AK10, AX3–AX5): each member is read on the
    // node kinds it applies to only (`WindowMembers.kinds`).
    /// A window's flags (AR1, AR5); `focusable` above is the window's own on a window node.
    public var touchModal: Bool?
    public var touchable: Bool?
    public var watchOutsideTouch: Bool?
    public var closeOnTouchOutside: Bool?
    /// AV4: a view that drops touches while its window is obscured.
    public var filterTouchesWhenObscured: Bool?
    /// AX4: the item ids the view's onCreateContextMenu adds.
    public var contextMenu: [String]?
    /// AX3, AX4: the item ids an Activity's or a fragment's onOptionsItemSelected / onContextItemSelected handles.
    public var onOptionsItemSelected: [String]?
    public var onContextItemSelected: [String]?
    /// AX5: the Activity has a primary action mode running.
    public var actionMode: Bool?
    /// AX3: a fragment's options-menu switches, and whether it is hidden.
    public var hasOptionsMenu: Bool?
    public var menuVisible: Bool?
    public var hidden: Bool?
    /// AK10: a fragment's OnBackPressedCallback, enabled or not.
    public var backCallback: BackCallback?

    public struct BackCallback: Sendable, Equatable {
        public var enabled: Bool
        public init(enabled: Bool) { self.enabled = enabled }
    }
    // Flags of dispatch beyond the View flags above: each nil until given, then false or true.
    /// View#setAllowClickWhenDisabled (API 31+): a disabled view presses and clicks as an enabled one (AC2).
    public var allowClickWhenDisabled: Bool?
    /// ViewGroup#setMotionEventSplittingEnabled: whether the group searches again for each new finger (AM1–AM3).
    public var splitMotionEvents: Bool?
    /// View#setNestedScrollingEnabled: the view starts a nested scroll at its DOWN (AS5, AV5).
    public var nestedScrollingEnabled: Bool?
    /// View#setTooltipText with a text: the view consumes its gesture and a long press shows the tooltip (AC14).
    public var tooltip: Bool?
    /// View#onStartTemporaryDetach: a target that becomes detached gets its next event as CANCEL (AL2).
    public var temporarilyDetached: Bool?

    public init() {}
}

// MARK: - Reading

extension AndroidFields {
    /// Reads an `android` object; every error is INVALID_NODE naming the member's path under `path` (the
    /// object's own, e.g. `tree.children[0].android`).
    public init(json: JSON, path: String, kind: NodeKind? = nil) throws(RPCError) {
        self.init()
        var r = try Self.reader(json, path)
        if let name = try r.string("class") {
            guard !name.isEmpty else { throw r.error("class", "expected a non-empty string") }
            className = name
        }
        if let text = try r.string("visibility") {
            guard let v = Visibility(rawValue: text) else {
                throw r.error("visibility", Self.expected(Visibility.self, text))
            }
            visibility = v
        }
        enabled = try r.bool("enabled")
        clickable = try r.bool("clickable")
        longClickable = try r.bool("longClickable")
        focusable = try r.bool("focusable")
        focusableInTouchMode = try r.bool("focusableInTouchMode")
        shouldDelayChildPressedState = try r.bool("shouldDelayChildPressedState")
        elevation = try r.number("elevation")
        translationZ = try r.number("translationZ")
        if let v = r.raw("touchDelegate"), !v.isNull {
            var d = try Self.reader(v, path + ".touchDelegate")
            guard let b = try d.array("bounds") else { throw d.error("bounds", "is required") }
            let n = b.compactMap(\.doubleValue)
            guard b.count == 4, n.count == 4, n.allSatisfy(\.isFinite), n[2] >= 0, n[3] >= 0 else {
                throw d.error("bounds", "expected [x, y, width, height] of finite numbers, the size not negative")
            }
            let delegate = try d.requiredString("delegate")
            guard !delegate.isEmpty else { throw d.error("delegate", "expected the id of a node") }
            try d.finish()
            touchDelegate = TouchDelegate(bounds: Rect(n[0], n[1], n[2], n[3]), delegate: delegate)
        }
        if let v = r.raw("handles"), !v.isNull {
            let p = path + ".handles"
            var h = try Self.reader(v, p)
            var handles = Handles()
            if let a = h.raw("onTouchEvent"), !a.isNull {
                handles.onTouchEvent = try Self.answers(a, p + ".onTouchEvent")
            }
            if let a = h.raw("dispatchTouchEvent"), !a.isNull {
                handles.dispatchTouchEvent = try Self.answers(a, p + ".dispatchTouchEvent")
            }
            if let i = h.raw("onInterceptTouchEvent"), !i.isNull {
                handles.onInterceptTouchEvent = try Self.intercept(i, p + ".onInterceptTouchEvent")
            }
            if let d = h.raw("requestDisallowIntercept"), !d.isNull {
                handles.requestDisallowIntercept = try Self.disallow(d, p + ".requestDisallowIntercept")
            }
            try h.finish()
            self.handles = handles
        }
        if let v = r.raw("listeners"), !v.isNull {
            let p = path + ".listeners"
            var l = try Self.reader(v, p)
            var listeners = Listeners()
            if let a = l.raw("touch"), !a.isNull { listeners.touch = try Self.answers(a, p + ".touch") }
            if let c = l.raw("click"), !c.isNull {
                var m = try Self.reader(c, p + ".click")
                listeners.click = Method(target: try Self.id(&m, "target"), method: try Self.name(&m, "method"))
                try m.finish()
            }
            if let name = try l.string("clickXml") {
                guard !name.isEmpty else { throw l.error("clickXml", "expected a method name") }
                listeners.clickXml = name
            }
            if let c = l.raw("longClick"), !c.isNull {
                var m = try Self.reader(c, p + ".longClick")
                let target = try Self.id(&m, "target")
                let method = try Self.name(&m, "method")
                guard let returns = try m.bool("returns") else { throw m.error("returns", "is required") }
                try m.finish()
                listeners.longClick = LongClick(target: target, method: method, returns: returns)
            }
            try l.finish()
            self.listeners = listeners
        }
        try readWindowMembers(&r, kind: kind)
        allowClickWhenDisabled = try r.bool("allowClickWhenDisabled")
        splitMotionEvents = try r.bool("splitMotionEvents")
        nestedScrollingEnabled = try r.bool("nestedScrollingEnabled")
        tooltip = try r.bool("tooltip")
        temporarilyDetached = try r.bool("temporarilyDetached")
        try r.finish()
    }

    private static func reader(_ value: JSON, _ path: String) throws(RPCError) -> ParamReader {
        try ParamReader(value, path: path + ".", errorName: .invalidNode)
    }

    private static func error(_ path: String, _ message: String) -> RPCError {
        RPCError(.invalidNode, "\(path): \(message)", [("field", .string(path))])
    }

    private static func expected<E: RawRepresentable & CaseIterable>(_: E.Type, _ got: String) -> String
    where E.RawValue == String {
        "expected one of \(E.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")), got \"\(got)\""
    }

    private static func id(_ r: inout ParamReader, _ key: String) throws(RPCError) -> String {
        let s = try r.requiredString(key)
        guard !s.isEmpty else { throw r.error(key, "expected the id of a node") }
        return s
    }

    private static func name(_ r: inout ParamReader, _ key: String) throws(RPCError) -> String {
        let s = try r.requiredString(key)
        guard !s.isEmpty else { throw r.error(key, "expected a method name") }
        return s
    }

    /// A: `"super"` | `"consume"` | `"pass"` | an object from action to one of those.
    private static func answers(_ value: JSON, _ path: String) throws(RPCError) -> Answers {
        if let text = value.stringValue {
            guard let a = Answer(rawValue: text) else { throw error(path, expected(Answer.self, text)) }
            return .always(a)
        }
        guard let members = value.objectMembers else {
            throw error(
                path, "expected \"super\", \"consume\", \"pass\" or an object of action: answer, got \(value.typeName)")
        }
        var out: [ActionAnswer] = []
        for (key, answer) in members {
            guard let action = Action(rawValue: key) else {
                let actions = Action.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
                throw error(path + "." + key, "unknown action (expected one of \(actions))")
            }
            guard !out.contains(where: { $0.action == action }) else {
                throw error(path + "." + key, "given twice")
            }
            guard let text = answer.stringValue else {
                throw error(path + "." + key, "expected \"super\", \"consume\" or \"pass\", got \(answer.typeName)")
            }
            guard let a = Answer(rawValue: text) else { throw error(path + "." + key, expected(Answer.self, text)) }
            out.append(ActionAnswer(action, a))
        }
        return .byAction(out)
    }

    /// `{"afterSlop": {"axis": …}}`'s axis, read from the object `value` at `path`.
    private static func afterSlop(_ value: JSON, _ path: String) throws(RPCError) -> Axis {
        var r = try reader(value, path)
        let text = try r.requiredString("axis")
        guard let axis = Axis(rawValue: text) else { throw r.error("axis", expected(Axis.self, text)) }
        try r.finish()
        return axis
    }

    /// I: `"never"` | `"always"` | `"down"` | `{"afterSlop": {"axis": …}}` | `{"atEvent": n}`.
    private static func intercept(_ value: JSON, _ path: String) throws(RPCError) -> Intercept {
        let shapes = "\"never\", \"always\", \"down\", {\"afterSlop\": {\"axis\": …}} or {\"atEvent\": n}"
        if let text = value.stringValue {
            switch text {
            case "never": return .never
            case "always": return .always
            case "down": return .down
            default: throw error(path, "expected \(shapes), got \"\(text)\"")
            }
        }
        guard let members = value.objectMembers, members.count == 1 else {
            throw error(path, "expected \(shapes)")
        }
        let (key, inner) = members[0]
        switch key {
        case "afterSlop": return .afterSlop(try afterSlop(inner, path + ".afterSlop"))
        case "atEvent":
            guard let n = inner.intValue, n >= 1 else {
                throw error(path + ".atEvent", "expected an integer ≥ 1 (the DOWN is event 1)")
            }
            return .atEvent(n)
        default: throw error(path + "." + key, "unknown policy (expected \(shapes))")
        }
    }

    /// R: `"down"` | `{"afterSlop": {"axis": …}}`.
    private static func disallow(_ value: JSON, _ path: String) throws(RPCError) -> DisallowIntercept {
        let shapes = "\"down\" or {\"afterSlop\": {\"axis\": …}}"
        if let text = value.stringValue {
            guard text == "down" else { throw error(path, "expected \(shapes), got \"\(text)\"") }
            return .down
        }
        guard let members = value.objectMembers, members.count == 1 else {
            throw error(path, "expected \(shapes)")
        }
        let (key, inner) = members[0]
        guard key == "afterSlop" else { throw error(path + "." + key, "unknown policy (expected \(shapes))") }
        return .afterSlop(try afterSlop(inner, path + ".afterSlop"))
    }
}

// MARK: - Writing

extension AndroidFields {
    /// Writes the members given, in the order of 8.7.
    public func write(to w: inout JSONWriter) {
        w.beginObject()
        if let className { w.key("class"); w.string(className) }
        if let visibility { w.key("visibility"); w.string(visibility.rawValue) }
        for (name, value) in [
            ("enabled", enabled), ("clickable", clickable), ("longClickable", longClickable), ("focusable", focusable),
            ("focusableInTouchMode", focusableInTouchMode),
            ("shouldDelayChildPressedState", shouldDelayChildPressedState)
        ] {
            if let value { w.key(name); w.bool(value) }
        }
        if let elevation { w.key("elevation"); w.number(elevation) }
        if let translationZ { w.key("translationZ"); w.number(translationZ) }
        if let d = touchDelegate {
            w.key("touchDelegate")
            w.beginObject()
            w.key("bounds")
            w.beginArray()
            for n in [d.bounds.x, d.bounds.y, d.bounds.width, d.bounds.height] { w.number(n) }
            w.endArray()
            w.key("delegate"); w.string(d.delegate)
            w.endObject()
        }
        if let h = handles {
            w.key("handles")
            w.beginObject()
            if let a = h.onTouchEvent { w.key("onTouchEvent"); Self.write(a, to: &w) }
            if let a = h.dispatchTouchEvent { w.key("dispatchTouchEvent"); Self.write(a, to: &w) }
            if let i = h.onInterceptTouchEvent {
                w.key("onInterceptTouchEvent")
                switch i {
                case .never: w.string("never")
                case .always: w.string("always")
                case .down: w.string("down")
                case .afterSlop(let axis): Self.writeAfterSlop(axis, to: &w)
                case .atEvent(let n):
                    w.beginObject()
                    w.key("atEvent"); w.number(Double(n))
                    w.endObject()
                }
            }
            if let d = h.requestDisallowIntercept {
                w.key("requestDisallowIntercept")
                switch d {
                case .down: w.string("down")
                case .afterSlop(let axis): Self.writeAfterSlop(axis, to: &w)
                }
            }
            w.endObject()
        }
        if let l = listeners {
            w.key("listeners")
            w.beginObject()
            if let a = l.touch { w.key("touch"); Self.write(a, to: &w) }
            if let c = l.click {
                w.key("click")
                w.beginObject()
                w.key("target"); w.string(c.target)
                w.key("method"); w.string(c.method)
                w.endObject()
            }
            if let name = l.clickXml { w.key("clickXml"); w.string(name) }
            if let c = l.longClick {
                w.key("longClick")
                w.beginObject()
                w.key("target"); w.string(c.target)
                w.key("method"); w.string(c.method)
                w.key("returns"); w.bool(c.returns)
                w.endObject()
            }
            w.endObject()
        }
        writeWindowMembers(to: &w)
        for (name, value) in [
            ("allowClickWhenDisabled", allowClickWhenDisabled), ("splitMotionEvents", splitMotionEvents),
            ("nestedScrollingEnabled", nestedScrollingEnabled), ("tooltip", tooltip),
            ("temporarilyDetached", temporarilyDetached)
        ] {
            if let value { w.key(name); w.bool(value) }
        }
        w.endObject()
    }

    private static func write(_ answers: Answers, to w: inout JSONWriter) {
        switch answers {
        case .always(let a): w.string(a.rawValue)
        case .byAction(let list):
            w.beginObject()
            for entry in list {
                w.key(entry.action.rawValue)
                w.string(entry.answer.rawValue)
            }
            w.endObject()
        }
    }

    private static func writeAfterSlop(_ axis: Axis, to w: inout JSONWriter) {
        w.beginObject()
        w.key("afterSlop")
        w.beginObject()
        w.key("axis"); w.string(axis.rawValue)
        w.endObject()
        w.endObject()
    }
}

// MARK: - Windows, the Activity, fragments and menus

extension AndroidFields {
    /// Which node kinds each member applies to: a window's flags on windows, menus' and back's members on view
    /// controllers (read as the Activity's on a window's root view controller, a fragment's on the others), a
    /// view's on views.
    enum WindowMembers {
        static let windows: Set<String> = ["touchModal", "touchable", "watchOutsideTouch", "closeOnTouchOutside"]
        static let views: Set<String> = ["filterTouchesWhenObscured", "contextMenu"]
        static let controllers: Set<String> = [
            "onOptionsItemSelected", "onContextItemSelected", "actionMode", "hasOptionsMenu", "menuVisible", "hidden",
            "backCallback"
        ]

        static func check(_ member: String, kind: NodeKind?, _ r: ParamReader) throws(RPCError) {
            guard let kind else { return }
            let (ok, what): (Bool, String) =
                windows.contains(member)
                ? (kind == .window, "windows")
                : views.contains(member)
                    ? (kind.isView, "views") : (kind == .viewController, "view controllers")
            guard ok else { throw r.error(member, "applies to \(what) only, not to a \(kind.rawValue)") }
        }
    }

    fileprivate mutating func readWindowMembers(_ r: inout ParamReader, kind: NodeKind?) throws(RPCError) {
        func flag(_ name: String, _ r: inout ParamReader) throws(RPCError) -> Bool? {
            guard let b = try r.bool(name) else { return nil }
            try WindowMembers.check(name, kind: kind, r)
            return b
        }
        func items(_ name: String, _ r: inout ParamReader) throws(RPCError) -> [String]? {
            guard let a = try r.array(name) else { return nil }
            try WindowMembers.check(name, kind: kind, r)
            var out: [String] = []
            for (i, item) in a.enumerated() {
                guard let s = item.stringValue, !s.isEmpty else {
                    throw r.error("\(name)[\(i)]", "expected a menu item id (a non-empty string), got \(item.typeName)")
                }
                out.append(s)
            }
            return out
        }
        touchModal = try flag("touchModal", &r)
        touchable = try flag("touchable", &r)
        watchOutsideTouch = try flag("watchOutsideTouch", &r)
        closeOnTouchOutside = try flag("closeOnTouchOutside", &r)
        filterTouchesWhenObscured = try flag("filterTouchesWhenObscured", &r)
        contextMenu = try items("contextMenu", &r)
        onOptionsItemSelected = try items("onOptionsItemSelected", &r)
        onContextItemSelected = try items("onContextItemSelected", &r)
        actionMode = try flag("actionMode", &r)
        hasOptionsMenu = try flag("hasOptionsMenu", &r)
        menuVisible = try flag("menuVisible", &r)
        hidden = try flag("hidden", &r)
        if let v = r.raw("backCallback"), !v.isNull {
            try WindowMembers.check("backCallback", kind: kind, r)
            var b = try ParamReader(v, path: r.path + "backCallback.", errorName: .invalidNode)
            guard let enabled = try b.bool("enabled") else { throw b.error("enabled", "is required") }
            try b.finish()
            backCallback = BackCallback(enabled: enabled)
        }
    }

    fileprivate func writeWindowMembers(to w: inout JSONWriter) {
        for (name, value) in [
            ("touchModal", touchModal), ("touchable", touchable), ("watchOutsideTouch", watchOutsideTouch),
            ("closeOnTouchOutside", closeOnTouchOutside), ("filterTouchesWhenObscured", filterTouchesWhenObscured)
        ] {
            if let value { w.key(name); w.bool(value) }
        }
        for (name, value) in [
            ("contextMenu", contextMenu), ("onOptionsItemSelected", onOptionsItemSelected),
            ("onContextItemSelected", onContextItemSelected)
        ] {
            if let value {
                w.key(name)
                w.beginArray()
                for item in value { w.string(item) }
                w.endArray()
            }
        }
        for (name, value) in [
            ("actionMode", actionMode), ("hasOptionsMenu", hasOptionsMenu),
            ("menuVisible", menuVisible), ("hidden", hidden)
        ] {
            if let value { w.key(name); w.bool(value) }
        }
        if let backCallback {
            w.key("backCallback")
            w.beginObject()
            w.key("enabled"); w.bool(backCallback.enabled)
            w.endObject()
        }
    }
}
