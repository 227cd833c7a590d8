import ResponderJSON

/// One settable field of a node (section 8.2): its wire name, the kinds that have it, how its value is read
/// from JSON (with an error naming the field) and written back, and how it is copied from one node to another
/// (which is also how `null` restores the default). Adding a field is one entry in `NodeField.all`.
///
/// A class, not a struct: a field is passed around for every member of every node written, and copying six
/// closures was a retain and a release each.
public final class NodeField: Sendable {
    public let name: String
    let kinds: @Sendable (NodeKind) -> Bool
    let readValue: @Sendable (JSON, inout NodeSpec, FieldError) throws(RPCError) -> Void
    let writeValue: @Sendable (NodeSpec, inout JSONWriter) -> Void
    let copyValue: @Sendable (NodeSpec, inout NodeSpec) -> Void
    /// nil: always written.
    let written: (@Sendable (NodeSpec) -> Bool)?
    /// Whether two nodes hold the same value of this field (nil: not known, as for fields written as an effective
    /// value that depends on other fields).
    let sameValue: (@Sendable (NodeSpec, NodeSpec) -> Bool)?

    init(
        name: String, kinds: @escaping @Sendable (NodeKind) -> Bool,
        readValue: @escaping @Sendable (JSON, inout NodeSpec, FieldError) throws(RPCError) -> Void,
        writeValue: @escaping @Sendable (NodeSpec, inout JSONWriter) -> Void,
        copyValue: @escaping @Sendable (NodeSpec, inout NodeSpec) -> Void,
        written: (@Sendable (NodeSpec) -> Bool)?, sameValue: (@Sendable (NodeSpec, NodeSpec) -> Bool)? = nil
    ) {
        self.name = name
        self.kinds = kinds
        self.readValue = readValue
        self.writeValue = writeValue
        self.copyValue = copyValue
        self.written = written
        self.sameValue = sameValue
    }

    public func applies(to kind: NodeKind) -> Bool { kinds(kind) }

    /// Whether output (8.5) includes the field for `node`: most are always written; some only when set or
    /// when the node's UIKit class uses them (8.6), so output without them stays as it was.
    public func isWritten(for node: NodeSpec) -> Bool { written?(node) ?? true }

    /// The fields that apply to `kind`, in table order: every node written asks, so the answer is kept.
    public static func all(for kind: NodeKind) -> [NodeField] { byKind[kind] ?? [] }
    private static let byKind: [NodeKind: [NodeField]] = Dictionary(
        uniqueKeysWithValues: NodeKind.allCases.map { kind in
            (kind, all.filter { $0.applies(to: kind) })
        })

    /// Writes every member of `node` that output (8.5) includes, in table order, after `id`, `kind` and
    /// `revision`. A field holding its kind's default value is copied as bytes prepared once (`"hidden":false`):
    /// in a large world most fields of most nodes are defaults, and writing them one by one would be most of
    /// writing a large world.
    public static func writeMembers(of node: NodeSpec, to w: inout JSONWriter) {
        let output = outputs[node.kind.index]
        output.runs.withUnsafeBufferPointer { runs in
            if node.outOfLineFieldsUnset && node.className == output.defaults.className {
                // A plain node (nothing out of line, its kind's class): the out-of-line members are defaults,
                // written as runs of bytes prepared once; only the inline fields are asked.
                output.plain.withUnsafeBufferPointer { steps in
                    for k in steps.indices {
                        switch steps[k] {
                        case .bytes(let run):
                            w.rawMembers(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: runs[run])))
                        case .member(let i): output.write(i, of: node, to: &w, runs: runs)
                        }
                    }
                }
                return
            }
            for i in output.fields.indices where output.fields[i].isWritten(for: node) {
                output.write(i, of: node, to: &w, runs: runs)
            }
        }
    }

    /// The members of `node` that reading the node without them would not give back: its class (and base
    /// class) when they are not its kind's, and every other member it holds otherwise than a node of its kind
    /// and class holds unset. Read back (`NodeTree`, `PlainTree`), they make the node as it is stored: a state
    /// snapshot's text. Most fields of most nodes are defaults, so leaving them out keeps a large world's
    /// snapshot small to write and quick to read back at a restart.
    public static func writeChangedMembers(of node: NodeSpec, to w: inout JSONWriter) {
        let output = outputs[node.kind.index]
        let kindDefaults = output.defaults
        if node.outOfLineFieldsUnset && node.className == kindDefaults.className {
            for i in output.inline {
                let field = output.fields[i]
                // K1: set or taken from the class, not only the value (the one inline field stored apart from it).
                let needed =
                    field.name == "userInteractionEnabled"
                    ? node.interactionSetting != nil : !field.same(node, kindDefaults)
                if needed { output.writeValue(i, of: node, to: &w) }
            }
            return
        }
        // The node a reader makes of its id, kind, class and base class alone. A member is needed when the node
        // holds it otherwise — as stored, not as written: a class field set to its class's default is written
        // like an unset one, but a node that sets one shows all its class's fields (8.6), and K1 tells
        // `userInteractionEnabled` set from taken.
        var unset = NodeSpec(id: node.id, kind: node.kind)
        unset.className = node.className
        if let base = node.baseClass { unset.baseClass = base }
        for i in output.fields.indices where output.fields[i].isWritten(for: node) {
            let field = output.fields[i]
            let needed: Bool
            switch field.name {
            case "class": needed = node.className != kindDefaults.className
            case "baseClass": needed = node.baseClass != nil
            default:
                var probe = unset
                field.copy(from: node, into: &probe)
                needed = probe != unset
            }
            if needed { output.writeValue(i, of: node, to: &w) }
        }
    }

    /// Whether `a` and `b` hold the same value of this member (its compare where it has one, else its text).
    func same(_ a: NodeSpec, _ b: NodeSpec) -> Bool {
        if let sameValue { return sameValue(a, b) }
        return writesAlike(a, b)
    }

    /// Whether `a` and `b` write this member as the same text.
    func writesAlike(_ a: NodeSpec, _ b: NodeSpec) -> Bool {
        var x = JSONWriter(), y = JSONWriter()
        write(a, to: &x)
        write(b, to: &y)
        return x.bytes == y.bytes
    }

    private final class KindOutput: Sendable {
        /// A run of `runs`, or a member to ask. Holding no reference, a step is read without a retain.
        enum Step { case bytes(Range<Int>), member(Int) }
        let defaults: NodeSpec
        let fields: [NodeField]
        /// Each field's member (`"hidden":false`) as the kind's default writes it, in `runs`; nil where the field
        /// has no compare of its own.
        let defaultBytes: [Range<Int>?]
        /// What a plain node writes: inline members to ask, and between them the out-of-line members as bytes.
        let plain: [Step]
        /// The members a plain node may hold other than its kind's defaults: the inline ones it writes.
        let inline: [Int]
        /// The prepared bytes, one run after another.
        let runs: [UInt8]

        init(kind: NodeKind) {
            let defaults = NodeSpec(id: "", kind: kind)
            let fields = NodeField.all(for: kind)
            var runs: [UInt8] = []
            func kept(_ bytes: [UInt8]) -> Range<Int> {
                runs += bytes
                return runs.count - bytes.count..<runs.count
            }
            let defaultBytes = fields.map { $0.sameValue == nil ? nil : kept(KindOutput.member($0, of: defaults)) }
            // The out-of-line members between two inline ones are one run.
            var plain: [Step] = []
            var pending: [UInt8] = []
            for (i, field) in fields.enumerated() where field.isWritten(for: defaults) {
                if NodeSpec.outOfLineFields.contains(field.name) {
                    if !pending.isEmpty { pending.append(UInt8(ascii: ",")) }
                    pending += KindOutput.member(field, of: defaults)
                } else {
                    if !pending.isEmpty { plain.append(.bytes(kept(pending))) }
                    pending = []
                    plain.append(.member(i))
                }
            }
            if !pending.isEmpty { plain.append(.bytes(kept(pending))) }
            self.defaults = defaults
            self.fields = fields
            self.defaultBytes = defaultBytes
            self.plain = plain
            self.inline = plain.compactMap { if case .member(let i) = $0 { i } else { nil } }
            self.runs = runs
        }

        /// Member `i` of `node`, written.
        func writeValue(_ i: Int, of node: NodeSpec, to w: inout JSONWriter) {
            w.key(fields[i].name)
            fields[i].write(node, to: &w)
        }

        /// `"name":value` for `field` of `node`.
        static func member(_ field: NodeField, of node: NodeSpec) -> [UInt8] {
            var w = JSONWriter()
            w.beginObject()
            w.key(field.name)
            field.write(node, to: &w)
            w.endObject()
            return Array(w.bytes.dropFirst().dropLast())
        }

        /// Member `i` of `node`: its prepared bytes (in `runs`) when it holds the kind's default, else written.
        @inline(__always)
        func write(_ i: Int, of node: NodeSpec, to w: inout JSONWriter, runs: UnsafeBufferPointer<UInt8>) {
            let field = fields[i]
            if let bytes = defaultBytes[i], field.same(node, defaults) {
                w.rawMembers(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: runs[bytes])))
            } else {
                w.key(field.name)
                field.write(node, to: &w)
            }
        }
    }

    /// Indexed by `NodeKind.index`.
    private static let outputs: [KindOutput] = NodeKind.allCases.map { KindOutput(kind: $0) }

    /// Sets this field on `node` from `value`; `null` restores the kind's default. `path` prefixes the field
    /// name in errors ("ops[0].node.").
    public func read(_ value: JSON, into node: inout NodeSpec, path: String) throws(RPCError) {
        if value.isNull {
            copy(from: NodeSpec(id: node.id, kind: node.kind), into: &node)
            return
        }
        try readValue(value, &node, FieldError(field: path + name, id: node.id))
    }

    public func write(_ node: NodeSpec, to w: inout JSONWriter) { writeValue(node, &w) }

    /// This field's value in `node` as the wire writes it: equal bytes, equal values.
    public func encoded(_ node: NodeSpec) -> [UInt8] {
        var w = JSONWriter()
        writeValue(node, &w)
        return w.takeBytes()
    }

    /// Copies this field's value from `source` into `node`.
    public func copy(from source: NodeSpec, into node: inout NodeSpec) { copyValue(source, &node) }

    /// The members of a node that are structure, not fields (`id`, `kind`, `children`, `revision`): they cannot be
    /// changed through `update … set`. Compared, not looked up in a set: a set hashes the name (SipHash), and
    /// this is asked three times for every node of a load.
    @inline(__always)
    public static func isStructural(_ name: String) -> Bool {
        name == "id" || name == "kind" || name == "children" || name == "revision"
    }

    public static func named(_ name: String) -> NodeField? { byName[name] }
    private static let byName: [String: NodeField] = Dictionary(uniqueKeysWithValues: all.map { ($0.name, $0) })
}

/// Builds INVALID_NODE errors for one field of one node.
public struct FieldError: Sendable {
    public let field: String
    public let id: String
    public func callAsFunction(_ message: String, suffix: String = "") -> RPCError {
        RPCError(
            .invalidNode, "\(field)\(suffix): \(message)", [("field", .string(field + suffix)), ("id", .string(id))])
    }
}

extension NodeField {
    /// A field stored at `keyPath`, read by `read` and written by `write`. `get` is the same key path passed
    /// as a function: the literal then compiles to a direct read, where applying a key path at run time costs
    /// hundreds of instructions, and output reads every field of
    /// every node. Input sets only the fields a request names, through `keyPath`.
    static func field<V: Sendable & Equatable>(
        _ name: String, _ keyPath: WritableKeyPath<NodeSpec, V> & Sendable, _ get: @escaping @Sendable (NodeSpec) -> V,
        on kinds: @escaping @Sendable (NodeKind) -> Bool,
        read: @escaping @Sendable (JSON, FieldError) throws(RPCError) -> V,
        write: @escaping @Sendable (V, inout JSONWriter) -> Void,
        written: (@Sendable (NodeSpec) -> Bool)? = nil
    ) -> NodeField {
        NodeField(
            name: name, kinds: kinds,
            readValue: { (value, node, error) throws(RPCError) in node[keyPath: keyPath] = try read(value, error) },
            writeValue: { node, w in write(get(node), &w) },
            copyValue: { source, node in node[keyPath: keyPath] = get(source) },
            written: written,
            sameValue: { a, b in get(a) == get(b) })
    }

    static let anyKind: @Sendable (NodeKind) -> Bool = { _ in true }
    static let views: @Sendable (NodeKind) -> Bool = { $0.isView }
    static let controls: @Sendable (NodeKind) -> Bool = { $0.isControl }

    static func bool(
        _ name: String, _ keyPath: WritableKeyPath<NodeSpec, Bool> & Sendable,
        _ get: @escaping @Sendable (NodeSpec) -> Bool,
        on kinds: @escaping @Sendable (NodeKind) -> Bool
    ) -> NodeField {
        field(
            name, keyPath, get, on: kinds,
            read: { (v, bad) throws(RPCError) in
                guard let b = v.boolValue else { throw bad("expected a boolean, got \(v.typeName)") }
                return b
            }, write: { v, w in w.bool(v) })
    }

    /// The table: every field, in the order nodes are written (8.5).
    public static let all: [NodeField] =
        [
            field(
                "class", \.className, \.className, on: anyKind,
                read: { (v, bad) throws(RPCError) in
                    guard let s = v.stringValue, !s.isEmpty else { throw bad("expected a non-empty string") }
                    return s
                }, write: { v, w in w.string(v) }),
            field(
                "frame", \.frame, \.frame, on: views,
                read: { (v, bad) throws(RPCError) in
                    let f = try numbers(v, 4, "[x, y, width, height]", bad)
                    guard f[2] >= 0, f[3] >= 0 else { throw bad("width and height must not be negative") }
                    return Rect(f[0], f[1], f[2], f[3])
                }, write: { v, w in w.numbers([v.x, v.y, v.width, v.height]) }),
            field(
                "boundsOrigin", \.boundsOrigin, \.boundsOrigin, on: views,
                read: { (v, bad) throws(RPCError) in
                    let p = try numbers(v, 2, "[x, y]", bad)
                    return Point(p[0], p[1])
                }, write: { v, w in w.numbers([v.x, v.y]) }),
            field(
                "transform", \.transform, \.transform, on: views,
                read: { (v, bad) throws(RPCError) in
                    let t = try numbers(v, 6, "[a, b, c, d, tx, ty]", bad)
                    return AffineTransform(t[0], t[1], t[2], t[3], t[4], t[5])
                }, write: { v, w in if let t = v { w.numbers([t.a, t.b, t.c, t.d, t.tx, t.ty]) } else { w.null() } }),
            bool("hidden", \.hidden, \.hidden, on: views),
            field(
                "alpha", \.alpha, \.alpha, on: views,
                read: { (v, bad) throws(RPCError) in
                    guard let a = v.doubleValue else { throw bad("expected a number, got \(v.typeName)") }
                    guard a.isFinite, a >= 0, a <= 1 else { throw bad("alpha must be within 0…1") }
                    return a
                }, write: { v, w in w.number(v) }),
            bool("clipsToBounds", \.clipsToBounds, \.clipsToBounds, on: views),
            // K1: read into the node's own setting (null: the class default); written as the effective value.
            NodeField(
                name: "userInteractionEnabled", kinds: views,
                readValue: { (v, node, bad) throws(RPCError) in
                    guard let b = v.boolValue else { throw bad("expected a boolean, got \(v.typeName)") }
                    node.interactionSetting = b
                }, writeValue: { node, w in w.bool(node.userInteractionEnabled) },
                copyValue: { source, node in node.interactionSetting = source.interactionSetting }, written: nil),
            bool("multipleTouchEnabled", \.multipleTouchEnabled, \.multipleTouchEnabled, on: views),
            bool("exclusiveTouch", \.exclusiveTouch, \.exclusiveTouch, on: views),
            bool("enabled", \.enabled, \.enabled, on: controls),
            field(
                "windowLevel", \.windowLevel, \.windowLevel, on: { $0 == .window },
                read: { (v, bad) throws(RPCError) in
                    guard let l = v.doubleValue, l.isFinite else { throw bad("expected a finite number") }
                    return l
                }, write: { v, w in w.number(v) }),
            bool("key", \.key, \.key, on: { $0 == .window }),
            bool("canBecomeFirstResponder", \.canBecomeFirstResponder, \.canBecomeFirstResponder, on: anyKind),
            bool("canResignFirstResponder", \.canResignFirstResponder, \.canResignFirstResponder, on: anyKind),
            field("hitTest", \.hitTest, \.hitTest, on: views, read: readHitTest, write: writeHitTest),
            field(
                "annotations", \.annotations, \.annotations, on: anyKind,
                read: { (v, bad) throws(RPCError) in
                    guard let members = v.objectMembers else { throw bad("expected an object of name: string") }
                    var notes: [String: String] = [:]
                    for (name, value) in members {
                        guard !name.isEmpty else { throw bad("annotation names must not be empty") }
                        guard let text = value.stringValue else {
                            throw bad("expected a string, got \(value.typeName)", suffix: ".\(name)")
                        }
                        notes[name] = text
                    }
                    return notes
                },
                write: { v, w in
                    w.beginObject()
                    for name in v.keys.sorted() {
                        w.key(name)
                        w.string(v[name]!)
                    }
                    w.endObject()
                }, written: { !$0.annotations.isEmpty }),
            field(
                "handles", \.handles, \.handles, on: anyKind,
                read: { (v, bad) throws(RPCError) in
                    guard let members = v.objectMembers else {
                        throw bad("expected an object of message: \"handle\" | \"handle+super\"")
                    }
                    var handles: [String: HandleMode] = [:]
                    for (message, mode) in members {
                        guard !message.isEmpty else { throw bad("message names must not be empty") }
                        guard let m = mode.stringValue.flatMap(HandleMode.init(rawValue:)) else {
                            throw bad("expected \"handle\" or \"handle+super\"", suffix: ".\(message)")
                        }
                        handles[message] = m
                    }
                    return handles
                },
                write: { v, w in
                    w.beginObject()
                    for message in v.keys.sorted() {
                        w.key(message)
                        w.string(v[message]!.rawValue)
                    }
                    w.endObject()
                }),
            field(
                "vetoes", \.vetoes, \.vetoes, on: anyKind,
                read: { (v, bad) throws(RPCError) in
                    guard let a = v.arrayValue else { throw bad("expected an array of action names") }
                    var out: [String] = []
                    for element in a {
                        guard let s = element.stringValue, !s.isEmpty else {
                            throw bad("expected action names (strings)")
                        }
                        out.append(s)
                    }
                    return out
                },
                write: { v, w in
                    w.beginArray()
                    for s in v { w.string(s) }
                    w.endArray()
                }),
            field(
                "targets", \.targets, \.targets, on: controls, read: readTargets,
                write: { v, w in
                    w.beginArray()
                    for t in v {
                        w.beginObject()
                        w.key("event"); w.string(t.event.rawValue)
                        w.key("action"); w.string(t.action)
                        w.key("target"); if let target = t.target { w.string(target) } else { w.null() }
                        w.endObject()
                    }
                    w.endArray()
                }),
            field(
                "gestureRecognizers", \.gestureRecognizers, \.gestureRecognizers, on: views, read: readRecognizers,
                write: { v, w in
                    w.beginArray()
                    for r in v { r.write(to: &w) }
                    w.endArray()
                }),
            field(
                "presentedBy", \.presentedBy, \.presentedBy, on: { $0 == .viewController },
                read: { (v, bad) throws(RPCError) in
                    guard let s = v.stringValue, !s.isEmpty else {
                        throw bad("expected the id of the presenting view controller")
                    }
                    return s
                }, write: { v, w in if let p = v { w.string(p) } else { w.null() } }),
            bool(
                "receivesRemoteControlEvents", \.receivesRemoteControlEvents, \.receivesRemoteControlEvents,
                on: { $0 == .application })
        ] + uikitFields + editingFields + keyCommandFields + cellFields + presentationFields + scrollFields
        + [
            // 8.7: written only when given, so every node without it writes as before.
            // Read with the node's kind: some members apply to windows, view controllers or views only.
            NodeField(
                name: "android", kinds: anyKind,
                readValue: { (v, node, bad) throws(RPCError) in
                    node.android = try AndroidFields(json: v, path: bad.field, kind: node.kind)
                },
                writeValue: { node, w in if let a = node.android { a.write(to: &w) } else { w.null() } },
                copyValue: { source, node in node.android = source.android },
                written: { $0.android != nil }, sameValue: { a, b in a.android == b.android })
        ]

    static func numbers(_ value: JSON, _ count: Int, _ shape: String, _ bad: FieldError) throws(RPCError) -> [Double] {
        guard let a = value.arrayValue, a.count == count else { throw bad("expected \(shape)") }
        var out: [Double] = []
        for element in a {
            guard let n = element.doubleValue else {
                throw bad("expected \(shape) of numbers, got \(element.typeName)")
            }
            guard n.isFinite else { throw bad("numbers must be finite") }
            out.append(n)
        }
        return out
    }

    private static func readTargets(_ value: JSON, _ bad: FieldError) throws(RPCError) -> [TargetAction] {
        guard let a = value.arrayValue else { throw bad("expected an array of {event, action, target}") }
        var out: [TargetAction] = []
        for (i, entry) in a.enumerated() {
            var r = try ParamReader(entry, path: "\(bad.field)[\(i)].", errorName: .invalidNode)
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
        return out
    }

    /// Ids must be unique within the node here; across the session (and the references) when the batch ends.
    private static func readRecognizers(_ value: JSON, _ bad: FieldError) throws(RPCError) -> [GestureRecognizerSpec] {
        guard let a = value.arrayValue else { throw bad("expected an array of recognizers ({id, kind, …})") }
        var out: [GestureRecognizerSpec] = []
        for (i, entry) in a.enumerated() {
            let recognizer = try GestureRecognizerSpec(json: entry, path: "\(bad.field)[\(i)].")
            if out.contains(where: { $0.id == recognizer.id }) {
                throw RPCError(
                    .duplicateID, "a recognizer with id \"\(recognizer.id)\" is already in this list",
                    [
                        ("field", .string("\(bad.field)[\(i)].id")), ("id", .string(bad.id)),
                        ("recognizer", .string(recognizer.id))
                    ])
            }
            out.append(recognizer)
        }
        return out
    }

    private static func readHitTest(_ value: JSON, _ bad: FieldError) throws(RPCError) -> HitTestOverride {
        var r = try ParamReader(value, path: bad.field + ".", errorName: .invalidNode)
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
            var rr = try ParamReader(redirect, path: bad.field + ".redirect.", errorName: .invalidNode)
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

    private static func writeHitTest(_ h: HitTestOverride, _ w: inout JSONWriter) {
        w.beginObject()
        w.key("insets")
        w.numbers([h.insets.top, h.insets.left, h.insets.bottom, h.insets.right])
        w.key("mode")
        w.string(h.mode.rawValue)
        w.key("redirect")
        if let r = h.redirect {
            w.beginObject()
            w.key("to"); w.string(r.to)
            w.key("when"); w.string(r.when.rawValue)
            w.endObject()
        } else {
            w.null()
        }
        w.endObject()
    }
}

extension JSONWriter {
    mutating func numbers(_ values: [Double]) {
        beginArray()
        for v in values { number(v) }
        endArray()
    }
}
