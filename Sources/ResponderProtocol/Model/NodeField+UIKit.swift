import ResponderJSON

/// The 1.6 fields (8.6): `baseClass` and the class-specific fields, each written when the node sets it or when
/// the node names a UIKit class that uses it (with its effective value).
extension NodeField {
    static let uikitFields: [NodeField] = [
        field(
            "baseClass", \.baseClass, \.baseClass, on: anyKind,
            read: { (v, bad) throws(RPCError) in
                guard let s = v.stringValue, UIKitClass(rawValue: s) != nil else {
                    throw bad(
                        "expected the name of a UIKit class the engine knows (\(UIKitClass.allCases.map(\.rawValue).joined(separator: ", ")))"
                    )
                }
                return s
            }, write: optional { s, w in w.string(s) }, written: { $0.baseClass != nil }),
        classBool("on", \.uikit.on, \.uikit.on, \.isOn, on: controls),
        classNumber("value", \.uikit.value, \.uikit.value, \.value),
        classNumber("minimumValue", \.uikit.minimumValue, \.uikit.minimumValue, \.minimumValue),
        classNumber("maximumValue", \.uikit.maximumValue, \.uikit.maximumValue, \.maximumValue),
        classNumber("stepValue", \.uikit.stepValue, \.uikit.stepValue, \.stepValue, positive: true),
        classBool("continuous", \.uikit.continuous, \.uikit.continuous, \.isContinuous, on: controls),
        classBool("autorepeat", \.uikit.autorepeat, \.uikit.autorepeat, \.autorepeats, on: controls),
        classBool("wraps", \.uikit.wraps, \.uikit.wraps, \.wraps, on: controls),
        classInt(
            "selectedSegmentIndex", \.uikit.selectedSegmentIndex, \.uikit.selectedSegmentIndex, \.selectedSegmentIndex,
            minimum: -1),
        classInt(
            "numberOfSegments", \.uikit.numberOfSegments, \.uikit.numberOfSegments, \.numberOfSegments, minimum: 0),
        classField(
            "text", \.uikit.text, \.uikit.text, \.text, on: textInputs,
            read: { (v, bad) throws(RPCError) in
                guard let s = v.stringValue else { throw bad("expected a string, got \(v.typeName)") }
                return s
            }, write: { v, w in w.string(v) }),
        classField(
            "selectedRange", \.uikit.selectedRange, \.uikit.selectedRange, \.selectedRange, on: textInputs,
            read: { (v, bad) throws(RPCError) in
                guard let a = v.arrayValue, a.count == 2, let location = a[0].intValue, let length = a[1].intValue,
                    location >= 0, length >= 0
                else {
                    throw bad("expected [location, length] of integers ≥ 0")
                }
                return [location, length]
            }, write: { v, w in w.numbers(v.map(Double.init)) }),
        classBool("editable", \.uikit.editable, \.uikit.editable, \.isEditable, on: textInputs),
        classBool(
            "secureTextEntry", \.uikit.secureTextEntry, \.uikit.secureTextEntry, \.isSecureTextEntry,
            on: { $0 == .textField }),
        classField(
            "contentSize", \.uikit.contentSize, \.uikit.contentSize, \.contentSize, on: views,
            read: { (v, bad) throws(RPCError) in
                let s = try numbers(v, 2, "[width, height]", bad)
                guard s[0] >= 0, s[1] >= 0 else { throw bad("width and height must not be negative") }
                return s
            }, write: { v, w in w.numbers(v) }),
        classBool(
            "delaysContentTouches", \.uikit.delaysContentTouches, \.uikit.delaysContentTouches, \.delaysContentTouches,
            on: views),
        classBool(
            "canCancelContentTouches", \.uikit.canCancelContentTouches, \.uikit.canCancelContentTouches,
            \.canCancelContentTouches, on: views),
        classBool("scrollEnabled", \.uikit.scrollEnabled, \.uikit.scrollEnabled, \.scrollEnabled, on: views),
        field(
            "modalPresentationStyle", \.uikit.modalPresentationStyle, \.uikit.modalPresentationStyle,
            on: { $0 == .viewController },
            read: { (v, bad) throws(RPCError) in
                guard let s = v.stringValue, let style = ModalPresentationStyle(rawValue: s) else {
                    throw bad(
                        "expected one of \(ModalPresentationStyle.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                return style
            }, write: optional { s, w in w.string(s.rawValue) }, written: { $0.uikit.modalPresentationStyle != nil }),
        field(
            "animating", \.uikit.animatingAllowsInteraction, \.uikit.animatingAllowsInteraction, on: views,
            read: { (v, bad) throws(RPCError) in
                var r = try ParamReader(v, path: bad.field + ".", errorName: .invalidNode)
                let allow = try r.bool("allowUserInteraction") ?? false
                try r.finish()
                return allow
            },
            write: optional { allow, w in
                w.beginObject()
                w.key("allowUserInteraction"); w.bool(allow)
                w.endObject()
            }, written: { $0.uikit.animatingAllowsInteraction != nil }),
        field(
            "pasteboard", \.uikit.pasteboard, \.uikit.pasteboard, on: { $0 == .application },
            read: { (v, bad) throws(RPCError) in
                guard let s = v.stringValue else { throw bad("expected a string or null, got \(v.typeName)") }
                return s
            }, write: optional { s, w in w.string(s) }, written: { $0.uikit.pasteboard != nil })
    ]

    static let textInputs: @Sendable (NodeKind) -> Bool = { $0 == .textField || $0 == .textView }

    private static func optional<V>(_ write: @escaping @Sendable (V, inout JSONWriter) -> Void)
        -> @Sendable (V?, inout JSONWriter) -> Void
    {
        { v, w in if let v { write(v, &w) } else { w.null() } }
    }

    /// A class-specific field: stored as set (nil: the default), written with its effective value (`effective`)
    /// when set or when the node names a class that uses it. `stored` is `keyPath` as a function (see `field`).
    static func classField<V: Sendable>(
        _ name: String, _ keyPath: WritableKeyPath<NodeSpec, V?> & Sendable,
        _ stored: @escaping @Sendable (NodeSpec) -> V?,
        _ effective: @escaping @Sendable (NodeSpec) -> V, on kinds: @escaping @Sendable (NodeKind) -> Bool,
        read: @escaping @Sendable (JSON, FieldError) throws(RPCError) -> V,
        write: @escaping @Sendable (V, inout JSONWriter) -> Void
    ) -> NodeField {
        NodeField(
            name: name, kinds: kinds,
            readValue: { (value, node, error) throws(RPCError) in node[keyPath: keyPath] = try read(value, error) },
            writeValue: { node, w in write(effective(node), &w) },
            copyValue: { source, node in node[keyPath: keyPath] = stored(source) },
            written: { node in
                stored(node) != nil || (node.uikitClass?.fields.contains(name) == true && node.writesClassFields)
            })
    }

    static func classBool(
        _ name: String, _ keyPath: WritableKeyPath<NodeSpec, Bool?> & Sendable,
        _ stored: @escaping @Sendable (NodeSpec) -> Bool?,
        _ effective: @escaping @Sendable (NodeSpec) -> Bool,
        on kinds: @escaping @Sendable (NodeKind) -> Bool
    ) -> NodeField {
        classField(
            name, keyPath, stored, effective, on: kinds,
            read: { (v, bad) throws(RPCError) in
                guard let b = v.boolValue else { throw bad("expected a boolean, got \(v.typeName)") }
                return b
            }, write: { v, w in w.bool(v) })
    }

    private static func classNumber(
        _ name: String, _ keyPath: WritableKeyPath<NodeSpec, Double?> & Sendable,
        _ stored: @escaping @Sendable (NodeSpec) -> Double?,
        _ effective: @escaping @Sendable (NodeSpec) -> Double,
        positive: Bool = false
    ) -> NodeField {
        classField(
            name, keyPath, stored, effective, on: controls,
            read: { (v, bad) throws(RPCError) in
                guard let n = v.doubleValue, n.isFinite else {
                    throw bad("expected a finite number, got \(v.typeName)")
                }
                if positive && n <= 0 { throw bad("must be greater than 0") }
                return n
            }, write: { v, w in w.number(v) })
    }

    private static func classInt(
        _ name: String, _ keyPath: WritableKeyPath<NodeSpec, Int?> & Sendable,
        _ stored: @escaping @Sendable (NodeSpec) -> Int?,
        _ effective: @escaping @Sendable (NodeSpec) -> Int,
        minimum: Int
    ) -> NodeField {
        classField(
            name, keyPath, stored, effective, on: controls,
            read: { (v, bad) throws(RPCError) in
                guard let n = v.intValue, n >= minimum else { throw bad("expected an integer ≥ \(minimum)") }
                return n
            }, write: { v, w in w.number(Double(v)) })
    }
}
