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
    func id(_ slot: Int32) -> String {
        slot >= 0 ? nodes.unsafeNode(atSlot: Int(slot)).pointee.spec.id : names[Int(-1 - slot)]
    }

    /// Visit `i` as the wire has it.
    public func hitVisit(_ i: Int) -> HitVisit {
        let v = visits[i]
        return HitVisit(
            id: id(v.slot), point: v.point, result: v.result, reason: v.reason, rule: v.rule,
            to: v.to >= 0 ? id(v.to) : nil)
    }

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

    /// Room for the traced reply: each visit is in it three times (≈ 270 bytes); room for 200 would grow the
    /// writer once, a copy of it all.
    public var tracedReplyRoom: Int { 512 + 288 * visits.count }

    /// `tracedReply`'s text, written into `w` (a reply's envelope, as its result).
    public func writeTracedReply(to w: inout JSONWriter) {
        HitTestOutcome.writeTraced(
            kind: .hitTest, to: &w,
            members: { w in
                HitTestOutcome.writeAnswer(window: window, view: view, localPoint: localPoint, to: &w)
                return writeVisited(to: &w)
            },
            steps: { w, visits in
                for range in visits { HitTestOutcome.writeStep(copying: range, to: &w) }
                if view == nil { SessionState.noHitStep.write(to: &w) }
            })
    }

    /// `{window, view, localPoint}`: the reply of a request that leaves the trace out.
    public func writeUntracedReply(to w: inout JSONWriter) {
        w.beginObject()
        HitTestOutcome.writeAnswer(window: window, view: view, localPoint: localPoint, to: &w)
        w.endObject()
    }

    /// `"visited": [...]`; returns where each visit's members are, for the trace that repeats them.
    private func writeVisited(to w: inout JSONWriter) -> [Range<Int>] {
        w.key(static: "visited")
        w.beginArray()
        var ranges: [Range<Int>] = []
        ranges.reserveCapacity(visits.count)
        visits.withUnsafeBufferPointer { visits in
            for i in visits.indices { ranges.append(writeVisit(i, visits.baseAddress! + i, to: &w)) }
        }
        w.endArray()
        return ranges
    }

    /// `{id, result, reason?, rule, point, to?}`, the members `HitVisit` writes in its order. A visit of a node
    /// with no redirect, nearly every one, is written with its id read where the node keeps it; the others go
    /// through `HitVisit` itself.
    @inline(__always)
    private func writeVisit(_ i: Int, _ v: UnsafePointer<SlotVisit>, to w: inout JSONWriter) -> Range<Int> {
        guard v.pointee.slot >= 0, v.pointee.to < 0 else {
            var visit = hitVisit(i)
            return HitVisit.writeObject(of: &visit, to: &w)
        }
        let node = nodes.unsafeNode(atSlot: Int(v.pointee.slot))
        let room =
            JSONCursor.memberRoom + JSONCursor.room(for: node.pointee.spec.id)
            + HitVisit.roomAfterID(reason: v.pointee.reason)
        return w.object(atMost: room) { c in
            c.raw("\"id\":"); c.string(node.pointee.spec.id)
            HitVisit.writeAfterID(
                result: v.pointee.result, reason: v.pointee.reason, rule: v.pointee.rule, point: v.pointee.point,
                to: &c)
        }
    }
}
