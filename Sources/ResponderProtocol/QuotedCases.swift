/// A `WireEnum` written from text made once per case (`QuotedCases`): a rule tag, a phase, a reason. Written as
/// its raw value, each would be the raw value's `switch`, then a string's check and copy, and a hit test's
/// reply has three per view asked.
public protocol QuotedWireEnum: WireEnum {
    static var quoted: QuotedCases { get }
}

/// Each case of an enum as its JSON string, quotes and all, found by the byte the case is stored as.
///
/// An enum without payloads of 2 to 256 cases is stored in one byte, a different value per case; `init` checks
/// exactly that (the byte of every case, distinct), so the lookup cannot name the wrong case. Where it does not
/// hold (a one-case enum takes no byte), the table is left off and the case is written from its raw value.
public struct QuotedCases: @unchecked Sendable {
    /// Per stored byte, where its text starts in `text` and how long it is; never freed (the tables are static).
    private let spans: UnsafeMutablePointer<(start: Int32, length: Int32)>?
    private let text: UnsafeMutablePointer<UInt8>?
    /// The most any case's text takes, quotes included.
    public let longest: Int

    public init<E: WireEnum>(_ type: E.Type) {
        var texts: [(byte: Int, text: [UInt8])] = []
        var longest = 0
        for c in E.allCases {
            var w = JSONWriter()
            w.string(c.rawValue)
            let text = w.takeBytes()
            longest = max(longest, text.count)
            texts.append((MemoryLayout<E>.size == 1 ? Int(Self.byte(of: c)) : -1, text))
        }
        let distinct = Set(texts.map(\.byte)).count == texts.count
        guard MemoryLayout<E>.size == 1, distinct else {
            // Written from the raw value then, through `JSONCursor.string`, which wants room for any escape.
            self.longest = E.allCases.map { JSONCursor.room(for: $0.rawValue) }.max() ?? 2
            spans = nil
            text = nil
            return
        }
        self.longest = longest
        let spans = UnsafeMutablePointer<(start: Int32, length: Int32)>.allocate(capacity: 256)
        spans.initialize(repeating: (0, 0), count: 256)
        let all = texts.flatMap(\.text)
        let text = UnsafeMutablePointer<UInt8>.allocate(capacity: max(all.count, 1))
        text.initialize(from: all, count: all.count)
        var start = 0
        for (byte, t) in texts {
            spans[byte] = (Int32(start), Int32(t.count))
            start += t.count
        }
        self.spans = spans
        self.text = text
    }

    /// Whether cases are written from the table (the enum's layout is the one `init` checks for).
    public var isTabled: Bool { spans != nil }

    @inline(__always)
    static func byte<E>(of value: E) -> UInt8 { withUnsafeBytes(of: value) { $0[0] } }

    /// The text of `value`, or nil when there is no table.
    @inline(__always)
    func text<E: QuotedWireEnum>(of value: E) -> (start: UnsafePointer<UInt8>, count: Int)? {
        guard let spans, let text else { return nil }
        let span = spans[Int(Self.byte(of: value))]
        return (UnsafePointer(text + Int(span.start)), Int(span.length))
    }
}

extension JSONWriter {
    /// A case as its raw value's string.
    @inline(__always)
    public mutating func string<E: QuotedWireEnum>(_ value: E) {
        if let t = E.quoted.text(of: value) { raw(quoted: t.start, t.count) } else { string(value.rawValue) }
    }

    @inline(__always)
    public mutating func string<E: QuotedWireEnum>(orNull value: E?) {
        if let value { string(value) } else { null() }
    }
}

extension JSONCursor {
    @inline(__always)
    public mutating func string<E: QuotedWireEnum>(_ value: E) {
        if let t = E.quoted.text(of: value) { raw(quoted: t.start, t.count) } else { string(value.rawValue) }
    }

    /// The most a case of `E` takes.
    @inline(__always)
    public static func room<E: QuotedWireEnum>(for value: E) -> Int { E.quoted.longest }

    @inline(__always)
    public static func room<E: QuotedWireEnum>(for value: E?) -> Int { max(E.quoted.longest, 4) }

    /// An array of cases, each as its raw value's string (a delivery's control events), with no array of
    /// strings made first.
    @inline(__always)
    public mutating func strings<E: QuotedWireEnum>(_ values: [E]) {
        raw("[")
        for (i, v) in values.enumerated() {
            if i > 0 { raw(",") }
            string(v)
        }
        raw("]")
    }

    /// The most an array of cases of `E` takes.
    @inline(__always)
    public static func room<E: QuotedWireEnum>(for values: [E]) -> Int { 2 + values.count * (E.quoted.longest + 1) }
}

extension Rule: QuotedWireEnum { public static let quoted = QuotedCases(Self.self) }
extension HitResult: QuotedWireEnum { public static let quoted = QuotedCases(Self.self) }
extension HitReason: QuotedWireEnum { public static let quoted = QuotedCases(Self.self) }
extension Disposition: QuotedWireEnum { public static let quoted = QuotedCases(Self.self) }
extension TouchPhase: QuotedWireEnum { public static let quoted = QuotedCases(Self.self) }
extension ControlEvent: QuotedWireEnum { public static let quoted = QuotedCases(Self.self) }
extension GestureState: QuotedWireEnum { public static let quoted = QuotedCases(Self.self) }
extension GestureReason: QuotedWireEnum { public static let quoted = QuotedCases(Self.self) }
extension DiscardReason: QuotedWireEnum { public static let quoted = QuotedCases(Self.self) }
extension ActionFailure: QuotedWireEnum { public static let quoted = QuotedCases(Self.self) }
extension FocusCheck: QuotedWireEnum { public static let quoted = QuotedCases(Self.self) }
extension TraceKind: QuotedWireEnum { public static let quoted = QuotedCases(Self.self) }
extension DeliverReason: QuotedWireEnum { public static let quoted = QuotedCases(Self.self) }
extension TouchDeliveryReason: QuotedWireEnum { public static let quoted = QuotedCases(Self.self) }
extension FocusReason: QuotedWireEnum { public static let quoted = QuotedCases(Self.self) }
