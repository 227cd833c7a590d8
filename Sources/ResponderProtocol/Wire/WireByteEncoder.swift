import ResponderJSON

/// Writes the protocol's `Encodable` types straight to JSON bytes, with no `JSON` tree or `EncodingStorage` in
/// between: the hot path of replies and trace events. The bytes are those of
/// `JSONCodec.encode(WireEncoder.encode(value))` — members in declaration order, nil as `null`, `@OmitNil`
/// left out, `WireValue`s as their `wire` value. A shape a stream cannot write in order (a nested container
/// kept open while its parent goes on, a `superEncoder`) makes it fall back to the tree encoder.
public enum WireByteEncoder {
    public static func encode<T: Encodable>(_ value: T, capacity: Int = 1024) -> [UInt8] {
        var writer = JSONWriter(reservingCapacity: capacity)
        guard write(value, to: &writer) else { return WireEncoder.encodeBytes(value) }
        return writer.takeBytes()
    }

    /// Appends `value` to `writer` (as a member's value after `key`, an element, or the whole document).
    /// Returns false, with the writer unusable, when the value needs the tree encoder.
    public static func write<T: Encodable>(_ value: T, to writer: inout JSONWriter) -> Bool {
        // The types written by hand need no sink: a sink and the writer it swaps in are two allocations, kept
        // off every typed reply's path.
        if ByteSink.writeKnown(value, to: &writer) { return true }
        let sink = ByteSink(JSONWriter(reservingCapacity: 16))
        swap(&writer, &sink.writer)
        sink.write(value)
        swap(&writer, &sink.writer)
        return !sink.failed
    }

    /// The writer of a `T`, chosen once per type (a method's registration): a hand-written one where `T` has
    /// one, so that writing a value costs no cast; else `write(_:to:)`. False, as from `write`, when the value
    /// needs the tree encoder.
    public static func writer<T: Encodable & SendableMetatype>(for type: T.Type)
        -> @Sendable (T, inout JSONWriter) -> Bool
    {
        /// `write` as a writer of `T`: the cast of the function succeeds exactly when `U` is `T`.
        func known<U>(_ write: @escaping @Sendable (U, inout JSONWriter) -> Void) -> (
            @Sendable (T, inout JSONWriter) -> Bool
        )? {
            guard let write = write as? @Sendable (T, inout JSONWriter) -> Void else { return nil }
            return { value, w in
                write(value, &w)
                return true
            }
        }
        if T.self == String?.self,
            let writer = known({ (value: String?, w: inout JSONWriter) in w.string(orNull: value) })
        {
            return writer
        }
        if T.self == String.self, let writer = known({ (value: String, w: inout JSONWriter) in w.string(value) }) {
            return writer
        }
        return { value, w in write(value, to: &w) }
    }

    /// A dispatch's trace event body `{kind, steps, outcome}` and, inside it, the range of the outcome object:
    /// a reply's members are the outcome's, so the reply reuses those bytes instead of encoding them again.
    /// Written straight into one writer: the kind from its quoted text and the steps by hand, so only an outcome
    /// with no writer of its own costs a sink (and the runtime's look-up of the kind's wire traits is skipped).
    public static func traceBody<Outcome>(_ traced: Traced<Outcome>) -> (bytes: [UInt8], outcome: Range<Int>)? {
        traceBody(kind: traced.trace.kind, outcome: traced.outcome) {
            ByteSink.write(steps: traced.trace.steps, to: &$0)
        }
    }

    /// A touch outcome's members (`deliveries`, and `crashed` when there is one) written into the open object of
    /// `w`, as its own object holds them: a reply whose members are the outcome's writes them in place, with no
    /// text of the outcome made first and copied.
    public static func writeMembers(of outcome: TouchOutcome, to w: inout JSONWriter) {
        ByteSink.writeMembers(of: outcome, to: &w)
    }

    /// A touch's trace body `{kind, steps, outcome}` written at the end of `w` (the `trace` member of the event
    /// that carries it, written in one piece), its steps moved out of `traced` (none copied to be lent).
    /// Returns where the body and its outcome are in `w`, and the first-responder changes among the steps,
    /// gathered as they are written (what `Trace.focusChanges` finds with a walk of its own). Nil, with nothing
    /// written, for an outcome not a touch's: a touch's is written by hand and never falls back.
    public static func writeTraceBody<Outcome>(taking traced: inout Traced<Outcome>, to w: inout JSONWriter) -> (
        body: Range<Int>, outcome: Range<Int>, focus: [FocusChange]
    )? {
        guard Outcome.self == TouchOutcome.self else { return nil }
        var steps: [TraceStep] = []
        swap(&steps, &traced.trace.steps)
        var focus: [FocusChange] = []
        let start = w.count
        w.beginObject()
        w.key(static: "kind"); w.string(traced.trace.kind)
        w.key(static: "steps"); ByteSink.write(taking: &steps, to: &w, focus: &focus)
        w.key(static: "outcome")
        let outcomeStart = w.count
        _ = write(traced.outcome, to: &w)
        let outcomeEnd = w.count
        w.endObject()
        return (start..<w.count, outcomeStart..<outcomeEnd, focus)
    }

    private static func traceBody<Outcome: Encodable>(
        kind: TraceKind, outcome: Outcome, steps: (inout JSONWriter) -> Void
    ) -> (bytes: [UInt8], outcome: Range<Int>)? {
        var w = JSONWriter(reservingCapacity: 4096)
        w.beginObject()
        w.key(static: "kind"); w.string(kind)
        w.key(static: "steps"); steps(&w)
        w.key(static: "outcome")
        let start = w.count
        guard write(outcome, to: &w) else { return nil }
        let end = w.count
        w.endObject()
        guard end - start >= 2, w.byte(at: start) == UInt8(ascii: "{") else { return nil }
        return (w.takeBytes(), start..<end)
    }
}

/// The writer shared by every encoder of one value.
final class ByteSink {
    var writer: JSONWriter
    var failed = false

    init(_ writer: consuming JSONWriter) { self.writer = writer }

    func write<T: Encodable>(_ value: T) {
        if Self.writeKnown(value, to: &writer) { return }
        if WireTraits.of(T.self).contains(.wireValue), let wire = value as? any WireValue {
            writer.value(wire.wire)
            return
        }
        let encoder = StreamEncoder(self)
        do { try value.encode(to: encoder) } catch { failed = true }
        encoder.finish()
    }

    /// The types written by hand (and `JSON`): true when `value` was one of them and is written.
    static func writeKnown<T: Encodable>(_ value: T, to w: inout JSONWriter) -> Bool {
        // Metatype comparisons first: they cost a compare, where a cast to a protocol asks the runtime. The cast
        // after a match is to the very type, folded away where `T` is known (a specialised caller) and the
        // runtime's identity fast path where it is not.
        if T.self == JSON.self {
            w.value(value as! JSON)
            return true
        }
        if T.self == Traced<HitTestOutcome>.self {
            (value as! Traced<HitTestOutcome>).write(to: &w)
            return true
        }
        if T.self == HitVisit.self {
            (value as! HitVisit).write(to: &w)
            return true
        }
        if T.self == TraceStep.self {
            (value as! TraceStep).write(to: &w)
            return true
        }
        if T.self == TouchDelivery.self {
            (value as! TouchDelivery).write(to: &w)
            return true
        }
        // A trace's steps and a touch's deliveries: the arrays too, not only their elements (the encoder's
        // unkeyed container around each element would be a large part of writing a tap's trace).
        // Through `w`, one inout access (a sink's writer is a class's property: each access in a loop is checked).
        if T.self == [TraceStep].self {
            Self.write(steps: value as! [TraceStep], to: &w)
            return true
        }
        if T.self == [TouchDelivery].self {
            let texts = TraceTexts()
            Self.writeArray(value as! [TouchDelivery], to: &w) { TouchDelivery.write($0, texts: texts, to: &$1) }
            return true
        }
        if T.self == TouchOutcome.self {
            // `{deliveries}`, its one member (a keyed container around it would add to every tap's trace).
            w.beginObject()
            writeMembers(of: value as! TouchOutcome, to: &w)
            w.endObject()
            return true
        }
        if T.self == Point.self {
            (value as! Point).write(to: &w)
            return true
        }
        if T.self == String.self {
            w.string(value as! String)
            return true
        }
        if T.self == String?.self {
            // A bare name or null (responder.first's result and its like): the encoder's walk would be most of
            // the reply.
            w.string(orNull: value as? String)
            return true
        }
        return false
    }

    /// A touch outcome's members, into the open object. Inlined: a call of its own here adds to every traced tap.
    @inline(__always)
    static func writeMembers(of outcome: TouchOutcome, to w: inout JSONWriter) {
        w.key(static: "deliveries")
        let texts = TraceTexts()
        Self.writeArray(outcome.deliveries, to: &w) { TouchDelivery.write($0, texts: texts, to: &$1) }
        if let crashed = outcome.crashed {
            w.key(static: "crashed")
            w.value(crashed.json)
        }
    }

    /// A trace's steps, each written where it is stored.
    static func write(steps: [TraceStep], to w: inout JSONWriter) {
        let texts = TraceTexts()
        writeArray(steps, to: &w) { TraceStep.write($0.pointee, texts: texts, to: &$1) }
    }

    /// A trace's steps, each moved out of its place to be written and dropped: a step lent where it is stored is
    /// copied first, a retain and a release per string, as the compiler cannot tell that writing leaves the array
    /// alone. The steps are taken off the end, last first after the list is reversed in place (moves, nothing
    /// retained), so the array is left empty and is freed with no step to destroy: a place left holding a
    /// placeholder step would cost a destroy of its own as the array is freed.
    /// The first-responder changes among them are appended to `focus` on the way, in order.
    @inline(never)
    static func write(taking steps: inout [TraceStep], to w: inout JSONWriter, focus: inout [FocusChange]) {
        w.beginArray()
        steps.withUnsafeMutableBufferPointer { $0.reverse() }
        let texts = TraceTexts()
        while let step = steps.popLast() {
            if let change = step.focusChange { focus.append(change) }
            TraceStep.write(step, texts: texts, to: &w)
        }
        w.endArray()
    }

    /// Each element handed to `write` where it is (`for element in elements` copied each one).
    @inline(__always)
    private static func writeArray<Element>(
        _ elements: [Element], to w: inout JSONWriter, _ write: (UnsafePointer<Element>, inout JSONWriter) -> Void
    ) {
        w.beginArray()
        elements.withUnsafeBufferPointer { b in
            for i in b.indices { write(b.baseAddress! + i, &w) }
        }
        w.endArray()
    }
}

/// The encoder of one value: the first container it is asked for is opened on the writer; `finish` closes it
/// (or writes `null` when the value wrote nothing, as the tree encoder does).
final class StreamEncoder: Encoder {
    enum State { case empty, object, array, value }
    let sink: ByteSink
    var state = State.empty
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(_ sink: ByteSink) { self.sink = sink }

    func finish() {
        switch state {
        case .empty: sink.writer.null()
        case .object: sink.writer.endObject()
        case .array: sink.writer.endArray()
        case .value: break
        }
    }

    /// Opens `wanted` unless it is already open; any other switch of shape is one a stream cannot write.
    func open(_ wanted: State) {
        if state == wanted { return }
        guard state == .empty else {
            sink.failed = true
            return
        }
        state = wanted
        if wanted == .object { sink.writer.beginObject() } else if wanted == .array { sink.writer.beginArray() }
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        open(.object)
        return KeyedEncodingContainer(Keyed<Key>(encoder: self))
    }
    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        open(.array)
        return Unkeyed(encoder: self)
    }
    func singleValueContainer() -> any SingleValueEncodingContainer { Single(encoder: self) }

    struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let encoder: StreamEncoder
        var codingPath: [any CodingKey] { [] }
        var sink: ByteSink { encoder.sink }

        mutating func encodeNil(forKey key: Key) throws {
            sink.writer.key(key.stringValue)
            sink.writer.null()
        }
        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            if WireTraits.of(T.self).contains(.omittable), let omittable = value as? any OmittableMember,
                omittable.isOmitted
            {
                return
            }
            sink.writer.key(key.stringValue)
            sink.write(value)
        }
        mutating func encode(_ value: Bool, forKey key: Key) throws {
            sink.writer.key(key.stringValue); sink.writer.bool(value)
        }
        mutating func encode(_ value: String, forKey key: Key) throws {
            sink.writer.key(key.stringValue); sink.writer.string(value)
        }
        mutating func encode(_ value: Double, forKey key: Key) throws {
            sink.writer.key(key.stringValue); sink.writer.number(value)
        }
        mutating func encode(_ value: Int, forKey key: Key) throws {
            sink.writer.key(key.stringValue); sink.writer.number(Double(value))
        }
        // The tree encoder writes a nil optional as null for these (Codable's default would leave it out).
        mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
            if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
        }
        mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws {
            if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
        }
        mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws {
            if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
        }
        mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws {
            if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
        }
        mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws {
            if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
        }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
            -> KeyedEncodingContainer<NestedKey>
        {
            sink.failed = true
            return StreamEncoder(sink).container(keyedBy: keyType)
        }
        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            sink.failed = true
            return StreamEncoder(sink).unkeyedContainer()
        }
        mutating func superEncoder() -> any Encoder {
            sink.failed = true
            return encoder
        }
        mutating func superEncoder(forKey key: Key) -> any Encoder {
            sink.failed = true
            return StreamEncoder(sink)
        }
    }

    struct Unkeyed: UnkeyedEncodingContainer {
        let encoder: StreamEncoder
        var count = 0
        var codingPath: [any CodingKey] { [] }
        var sink: ByteSink { encoder.sink }

        mutating func encodeNil() throws {
            count += 1
            sink.writer.null()
        }
        mutating func encode<T: Encodable>(_ value: T) throws {
            count += 1
            sink.write(value)
        }
        mutating func encode(_ value: Bool) throws { count += 1; sink.writer.bool(value) }
        mutating func encode(_ value: String) throws { count += 1; sink.writer.string(value) }
        mutating func encode(_ value: Double) throws { count += 1; sink.writer.number(value) }
        mutating func encode(_ value: Int) throws { count += 1; sink.writer.number(Double(value)) }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<
            NestedKey
        > {
            sink.failed = true
            return StreamEncoder(sink).container(keyedBy: keyType)
        }
        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            sink.failed = true
            return StreamEncoder(sink).unkeyedContainer()
        }
        mutating func superEncoder() -> any Encoder {
            sink.failed = true
            return StreamEncoder(sink)
        }
    }

    struct Single: SingleValueEncodingContainer {
        let encoder: StreamEncoder
        var codingPath: [any CodingKey] { [] }
        var sink: ByteSink { encoder.sink }

        /// A single value may be written once, into an encoder that holds nothing else.
        private func claim() -> Bool {
            guard encoder.state == .empty else {
                sink.failed = true
                return false
            }
            encoder.state = .value
            return true
        }
        mutating func encodeNil() throws { if claim() { sink.writer.null() } }
        mutating func encode(_ value: Bool) throws { if claim() { sink.writer.bool(value) } }
        mutating func encode(_ value: String) throws { if claim() { sink.writer.string(value) } }
        mutating func encode(_ value: Double) throws { if claim() { sink.writer.number(value) } }
        mutating func encode(_ value: Int) throws { if claim() { sink.writer.number(Double(value)) } }
        mutating func encode<T: Encodable>(_ value: T) throws { if claim() { sink.write(value) } }
    }
}
