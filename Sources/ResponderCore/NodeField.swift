import ResponderProtocol

/// Every settable field of a node: its wire name, which kinds have it, how it is read from JSON (with an
/// error naming the field) and how it is written back. One table serves insert, update and serialization.
public enum NodeField: String, Sendable, CaseIterable {
    case className = "class"
    case frame, boundsOrigin, transform, hidden, alpha, clipsToBounds, userInteractionEnabled
    case multipleTouchEnabled, exclusiveTouch, enabled, windowLevel, key
    case canBecomeFirstResponder, canResignFirstResponder, hitTest, handles, vetoes, targets
    case gestureRecognizers, presentedBy, receivesRemoteControlEvents

    public var name: String { rawValue }

    public func applies(to kind: NodeKind) -> Bool {
        switch self {
        case .className, .canBecomeFirstResponder, .canResignFirstResponder, .handles, .vetoes: return true
        case .frame, .boundsOrigin, .transform, .hidden, .alpha, .clipsToBounds, .userInteractionEnabled,
            .multipleTouchEnabled, .exclusiveTouch, .hitTest, .gestureRecognizers:
            return kind.isView
        case .enabled, .targets: return kind.isControl
        case .windowLevel, .key: return kind == .window
        case .presentedBy: return kind == .viewController
        case .receivesRemoteControlEvents: return kind == .application
        }
    }

    /// Sets this field on `node` from `value`; `null` restores the default. `path` prefixes field names in errors.
    func read(_ value: JSON, into node: inout Node, path: String) throws(RPCError) {
        let field = path + name
        func bad(_ message: String) -> RPCError {
            RPCError(.invalidNode, "\(field): \(message)", [("field", .string(field)), ("id", .string(node.id))])
        }
        func bool() throws(RPCError) -> Bool {
            guard let b = value.boolValue else { throw bad("expected a boolean, got \(value.typeName)") }
            return b
        }
        func numbers(_ count: Int, _ shape: String) throws(RPCError) -> [Double] {
            guard let a = value.arrayValue, a.count == count else { throw bad("expected \(shape)") }
            var out: [Double] = []
            for element in a {
                guard let n = element.doubleValue else { throw bad("expected \(shape) of numbers, got \(element.typeName)") }
                guard n.isFinite else { throw bad("numbers must be finite") }
                out.append(n)
            }
            return out
        }
        let fresh = Node(id: node.id, kind: node.kind)
        if value.isNull {
            copyDefault(from: fresh, into: &node)
            return
        }
        switch self {
        case .className:
            guard let s = value.stringValue, !s.isEmpty else { throw bad("expected a non-empty string") }
            node.className = s
        case .frame:
            let f = try numbers(4, "[x, y, width, height]")
            guard f[2] >= 0, f[3] >= 0 else { throw bad("width and height must not be negative") }
            node.frame = Rect(f[0], f[1], f[2], f[3])
        case .boundsOrigin:
            let p = try numbers(2, "[x, y]")
            node.boundsOrigin = Point(p[0], p[1])
        case .transform:
            let t = try numbers(6, "[a, b, c, d, tx, ty]")
            node.transform = AffineTransform(t[0], t[1], t[2], t[3], t[4], t[5])
        case .hidden: node.hidden = try bool()
        case .alpha:
            guard let a = value.doubleValue else { throw bad("expected a number, got \(value.typeName)") }
            guard a.isFinite, a >= 0, a <= 1 else { throw bad("alpha must be within 0…1") }
            node.alpha = a
        case .clipsToBounds: node.clipsToBounds = try bool()
        case .userInteractionEnabled: node.userInteractionEnabled = try bool()
        case .multipleTouchEnabled: node.multipleTouchEnabled = try bool()
        case .exclusiveTouch: node.exclusiveTouch = try bool()
        case .enabled: node.enabled = try bool()
        case .windowLevel:
            guard let l = value.doubleValue, l.isFinite else { throw bad("expected a finite number") }
            node.windowLevel = l
        case .key: node.key = try bool()
        case .canBecomeFirstResponder: node.canBecomeFirstResponder = try bool()
        case .canResignFirstResponder: node.canResignFirstResponder = try bool()
        case .hitTest: node.hitTest = try Self.readHitTest(value, field: field, id: node.id)
        case .handles:
            guard let members = value.objectMembers else { throw bad("expected an object of message: \"handle\" | \"handle+super\"") }
            var handles: [String: HandleMode] = [:]
            for (message, mode) in members {
                guard !message.isEmpty else { throw bad("message names must not be empty") }
                guard let m = mode.stringValue.flatMap(HandleMode.init(rawValue:)) else {
                    throw RPCError(.invalidNode, "\(field).\(message): expected \"handle\" or \"handle+super\"", [("field", .string("\(field).\(message)")), ("id", .string(node.id))])
                }
                handles[message] = m
            }
            node.handles = handles
        case .vetoes:
            guard let a = value.arrayValue else { throw bad("expected an array of action names") }
            var out: [String] = []
            for v in a {
                guard let s = v.stringValue, !s.isEmpty else { throw bad("expected action names (strings)") }
                out.append(s)
            }
            node.vetoes = out
        case .targets:
            guard let a = value.arrayValue else { throw bad("expected an array of {event, action, target}") }
            var out: [TargetAction] = []
            for (i, entry) in a.enumerated() {
                var r = try ParamReader(entry, path: "\(field)[\(i)].", errorName: .invalidNode)
                let eventName = try r.requiredString("event")
                guard let event = ControlEvent(rawValue: eventName) else {
                    throw r.error("event", "unknown control event \"\(eventName)\"")
                }
                let action = try r.requiredString("action")
                guard !action.isEmpty else { throw r.error("action", "must not be empty") }
                let target = try r.string("target")
                try r.finish()
                out.append(TargetAction(event: event, action: action, target: target))
            }
            node.targets = out
        case .gestureRecognizers:
            guard let a = value.arrayValue, a.allSatisfy({ $0.objectMembers != nil }) else {
                throw bad("expected an array of objects")
            }
            node.gestureRecognizers = a
        case .presentedBy:
            guard let s = value.stringValue, !s.isEmpty else { throw bad("expected the id of the presenting view controller") }
            node.presentedBy = s
        case .receivesRemoteControlEvents: node.receivesRemoteControlEvents = try bool()
        }
    }

    private static func readHitTest(_ value: JSON, field: String, id: String) throws(RPCError) -> HitTestOverride {
        var r = try ParamReader(value, path: field + ".", errorName: .invalidNode)
        var result = HitTestOverride()
        if let insets = try r.array("insets") {
            let n = insets.compactMap(\.doubleValue)
            guard insets.count == 4, n.count == 4, n.allSatisfy(\.isFinite) else {
                throw r.error("insets", "expected [top, left, bottom, right] of finite numbers")
            }
            result.insets = EdgeInsets(top: n[0], left: n[1], bottom: n[2], right: n[3])
        }
        if let mode = try r.string("mode") {
            guard let m = HitTestOverride.Mode(rawValue: mode) else {
                throw r.error("mode", "expected default, passThroughSelf or never")
            }
            result.mode = m
        }
        if let redirect = r.raw("redirect"), !redirect.isNull {
            var rr = try ParamReader(redirect, path: field + ".redirect.", errorName: .invalidNode)
            let to = try rr.requiredString("to")
            let whenText = try rr.string("when") ?? "self"
            guard let when = HitTestOverride.RedirectWhen(rawValue: whenText) else {
                throw rr.error("when", "expected self or nil")
            }
            try rr.finish()
            result.redirect = .init(to: to, when: when)
        }
        try r.finish()
        return result
    }

    private func copyDefault(from fresh: Node, into node: inout Node) {
        switch self {
        case .className: node.className = fresh.className
        case .frame: node.frame = fresh.frame
        case .boundsOrigin: node.boundsOrigin = fresh.boundsOrigin
        case .transform: node.transform = fresh.transform
        case .hidden: node.hidden = fresh.hidden
        case .alpha: node.alpha = fresh.alpha
        case .clipsToBounds: node.clipsToBounds = fresh.clipsToBounds
        case .userInteractionEnabled: node.userInteractionEnabled = fresh.userInteractionEnabled
        case .multipleTouchEnabled: node.multipleTouchEnabled = fresh.multipleTouchEnabled
        case .exclusiveTouch: node.exclusiveTouch = fresh.exclusiveTouch
        case .enabled: node.enabled = fresh.enabled
        case .windowLevel: node.windowLevel = fresh.windowLevel
        case .key: node.key = fresh.key
        case .canBecomeFirstResponder: node.canBecomeFirstResponder = fresh.canBecomeFirstResponder
        case .canResignFirstResponder: node.canResignFirstResponder = fresh.canResignFirstResponder
        case .hitTest: node.hitTest = fresh.hitTest
        case .handles: node.handles = fresh.handles
        case .vetoes: node.vetoes = fresh.vetoes
        case .targets: node.targets = fresh.targets
        case .gestureRecognizers: node.gestureRecognizers = fresh.gestureRecognizers
        case .presentedBy: node.presentedBy = fresh.presentedBy
        case .receivesRemoteControlEvents: node.receivesRemoteControlEvents = fresh.receivesRemoteControlEvents
        }
    }

    /// Writes this field's current value.
    func write(_ node: Node, to w: inout JSONWriter) {
        func nums(_ values: [Double]) {
            w.beginArray()
            for v in values { w.number(v) }
            w.endArray()
        }
        switch self {
        case .className: w.string(node.className)
        case .frame: nums([node.frame.x, node.frame.y, node.frame.width, node.frame.height])
        case .boundsOrigin: nums([node.boundsOrigin.x, node.boundsOrigin.y])
        case .transform:
            if let t = node.transform { nums([t.a, t.b, t.c, t.d, t.tx, t.ty]) } else { w.null() }
        case .hidden: w.bool(node.hidden)
        case .alpha: w.number(node.alpha)
        case .clipsToBounds: w.bool(node.clipsToBounds)
        case .userInteractionEnabled: w.bool(node.userInteractionEnabled)
        case .multipleTouchEnabled: w.bool(node.multipleTouchEnabled)
        case .exclusiveTouch: w.bool(node.exclusiveTouch)
        case .enabled: w.bool(node.enabled)
        case .windowLevel: w.number(node.windowLevel)
        case .key: w.bool(node.key)
        case .canBecomeFirstResponder: w.bool(node.canBecomeFirstResponder)
        case .canResignFirstResponder: w.bool(node.canResignFirstResponder)
        case .hitTest:
            let h = node.hitTest
            w.beginObject()
            w.key("insets")
            nums([h.insets.top, h.insets.left, h.insets.bottom, h.insets.right])
            w.key("mode")
            w.string(h.mode.rawValue)
            w.key("redirect")
            if let r = h.redirect {
                w.beginObject()
                w.key("to")
                w.string(r.to)
                w.key("when")
                w.string(r.when.rawValue)
                w.endObject()
            } else {
                w.null()
            }
            w.endObject()
        case .handles:
            w.beginObject()
            for message in node.handles.keys.sorted() {
                w.key(message)
                w.string(node.handles[message]!.rawValue)
            }
            w.endObject()
        case .vetoes:
            w.beginArray()
            for v in node.vetoes { w.string(v) }
            w.endArray()
        case .targets:
            w.beginArray()
            for t in node.targets {
                w.beginObject()
                w.key("event")
                w.string(t.event.rawValue)
                w.key("action")
                w.string(t.action)
                w.key("target")
                if let target = t.target { w.string(target) } else { w.null() }
                w.endObject()
            }
            w.endArray()
        case .gestureRecognizers: w.value(.array(node.gestureRecognizers))
        case .presentedBy: if let p = node.presentedBy { w.string(p) } else { w.null() }
        case .receivesRemoteControlEvents: w.bool(node.receivesRemoteControlEvents)
        }
    }

    /// Fields that name other nodes or structure and cannot be changed through `update … set`.
    static let structural: Set<String> = ["id", "kind", "children", "revision"]
}
