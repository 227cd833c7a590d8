import ResponderJSON

/// K17: a sheet's detents, smallest first (UISheetPresentationController.Detent).
public enum SheetDetent: String, WireEnum, Comparable {
    case medium, large

    public static func < (a: SheetDetent, b: SheetDetent) -> Bool { a == .medium && b == .large }
}

/// K18: the width class of a window's environment; a popover in a compact one is shown as a form sheet.
public enum SizeClass: String, WireEnum { case compact, regular }

/// K17, K18: what a presented controller declares about its sheet or popover, each nil until set (then the
/// default applies). Kept apart from the class fields: only a presented controller has them.
public struct PresentationFields: Sendable, Equatable {
    /// K17: the detent the sheet rests at (default large).
    public var sheetDetent: SheetDetent?
    /// K17: largestUndimmedDetentIdentifier (default nil: every detent is dimmed).
    public var largestUndimmedDetent: SheetDetent?
    /// K17, K18: isModalInPresentation (default false).
    public var modalInPresentation: Bool?
    /// K17, K18: the delegate's presentationControllerShouldDismiss answer (default true).
    public var shouldDismiss: Bool?
    /// K18: the popover presentation controller's passthroughViews (default none).
    public var passthroughViews: [String]?

    public init() {}
}

extension NodeSpec {
    public var sheetDetent: SheetDetent { uikit.presentation?.sheetDetent ?? .large }
    public var largestUndimmedDetent: SheetDetent? { uikit.presentation?.largestUndimmedDetent }
    public var isModalInPresentation: Bool { uikit.presentation?.modalInPresentation ?? false }
    public var shouldDismiss: Bool { uikit.presentation?.shouldDismiss ?? true }
    public var passthroughViews: [String] { uikit.presentation?.passthroughViews ?? [] }
    /// K18: a window's horizontal size class (default compact, as on an iPhone in portrait).
    public var horizontalSizeClass: SizeClass { uikit.horizontalSizeClass ?? .compact }
}

/// The node fields of K17 and K18, each written only when the node sets it.
extension NodeField {
    static let presentationFields: [NodeField] = [
        declared(
            "sheetDetent", \.sheetDetent,
            read: { (v, bad) throws(RPCError) in try choice(v, SheetDetent.self, bad) },
            write: { w, d in w.string(d.rawValue) }),
        declared(
            "largestUndimmedDetent", \.largestUndimmedDetent,
            read: { (v, bad) throws(RPCError) in try choice(v, SheetDetent.self, bad) },
            write: { w, d in w.string(d.rawValue) }),
        declared(
            "modalInPresentation", \.modalInPresentation,
            read: { (v, bad) throws(RPCError) in try bool(v, bad) }, write: { w, b in w.bool(b) }),
        declared(
            "shouldDismiss", \.shouldDismiss,
            read: { (v, bad) throws(RPCError) in try bool(v, bad) }, write: { w, b in w.bool(b) }),
        declared(
            "passthroughViews", \.passthroughViews,
            read: { (v, bad) throws(RPCError) in
                guard let a = v.arrayValue else { throw bad("expected an array of view ids, got \(v.typeName)") }
                return try a.map { (e: JSON) throws(RPCError) -> String in
                    guard let s = e.stringValue, !s.isEmpty else { throw bad("expected non-empty view ids") }
                    return s
                }
            },
            write: { w, ids in
                w.beginArray()
                for id in ids { w.string(id) }
                w.endArray()
            }),
        field(
            "horizontalSizeClass", \.uikit.horizontalSizeClass, \.uikit.horizontalSizeClass, on: { $0 == .window },
            read: { (v, bad) throws(RPCError) in try choice(v, SizeClass.self, bad) },
            write: { s, w in if let s { w.string(s.rawValue) } else { w.null() } },
            written: { $0.uikit.horizontalSizeClass != nil })
    ]

    private static func choice<E: WireEnum>(_ v: JSON, _: E.Type, _ bad: FieldError) throws(RPCError) -> E
    where E.RawValue == String {
        guard let s = v.stringValue, let e = E(rawValue: s) else {
            throw bad("expected one of \(E.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return e
    }

    private static func bool(_ v: JSON, _ bad: FieldError) throws(RPCError) -> Bool {
        guard let b = v.boolValue else { throw bad("expected a boolean, got \(v.typeName)") }
        return b
    }

    /// A presented controller's declaration: stored in `PresentationFields` (nil: the default), written as set.
    private static func declared<V: Sendable>(
        _ name: String, _ keyPath: WritableKeyPath<PresentationFields, V?> & Sendable,
        read: @escaping @Sendable (JSON, FieldError) throws(RPCError) -> V,
        write: @escaping @Sendable (inout JSONWriter, V) -> Void
    ) -> NodeField {
        NodeField(
            name: name, kinds: { $0 == .viewController },
            readValue: { (value, node, error) throws(RPCError) in
                var p = node.uikit.presentation ?? PresentationFields()
                p[keyPath: keyPath] = try read(value, error)
                node.uikit.presentation = p
            },
            writeValue: { node, w in
                if let v = node.uikit.presentation?[keyPath: keyPath] { write(&w, v) } else { w.null() }
            },
            copyValue: { source, node in
                var p = node.uikit.presentation ?? PresentationFields()
                p[keyPath: keyPath] = source.uikit.presentation?[keyPath: keyPath]
                node.uikit.presentation = p
            },
            written: { $0.uikit.presentation?[keyPath: keyPath] != nil })
    }
}
