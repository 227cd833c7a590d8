import ResponderJSON

/// Hit-test visits are most of a hit test's reply (each visit is written three times: `visited`, a `hitTest`
/// step, the trace's `outcome`), so they skip Codable and are written by hand — the same members, in the
/// same order, as their `Codable` conformances (the byte-identity tests compare the two).
///
/// Kept for what it saves (callgrind, release, inside request processing): `hitTest` over 1,110 views costs
/// 51.6k answered as a `Traced<HitTestOutcome>` value written by these writers (and the steps'), and 790.7k
/// with that value written by `Codable` through `WireByteEncoder`'s general stream. (Answered from the slots the
/// session keeps, `HitTestBody`, it is 18.3k.)
extension HitVisit {
    /// `{id, result, reason?, rule, point, to?}`.
    func write(to w: inout JSONWriter) {
        w.beginObject()
        writeMembers(to: &w)
        w.endObject()
    }

    func writeMembers(to w: inout JSONWriter) {
        withUnsafePointer(to: self) { Self.writeMembers(of: $0, to: &w) }
    }

    /// In one piece (`JSONWriter.members`): written key by key, a visit would be a dozen capacity checks and
    /// separator decisions, and visits are most of a hit test's reply. Read where it is stored (`HitTestOutcome`
    /// passes its list's elements), not copied to be handed over.
    static func writeMembers(of v: UnsafePointer<HitVisit>, to w: inout JSONWriter) {
        w.members(atMost: room(of: v)) { write(v, to: &$0) }
    }

    /// `{<members>}` as one value; returns where the members are.
    public static func writeObject(of v: UnsafePointer<HitVisit>, to w: inout JSONWriter) -> Range<Int> {
        w.object(atMost: room(of: v)) { write(v, to: &$0) }
    }

    /// The most the members take.
    @inline(__always)
    static func room(of v: UnsafePointer<HitVisit>) -> Int { room(of: v.pointee) }

    /// The most the members of a visit borrowed where it is (a trace step's) take.
    @inline(__always)
    static func room(of v: borrowing HitVisit) -> Int { room(of: v, tables: AfterIDTables()) }

    /// `room(of:)` with the cases' tables read once for many visits (a trace's `TraceTexts`).
    @inline(__always)
    static func room(of v: borrowing HitVisit, tables: AfterIDTables) -> Int {
        var room =
            4 * JSONCursor.memberRoom + JSONCursor.room(for: v.id) + tables.result.longest + tables.rule.longest
            + JSONCursor.pointRoom
        if v.reason != nil { room += JSONCursor.memberRoom + tables.reason.longest }
        if let to = v.to { room += JSONCursor.memberRoom + JSONCursor.room(for: to) }
        return room
    }

    @inline(__always)
    static func write(_ v: UnsafePointer<HitVisit>, to c: inout JSONCursor) { write(v.pointee, to: &c) }

    @inline(__always)
    static func write(_ v: borrowing HitVisit, to c: inout JSONCursor) { write(v, tables: AfterIDTables(), to: &c) }

    /// `write(_:to:)` with the cases' tables read once for many visits (a trace's `TraceTexts`).
    @inline(__always)
    static func write(_ v: borrowing HitVisit, tables: AfterIDTables, to c: inout JSONCursor) {
        c.raw("\"id\":"); c.string(v.id)
        writeAfterID(result: v.result, reason: v.reason, rule: v.rule, point: v.point, tables: tables, to: &c)
        if let to = v.to { c.raw(",\"to\":"); c.string(to) }
    }

    /// `,"result":…,"reason":…,"rule":…,"point":…`: the members between the id and a redirect's `to`, for any
    /// form of a visit (the core's keeps the view as a slot and writes its id itself).
    @inline(__always)
    public static func writeAfterID(
        result: HitResult, reason: HitReason?, rule: Rule, point: Point?, to c: inout JSONCursor
    ) {
        writeAfterID(result: result, reason: reason, rule: rule, point: point, tables: AfterIDTables(), to: &c)
    }

    /// The texts of the cases `writeAfterID` writes, read once for a reply's visits: each table is a lazy
    /// static, and each read of one is a call that checks it is made, three a visit.
    public struct AfterIDTables: Sendable {
        let result: QuotedCases
        let reason: QuotedCases
        let rule: QuotedCases

        public init() { self.init(result: HitResult.quoted, reason: HitReason.quoted, rule: Rule.quoted) }

        init(result: QuotedCases, reason: QuotedCases, rule: QuotedCases) {
            self.result = result
            self.reason = reason
            self.rule = rule
        }
    }

    /// `writeAfterID` with the tables read once (`AfterIDTables`).
    @inline(__always)
    public static func writeAfterID(
        result: HitResult, reason: HitReason?, rule: Rule, point: Point?, tables: AfterIDTables,
        to c: inout JSONCursor
    ) {
        writeBeforePoint(result: result, reason: reason, rule: rule, tables: tables, to: &c)
        c.point(point)
    }

    /// `writeAfterID` up to the point's value: `,"result":…,"reason":…,"rule":…,"point":`.
    @inline(__always)
    static func writeBeforePoint(
        result: HitResult, reason: HitReason?, rule: Rule, tables: AfterIDTables, to c: inout JSONCursor
    ) {
        c.raw(",\"result\":"); c.quoted(tables.result.text(of: result))
        if let reason { c.raw(",\"reason\":"); c.quoted(tables.reason.text(of: reason)) }
        c.raw(",\"rule\":"); c.quoted(tables.rule.text(of: rule))
        c.raw(",\"point\":")
    }

    /// The most `writeAfterID` takes.
    public static func roomAfterID(reason: HitReason?) -> Int {
        3 * JSONCursor.memberRoom + HitResult.quoted.longest + Rule.quoted.longest + JSONCursor.pointRoom
            + (reason == nil ? 0 : JSONCursor.memberRoom + HitReason.quoted.longest)
    }
}

extension Point {
    /// `[x,y]`.
    public func write(to w: inout JSONWriter) {
        w.beginArray()
        w.number(x)
        w.number(y)
        w.endArray()
    }
}

extension HitTestOutcome {
    /// `window, view, localPoint, visited`, nil as null, as the synthesized `Codable` writes them. Returns where
    /// each visit's members are in the writer's text, for a reply that repeats them (`Traced.write`).
    @discardableResult
    func writeMembers(to w: inout JSONWriter) -> [Range<Int>] {
        writeAnswer(to: &w)
        w.key(static: "visited")
        w.beginArray()
        var ranges: [Range<Int>] = []
        ranges.reserveCapacity(visited.count)
        // Each visit read where it is, through a pointer: a visit handed to a method beside the writer (`inout`)
        // is copied first, a retain and a release per string, as the compiler cannot tell the two apart.
        visited.withUnsafeBufferPointer { visits in
            for i in visits.indices { ranges.append(HitVisit.writeObject(of: visits.baseAddress! + i, to: &w)) }
        }
        w.endArray()
        return ranges
    }
}

extension HitTestOutcome {
    /// `window, view, localPoint`: the answer, without the views asked.
    func writeAnswer(to w: inout JSONWriter) {
        Self.writeAnswer(window: window, view: view, localPoint: localPoint, to: &w)
    }

    /// `window, view, localPoint` of any form of the answer (the core's keeps its visits by slot).
    public static func writeAnswer(window: String?, view: String?, localPoint: Point?, to w: inout JSONWriter) {
        w.key(static: "window"); w.string(orNull: window)
        w.key(static: "view"); w.string(orNull: view)
        w.key(static: "localPoint")
        if let localPoint { localPoint.write(to: &w) } else { w.null() }
    }
}

extension Traced where Outcome == HitTestOutcome {
    /// The hitTest reply: the outcome's members, then `trace: {kind, steps, outcome}` (see `Traced.encode`).
    /// Each view asked is in it three times (`visited`, its `hitTest` step, the trace's `outcome`): it is
    /// written once and its bytes copied for the other two.
    func write(to w: inout JSONWriter) {
        outcome.writeTraced(kind: trace.kind, to: &w) { w, visits in
            for (i, step) in trace.steps.enumerated() {
                // A step is a visit's copy only when it is that visit, with nothing added.
                if case .hitTest(let visit, nil) = step, i < visits.count, visit == outcome.visited[i] {
                    HitTestOutcome.writeStep(copying: visits[i], to: &w)
                } else {
                    step.write(to: &w)
                }
            }
        }
    }
}

extension HitTestOutcome {
    fileprivate func writeTraced(
        kind: TraceKind, to w: inout JSONWriter, steps: (inout JSONWriter, [Range<Int>]) -> Void
    ) {
        Self.writeTraced(kind: kind, to: &w, members: { writeMembers(to: &$0) }, steps: steps)
    }

    /// `{<members>, trace: {kind, steps, outcome}}`: `members` writes the outcome's members and returns where
    /// each visit's members are, `steps` the steps given those; the trace's `outcome` is a copy of the members.
    /// Any form of the answer writes its reply through it (the core's keeps its visits by slot).
    public static func writeTraced(
        kind: TraceKind, to w: inout JSONWriter, members writeMembers: (inout JSONWriter) -> [Range<Int>],
        steps: (inout JSONWriter, [Range<Int>]) -> Void
    ) {
        var visits: [Range<Int>] = []
        writeEnvelope(kind: kind, to: &w, members: { visits = writeMembers(&$0) }, steps: { steps(&$0, visits) })
    }

    /// `writeTraced(kind:to:members:steps:)` for an answer of `count` visits, where `members` records where each
    /// visit's members are in room lent for the reply (on the stack), not in a list it allocates and frees.
    public static func writeTraced(
        kind: TraceKind, visits count: Int, to w: inout JSONWriter,
        members writeMembers: (inout JSONWriter, UnsafeMutableBufferPointer<Range<Int>>) -> Void,
        steps: (inout JSONWriter, UnsafeBufferPointer<Range<Int>>) -> Void
    ) {
        withUnsafeTemporaryAllocation(of: Range<Int>.self, capacity: count) { visits in
            writeEnvelope(
                kind: kind, to: &w, members: { writeMembers(&$0, visits) },
                steps: { steps(&$0, UnsafeBufferPointer(visits)) })
        }
    }

    /// `{<members>, trace: {kind, steps, outcome}}`, the members and steps written by the two bodies.
    private static func writeEnvelope(
        kind: TraceKind, to w: inout JSONWriter, members writeMembers: (inout JSONWriter) -> Void,
        steps: (inout JSONWriter) -> Void
    ) {
        w.beginObject()
        let membersStart = w.count
        writeMembers(&w)
        let members = membersStart..<w.count
        w.key(static: "trace")
        w.beginObject()
        w.key(static: "kind"); w.string(kind)
        w.key(static: "steps")
        w.beginArray()
        steps(&w)
        w.endArray()
        w.key(static: "outcome")
        w.beginObject()
        w.copyMembers(members)
        w.endObject()
        w.endObject()
        w.endObject()
    }

    /// A `hitTest` step with no touch: `step`, then the visit's members already written at `visit`.
    public static func writeStep(copying visit: Range<Int>, to w: inout JSONWriter) {
        // `TraceStep.hitTestName`, as a literal: in one piece with the braces and the copy, one write where five
        // would each make a capacity check and a comma decision.
        w.object(prefix: #""step":"hitTest","#, copying: visit)
    }

    /// `writeStep(copying:)` for each of `visits` in turn, in one piece (`JSONWriter.objects`).
    public static func writeSteps(copying visits: UnsafeBufferPointer<Range<Int>>, to w: inout JSONWriter) {
        w.objects(prefix: #""step":"hitTest","#, copying: visits)
    }
}

extension JSONCursor {
    /// A case's text from its table (`QuotedCases.text(of:)`).
    @inline(__always)
    fileprivate mutating func quoted(_ t: (start: UnsafePointer<UInt8>, count: Int)) { raw(quoted: t.start, t.count) }
}
