import ResponderJSON

/// K8: the answer of a UIScrollView subclass's touchesShouldCancel(in:) override.
public enum TouchesShouldCancel: String, WireEnum {
    /// UIKit's own answer: true unless the view is a UIControl.
    case `default`
    /// True for every view, controls included: a drag that starts on a button scrolls.
    case always
    /// False for every view: content keeps its touch.
    case never
}

/// G12: what a UIScrollView subclass answers as the delegate of its own pan (UIKit allows no other delegate).
public struct PanDelegate: Sendable, Equatable {
    /// gestureRecognizerShouldBegin(_:) for the pan.
    public var shouldBegin = true
    /// gestureRecognizer(_:shouldReceive:) for the pan.
    public var shouldReceiveTouch = true
    /// The recognizers gestureRecognizer(_:shouldRecognizeSimultaneouslyWith:) answers true for.
    public var simultaneousWith: [String] = []

    public init() {}
}

/// G12, K8, K19, K21: what a scroll view (or table, collection or text view) declares about its pan and its
/// scrolling, each nil until set (then UIKit's default applies). Written only when set.
public struct ScrollFields: Sendable, Equatable {
    public var touchesShouldCancel: TouchesShouldCancel?
    /// G12: require(toFail:) called on the scroll view's pan.
    public var panRequireToFail: [String]?
    public var panDelegate: PanDelegate?
    public var bounces: Bool?
    public var alwaysBounceHorizontal: Bool?
    public var alwaysBounceVertical: Bool?
    public var pagingEnabled: Bool?

    public init() {}

    static let names = [
        "touchesShouldCancel", "panRequireToFail", "panDelegate", "bounces", "alwaysBounceHorizontal",
        "alwaysBounceVertical", "pagingEnabled"
    ]

    var setsField: Bool {
        touchesShouldCancel != nil || panRequireToFail != nil || panDelegate != nil || bounces != nil
            || alwaysBounceHorizontal != nil || alwaysBounceVertical != nil || pagingEnabled != nil
    }

    func isSet(_ name: String) -> Bool {
        switch name {
        case "touchesShouldCancel": return touchesShouldCancel != nil
        case "panRequireToFail": return panRequireToFail != nil
        case "panDelegate": return panDelegate != nil
        case "bounces": return bounces != nil
        case "alwaysBounceHorizontal": return alwaysBounceHorizontal != nil
        case "alwaysBounceVertical": return alwaysBounceVertical != nil
        case "pagingEnabled": return pagingEnabled != nil
        default: return false
        }
    }
}

/// The effective values (UIKit's defaults where the node sets nothing).
extension NodeSpec {
    public var touchesShouldCancel: TouchesShouldCancel { uikit.scroll.touchesShouldCancel ?? .default }
    public var panRequireToFail: [String] { uikit.scroll.panRequireToFail ?? [] }
    public var panDelegate: PanDelegate { uikit.scroll.panDelegate ?? PanDelegate() }
    public var bounces: Bool { uikit.scroll.bounces ?? true }
    public var alwaysBounceHorizontal: Bool { uikit.scroll.alwaysBounceHorizontal ?? false }
    public var alwaysBounceVertical: Bool { uikit.scroll.alwaysBounceVertical ?? false }
    public var pagingEnabled: Bool { uikit.scroll.pagingEnabled ?? false }

    /// K19: whether the scroll view can scroll horizontally / vertically: content wider (taller) than its
    /// bounds, or alwaysBounceHorizontal (Vertical) with bounces.
    public var scrollsHorizontally: Bool {
        contentSize[0] > frame.width || (bounces && alwaysBounceHorizontal)
    }
    public var scrollsVertically: Bool {
        contentSize[1] > frame.height || (bounces && alwaysBounceVertical)
    }
}

extension NodeField {
    /// G12, K8, K19, K21: the scroll view declarations, each written only when set.
    static let scrollFields: [NodeField] = [
        declared(
            "touchesShouldCancel", \.touchesShouldCancel,
            read: { (v, bad) throws(RPCError) in
                guard let s = v.stringValue, let answer = TouchesShouldCancel(rawValue: s) else {
                    throw bad("expected one of \(TouchesShouldCancel.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                return answer
            }, write: { w, v in w.string(v.rawValue) }),
        declared(
            "panRequireToFail", \.panRequireToFail,
            read: { (v, bad) throws(RPCError) in try ids(v, bad) }, write: { w, ids in writeIDs(ids, &w) }),
        declared(
            "panDelegate", \.panDelegate,
            read: { (v, bad) throws(RPCError) in
                var r = try ParamReader(v, path: bad.field + ".", errorName: .invalidNode)
                var d = PanDelegate()
                if let b = try r.bool("shouldBegin") { d.shouldBegin = b }
                if let b = try r.bool("shouldReceiveTouch") { d.shouldReceiveTouch = b }
                if let list = r.raw("simultaneousWith") {
                    d.simultaneousWith = try ids(list, bad, suffix: ".simultaneousWith")
                }
                try r.finish()
                return d
            },
            write: { w, d in
                w.beginObject()
                w.key("shouldBegin"); w.bool(d.shouldBegin)
                w.key("shouldReceiveTouch"); w.bool(d.shouldReceiveTouch)
                w.key("simultaneousWith"); writeIDs(d.simultaneousWith, &w)
                w.endObject()
            }),
        declaredBool("bounces", \.bounces),
        declaredBool("alwaysBounceHorizontal", \.alwaysBounceHorizontal),
        declaredBool("alwaysBounceVertical", \.alwaysBounceVertical),
        declaredBool("pagingEnabled", \.pagingEnabled)
    ]

    private static func ids(_ v: JSON, _ bad: FieldError, suffix: String = "") throws(RPCError) -> [String] {
        guard let a = v.arrayValue else {
            throw bad("expected an array of recognizer ids, got \(v.typeName)", suffix: suffix)
        }
        return try a.map { (e: JSON) throws(RPCError) -> String in
            guard let s = e.stringValue, !s.isEmpty else {
                throw bad("expected non-empty recognizer ids", suffix: suffix)
            }
            return s
        }
    }

    private static func writeIDs(_ ids: [String], _ w: inout JSONWriter) {
        w.beginArray()
        for id in ids { w.string(id) }
        w.endArray()
    }

    private static func declaredBool(_ name: String, _ keyPath: WritableKeyPath<ScrollFields, Bool?> & Sendable)
        -> NodeField
    {
        declared(
            name, keyPath,
            read: { (v, bad) throws(RPCError) in
                guard let b = v.boolValue else { throw bad("expected a boolean, got \(v.typeName)") }
                return b
            }, write: { w, b in w.bool(b) })
    }

    /// A scroll view's declaration: stored in `ScrollFields` (nil: the default), written as set. Which nodes may
    /// set it is the class check's (UIKitClass.fields: scroll views only).
    private static func declared<V: Sendable>(
        _ name: String, _ keyPath: WritableKeyPath<ScrollFields, V?> & Sendable,
        read: @escaping @Sendable (JSON, FieldError) throws(RPCError) -> V,
        write: @escaping @Sendable (inout JSONWriter, V) -> Void
    ) -> NodeField {
        NodeField(
            name: name, kinds: views,
            readValue: { (value, node, error) throws(RPCError) in
                node.uikit.scroll[keyPath: keyPath] = try read(value, error)
            },
            writeValue: { node, w in
                if let v = node.uikit.scroll[keyPath: keyPath] { write(&w, v) } else { w.null() }
            },
            copyValue: { source, node in node.uikit.scroll[keyPath: keyPath] = source.uikit.scroll[keyPath: keyPath] },
            written: { $0.uikit.scroll[keyPath: keyPath] != nil })
    }
}
