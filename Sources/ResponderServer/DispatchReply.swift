import ResponderJSON
import ResponderProtocol

/// A dispatching method's reply, live or dry: `{<the outcome's members>, trace, seq, seqRange}`, as
/// `Published<Traced<Outcome>>` encodes it, made from the trace event's bytes (12.2: the reply's trace is the
/// event's), its own members being the outcome's, copied from inside the trace. Without `trace` when the request
/// asked for none (then the reply is the event's `trace.outcome`, seq and seqRange); a dry run's ends with
/// `dryRun: true`.
struct DispatchBody<Outcome: Codable & Sendable>: ResponseBody {
    typealias Response = Published<Traced<Outcome>>
    /// The text holding the trace body (the body itself, or the trace event that carries it), where the body is in
    /// it, and where its outcome is.
    let text: [UInt8]
    let trace: Range<Int>
    let outcome: Range<Int>
    let seq: Int
    let seqRange: [Int]?
    let withTrace: Bool
    let dryRun: Bool

    init(
        text: [UInt8], trace: Range<Int>, outcome: Range<Int>, seq: Int, seqRange: [Int]?, withTrace: Bool,
        dryRun: Bool
    ) {
        self.text = text
        self.trace = trace
        self.outcome = outcome
        self.seq = seq
        self.seqRange = seqRange
        self.withTrace = withTrace
        self.dryRun = dryRun
    }

    /// The body `trace.bytes`, whole.
    init(trace: (bytes: [UInt8], outcome: Range<Int>), seq: Int, seqRange: [Int]?, withTrace: Bool, dryRun: Bool) {
        self.init(
            text: trace.bytes, trace: 0..<trace.bytes.count, outcome: trace.outcome, seq: seq, seqRange: seqRange,
            withTrace: withTrace, dryRun: dryRun)
    }

    /// The outcome's members, and with the trace the whole body besides, which holds them once more.
    var room: Int { (withTrace ? trace.count : 0) + outcome.count + (dryRun ? 80 : 64) }

    func write(to w: inout JSONWriter, typed _: (Response, inout JSONWriter) -> Bool) -> Bool {
        w.beginObject()
        w.rawMembers(text[outcome].dropFirst().dropLast())
        if withTrace { w.key(static: "trace"); w.raw(text[trace]) }
        Self.writeTail(seq: seq, seqRange: seqRange, dryRun: dryRun, to: &w)
        return true
    }

    /// `seq`, `seqRange`, and `dryRun` when it is one, then the closing brace.
    static func writeTail(seq: Int, seqRange: [Int]?, dryRun: Bool, to w: inout JSONWriter) {
        w.key(static: "seq"); w.number(Double(seq))
        w.key(static: "seqRange")
        if let seqRange {
            w.beginArray()
            for n in seqRange { w.number(Double(n)) }
            w.endArray()
        } else {
            w.null()
        }
        if dryRun { w.key(static: "dryRun"); w.bool(true) }
        w.endObject()
    }

    /// The trace event's body `{kind, steps, outcome}` of `traced`, and where its outcome is in it.
    static func traceBody(_ traced: Traced<Outcome>) -> (bytes: [UInt8], outcome: Range<Int>) {
        WireByteEncoder.traceBody(traced) ?? encodedTraceBody(traced)
    }

    /// The trace body through the tree encoder, for an outcome the byte encoder cannot stream.
    private static func encodedTraceBody(_ traced: Traced<Outcome>) -> (bytes: [UInt8], outcome: Range<Int>) {
        let body = WireEncoder.encode(traced.traceBody)
        var w = JSONWriter()
        w.beginObject()
        w.key("kind"); w.value(body["kind"] ?? .null)
        w.key("steps"); w.value(body["steps"] ?? .null)
        w.key("outcome")
        let start = w.count
        w.value(body["outcome"] ?? [:])
        let end = w.count
        w.endObject()
        return (w.takeBytes(), start..<end)
    }
}

/// A live touch dispatch's reply under `trace: "none"` (1.8): `{<the outcome's members>, seq, seqRange}`, as
/// `DispatchBody` writes it without its trace, the outcome's members written in place from the value rather than
/// written apart and copied: a tap with `trace: "none"` costs 64.4k this way and 66.5k through `DispatchBody`
/// (callgrind, release, inside request processing). `TraceDetailTests` compares the two replies.
struct UntracedTouchBody<Outcome: Codable & Sendable>: ResponseBody {
    typealias Response = Published<Traced<Outcome>>
    let outcome: TouchOutcome
    let seq: Int
    let seqRange: [Int]?

    /// A tap's outcome (≈ 1 KB) and what its writers reserve beyond it, each string's room reckoned for the worst
    /// escapes, so that the writer does not grow on the way.
    var room: Int { 2048 + 64 }

    func write(to w: inout JSONWriter, typed _: (Response, inout JSONWriter) -> Bool) -> Bool {
        w.beginObject()
        WireByteEncoder.writeMembers(of: outcome, to: &w)
        DispatchBody<Outcome>.writeTail(seq: seq, seqRange: seqRange, dryRun: false, to: &w)
        return true
    }
}
