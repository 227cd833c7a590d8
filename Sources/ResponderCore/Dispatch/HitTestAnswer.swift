import ResponderJSON
import ResponderProtocol

/// One view asked by the hit tester, by slot: what `HitVisit` says, with the view and a redirect's target as
/// slots of the answer's node table. No string and no reference, so recording a visit is a store of a few words
/// with no retain, and a list of them is freed without visiting its elements.
struct SlotVisit {
    /// The view's slot; below zero, a name that is not a node's (a dimming view): `names[-1 - slot]`.
    var slot: Int32
    /// The redirect target's slot (H6), -1 for none: a redirect names a view of the window being tested.
    var to: Int32 = -1
    var result: HitResult = .miss
    var reason: HitReason? = nil
    var rule: Rule = .h2
    var point: Point?
}

/// A hit test's answer, its visits by slot; ids are written from the node table only when the answer is written
/// or turned into the wire's values (`outcome`, `hitVisit(_:)`).
///
/// Why the slots keep meaning the views they meant: the answer holds its own copy of the node table (a value:
/// its chunks are shared with the world's until either side changes one, and then only that chunk is copied),
/// so a mutation after the hit test — a later request, a rollback — cannot make a freed slot name another node
/// here. Holding it costs a few retains; a copy of a chunk is paid only by an answer kept across a change, which
/// the request that writes it at once never is. What outlives its request (a touch's trace in the replay ring,
/// a deferred event) takes its visits as ids at once (`hitVisit(_:)`) and keeps no answer.
public struct HitTestAnswer {
    /// The window and view hit (nil when nothing is), with the point in the window's and the view's bounds.
    public let window: String?
    public let view: String?
    public let windowPoint: Point?
    public let localPoint: Point?
    let visits: [SlotVisit]
    /// Ids that name no node (dimming views), for the visits whose slot is below zero.
    let names: [String]
    let nodes: NodeTable

    init(
        window: String?, view: String?, windowPoint: Point?, localPoint: Point?, visits: [SlotVisit], names: [String],
        nodes: NodeTable
    ) {
        self.window = window
        self.view = view
        self.windowPoint = windowPoint
        self.localPoint = localPoint
        self.visits = visits
        self.names = names
        self.nodes = nodes
    }

    /// How many views were asked.
    public var visitCount: Int { visits.count }

    /// The id a visit's slot names.
    func id(_ slot: Int32) -> String { HitAnswerText.id(slot, names: names, nodes: nodes) }

    /// Visit `i` as the wire has it.
    public func hitVisit(_ i: Int) -> HitVisit { HitAnswerText.hitVisit(visits[i], names: names, nodes: nodes) }

    /// The wire's outcome, every visit with its ids.
    public var outcome: HitTestOutcome {
        HitTestOutcome(
            window: window, view: view, localPoint: localPoint, visited: visits.indices.map { hitVisit($0) })
    }

    // MARK: - Written

    /// The bytes of `Traced<HitTestOutcome>` for this answer (`SessionState.hitTest(at:)`'s value, written as
    /// the wire encoder would), with no `HitVisit` or step made.
    public var tracedReply: [UInt8] {
        var w = JSONWriter(reservingCapacity: tracedReplyRoom)
        writeTracedReply(to: &w)
        return w.takeBytes()
    }

    /// Room for the traced reply (`HitAnswerText.tracedRoom`).
    public var tracedReplyRoom: Int { HitAnswerText.tracedRoom(visits: visits.count) }

    /// `tracedReply`'s text, written into `w` (a reply's envelope, as its result).
    public func writeTracedReply(to w: inout JSONWriter) {
        visits.withUnsafeBufferPointer { visits in
            HitAnswerText.writeTraced(
                window: window, view: view, localPoint: localPoint, visits: visits, names: names, nodes: nodes,
                to: &w)
        }
    }

    /// `{window, view, localPoint}`: the reply of a request that leaves the trace out.
    public func writeUntracedReply(to w: inout JSONWriter) {
        HitAnswerText.writeUntraced(window: window, view: view, localPoint: localPoint, to: &w)
    }
}

/// An answer by slot written, wherever its visits are kept (a `HitTestAnswer`'s lists, or the tester's buffers
/// kept between hit tests, `HitTestScratch`): ids are read from the node table as they are written.
enum HitAnswerText {
    /// The id a visit's slot names: a node's, or below zero one of `names` (a dimming view).
    static func id(_ slot: Int32, names: [String], nodes: NodeTable) -> String {
        slot >= 0 ? nodes.unsafeNode(atSlot: Int(slot)).pointee.spec.id : names[Int(-1 - slot)]
    }

    /// A visit as the wire has it.
    static func hitVisit(_ v: SlotVisit, names: [String], nodes: NodeTable) -> HitVisit {
        HitVisit(
            id: id(v.slot, names: names, nodes: nodes), point: v.point, result: v.result, reason: v.reason,
            rule: v.rule, to: v.to >= 0 ? id(v.to, names: names, nodes: nodes) : nil)
    }

    /// Room for the traced reply: each visit is in it three times (≈ 270 bytes); room for 200 would grow the
    /// writer once, a copy of it all.
    static func tracedRoom(visits: Int) -> Int { 512 + 288 * visits }

    /// The bytes of `Traced<HitTestOutcome>` for the answer, written into `w` (a reply's envelope, as its result).
    static func writeTraced(
        window: String?, view: String?, localPoint: Point?, visits: UnsafeBufferPointer<SlotVisit>, names: [String],
        nodes: NodeTable, to w: inout JSONWriter
    ) {
        HitTestOutcome.writeTraced(
            kind: .hitTest, visits: visits.count, to: &w,
            members: { w, positions in
                HitTestOutcome.writeAnswer(window: window, view: view, localPoint: localPoint, to: &w)
                writeVisited(visits, names: names, nodes: nodes, positions: positions, to: &w)
            },
            steps: { w, visits in
                HitTestOutcome.writeSteps(copying: visits, to: &w)
                if view == nil { SessionState.noHitStep.write(to: &w) }
            })
    }

    /// `{window, view, localPoint}`: the reply of a request that leaves the trace out.
    static func writeUntraced(window: String?, view: String?, localPoint: Point?, to w: inout JSONWriter) {
        w.beginObject()
        HitTestOutcome.writeAnswer(window: window, view: view, localPoint: localPoint, to: &w)
        w.endObject()
    }

    /// `"visited": [...]`; records in `positions` where each visit's members are, for the trace that repeats
    /// them. Invariant: `positions` has room for one per visit.
    private static func writeVisited(
        _ visits: UnsafeBufferPointer<SlotVisit>, names: [String], nodes: NodeTable,
        positions: UnsafeMutableBufferPointer<Range<Int>>, to w: inout JSONWriter
    ) {
        w.key(static: "visited")
        w.beginArray()
        // The most the members after a visit's id take, a reason's included, reckoned once for every visit:
        // reckoned per visit, it read three tables' lengths each time, about a hundred instructions.
        let afterID = HitVisit.roomAfterID(reason: .hidden)
        HitVisit.withAfterIDFragments { fragments in
            for i in visits.indices {
                (positions.baseAddress! + i).initialize(
                    to: writeVisit(
                        visits.baseAddress! + i, afterID: afterID, fragments: &fragments, names: names, nodes: nodes,
                        to: &w))
            }
        }
        w.endArray()
    }

    /// `{id, result, reason?, rule, point, to?}`, the members `HitVisit` writes in its order. A visit of a node
    /// with no redirect, nearly every one, is written with its id read where the node keeps it, copied as it is
    /// when the node's record says it needs no escape (`HitRecord.plainID`); the others go through `HitVisit`
    /// itself.
    @inline(__always)
    private static func writeVisit(
        _ v: UnsafePointer<SlotVisit>, afterID: Int, fragments: inout HitVisit.AfterIDFragments,
        names: [String], nodes: NodeTable, to w: inout JSONWriter
    ) -> Range<Int> {
        guard v.pointee.slot >= 0, v.pointee.to < 0 else {
            var visit = hitVisit(v.pointee, names: names, nodes: nodes)
            return HitVisit.writeObject(of: &visit, to: &w)
        }
        let slot = Int(v.pointee.slot)
        let node = nodes.unsafeNode(atSlot: slot)
        let plainID = nodes.hitRecord(atSlot: slot).has(HitRecord.plainID)
        let room = JSONCursor.memberRoom + JSONCursor.room(for: node.pointee.spec.id) + afterID
        return w.object(atMost: room) { c in
            c.raw("\"id\":")
            if plainID { c.string(plain: node.pointee.spec.id) } else { c.string(node.pointee.spec.id) }
            fragments.write(
                result: v.pointee.result, reason: v.pointee.reason, rule: v.pointee.rule, point: v.pointee.point,
                to: &c)
        }
    }
}

extension SessionState {
    /// H1–H8 as `hitTestAnswer(at:)`, with the tester's buffers kept in `scratch` between hit tests: the answer
    /// is left there by slot, for `writeHitTest(_:traced:to:)` to write while this world is unchanged.
    public func hitTest(at point: Point, keeping scratch: inout HitTestScratch) {
        HitTester.run(world: world, profile: profile, screen: point, keeping: &scratch)
    }

    /// The reply to the hit test kept in `scratch`, as `HitTestAnswer` writes it (`writeTracedReply(to:)`, or
    /// `writeUntracedReply(to:)`), its ids read from this world's node table: the world it was tested in,
    /// unchanged since. `scratch` is inout only to be read where it is kept: a class's property handed over as a
    /// value is copied first, a retain and a release for each of its lists.
    public func writeHitTest(_ scratch: inout HitTestScratch, traced: Bool, to w: inout JSONWriter) {
        HitAnswerText.write(scratch, nodes: world.nodes, traced: traced, to: &w)
    }
}

extension HitAnswerText {
    /// The reply to the hit test kept in `scratch`, its ids read from `nodes`, the table it was tested over.
    static func write(_ scratch: borrowing HitTestScratch, nodes: NodeTable, traced: Bool, to w: inout JSONWriter) {
        let a = scratch.answer
        let hit = a.window >= 0
        let window = hit ? nodes.unsafeNode(atSlot: Int(a.window)).pointee.spec.id : nil
        let view = hit ? id(a.view, names: scratch.names, nodes: nodes) : nil
        guard traced else {
            writeUntraced(window: window, view: view, localPoint: a.localPoint, to: &w)
            return
        }
        writeTraced(
            window: window, view: view, localPoint: a.localPoint, visits: scratch.visits.buffer,
            names: scratch.names, nodes: nodes, to: &w)
    }
}

extension HitTestScratch {
    /// Room for the traced reply to the hit test kept here.
    public var tracedReplyRoom: Int { HitAnswerText.tracedRoom(visits: visits.count) }
}
