import ResponderProtocol

/// The hit tester's buffers, kept between hit tests by what runs many of them (a session's host), so that their
/// room is made once; after a hit test (`SessionState.hitTest(at:keeping:)`), its answer by slot, written from
/// here (`SessionState.writeHitTest(_:traced:to:)`) with no id string, no list made and no copy of the node
/// table. Its slots name the views only of the world it was tested in, as it is then: it is written before that
/// world changes, or not at all (an answer that outlives the world is a `HitTestAnswer`).
///
/// It cannot be copied: it owns the memory of the walk's lists (`HitBuffer`), which it frees when it goes.
public struct HitTestScratch: ~Copyable {
    var visits: HitBuffer<SlotVisit>
    /// Ids of the views asked that are no nodes (dimming views): a visit's slot below zero names one.
    var names: [String] = []
    fileprivate var stack: HitBuffer<HitWalk.Frame>
    /// K17, K18: the dimming views of the window being tested, asked where the window's subviews list them.
    var dimmings: [Dimming] = []
    /// K9: the window's subviews in presentation order when something is presented (the window's frame reads
    /// them here rather than where the table keeps its children).
    var presentationOrder: [Int32] = []
    /// H1: the windows in the order they are tried, and their levels while they are sorted.
    var windows: HitBuffer<Int32>
    var levels: [Double] = []
    /// The last hit test's answer.
    var answer = HitSlots()

    public init() {
        visits = HitBuffer(capacity: 32)
        stack = HitBuffer(capacity: 16)
        windows = HitBuffer(capacity: 4)
    }

    /// Buffers in room lent to them (`HitBuffer.init(in:)`), for one hit test.
    fileprivate init(
        visits: UnsafeMutableBufferPointer<SlotVisit>, stack: UnsafeMutableBufferPointer<HitWalk.Frame>,
        windows: UnsafeMutableBufferPointer<Int32>
    ) {
        self.visits = HitBuffer(in: visits)
        self.stack = HitBuffer(in: stack)
        self.windows = HitBuffer(in: windows)
    }

    deinit {
        visits.deallocate()
        stack.deallocate()
        windows.deallocate()
    }

    /// How many views the last hit test asked.
    public var visitCount: Int { visits.count }
}

/// A hit test's answer by slot: the window's (-1 when nothing is hit) and the view's, as a visit names it.
struct HitSlots {
    var window: Int32 = -1
    var view: Int32 = -1
    var windowPoint: Point?
    var localPoint: Point?
}

/// UIKit's recursive hitTest(_:with:) run with an explicit stack, so a tree of any depth is safe.
///
/// The walk goes by slot (`NodeTable`): a view is read where it is stored and its subviews are its children's
/// slots, read where the table keeps them, so no id is hashed or compared and no string or array is retained per
/// view asked. A visit is recorded by slot (`SlotVisit`); ids are produced only for the answer (its window and
/// view) and, when it is written, for the visits (`HitTestAnswer`, `HitAnswerText`).
///
/// A namespace: the world and profile are handed to each hit test, which reads the world where it is
/// (`HitWalk`).
enum HitTester {
    /// H1: windows in descending windowLevel, ties the later window first; the first window whose hit
    /// test answers a view wins. Detached subtrees are never tried. Windows by slot.
    static func windowOrder(_ world: World) -> [Int32] {
        var windows = HitBuffer<Int32>(capacity: 4)
        defer { windows.deallocate() }
        var levels: [Double] = []
        HitWalk.windowOrder(world, into: &windows, levels: &levels)
        return Array(windows.buffer)
    }

    /// The hit test's answer made for itself, with its ids and its own lists (`HitTestAnswer`). The walk's
    /// buffers start in room on this call's stack (a few levels of views; they move to the heap if the walk
    /// outgrows it), so only the answer's list of visits is allocated.
    static func answer(world: World, profile: Profile, screen: Point) -> HitTestAnswer {
        withUnsafeTemporaryAllocation(of: SlotVisit.self, capacity: 24) { visits in
            withUnsafeTemporaryAllocation(of: HitWalk.Frame.self, capacity: 8) { stack in
                withUnsafeTemporaryAllocation(of: Int32.self, capacity: 4) { windows in
                    var scratch = HitTestScratch(visits: visits, stack: stack, windows: windows)
                    run(world: world, profile: profile, screen: screen, keeping: &scratch)
                    let a = scratch.answer
                    let hit = a.window >= 0
                    return HitTestAnswer(
                        window: hit ? world.nodes.unsafeNode(atSlot: Int(a.window)).pointee.spec.id : nil,
                        view: hit ? HitAnswerText.id(a.view, names: scratch.names, nodes: world.nodes) : nil,
                        windowPoint: a.windowPoint, localPoint: a.localPoint, visits: Array(scratch.visits.buffer),
                        names: scratch.names, nodes: world.nodes)
                }
            }
        }
    }

    /// `answer(world:profile:screen:)` with the buffers kept in `scratch`, which holds the answer by slot
    /// afterwards. The world is read where it is, not copied: a copy is a retain and a release for each of its
    /// references.
    static func run(world: World, profile: Profile, screen: Point, keeping scratch: inout HitTestScratch) {
        HitWalk.windowOrder(world, into: &scratch.windows, levels: &scratch.levels)
        withUnsafePointer(to: world) { world in
            withUnsafeMutablePointer(to: &scratch) { kept in
                var walk = HitWalk(world: world, profile: profile, kept: kept)
                walk.run(screen: screen)
            }
        }
    }

    /// The checks a view makes whatever the point (`HitWalk.exclusion`).
    @inline(__always)
    static func exclusion(
        _ node: UnsafePointer<Node>, _ id: @autoclosure () -> String, world: World, profile: Profile
    ) -> (reason: HitReason, rule: Rule)? {
        HitWalk.exclusion(node, id(), world: world, profile: profile)
    }
}

/// One hit test's walk over a world it reads where it is kept (`world`, through its address: the world does not
/// change or go while the walk runs), into the buffers of a `HitTestScratch` (`kept`, also through its address).
///
/// The walk holds the visits and the stack itself while it runs (`HitBuffer`s, its own values, handed back to
/// `kept` when it ends), so that a visit or a frame is a store with no uniqueness check; the view being asked
/// about is in a local frame (`top`), and the stack holds only the views above it.
struct HitWalk {
    /// Read through its address (`world.pointee`): a property that yields the world is a read of the walk
    /// itself, which changes to its lists overlap, and the compiler copies the world for them.
    let world: UnsafePointer<World>
    /// The scratch's rarer lists (the names, the dimmings, the presentation order) and the answer.
    let kept: UnsafeMutablePointer<HitTestScratch>
    private var visits: HitBuffer<SlotVisit>
    private var stack: HitBuffer<Frame>
    /// H2's alpha test under the profile's boundary: `HitRecord.hittableInclusive` or `hittableExclusive`.
    private let hittable: UInt32
    /// A view whose record, under `plainMask`, is `plain` passes every check but its bounds (`ask`).
    private let plainMask: UInt32
    /// `hittable`, or a value no record has under `plainMask` when something is presented (K9: every view is then
    /// asked whether it is presented over).
    private let plain: UInt32
    /// Whether something is presented (K9): a window's subviews are then asked in presentation order.
    private let presenting: Bool
    /// The slot of the window being tested: every frame of one window's walk shares it.
    private var windowSlot: Int32 = -1

    init(world: UnsafePointer<World>, profile: Profile, kept: UnsafeMutablePointer<HitTestScratch>) {
        self.world = world
        self.kept = kept
        visits = kept.pointee.visits
        stack = kept.pointee.stack
        hittable =
            profile.alphaBoundary == .inclusive ? HitRecord.hittableInclusive : HitRecord.hittableExclusive
        plainMask = HitRecord.excluding | HitRecord.hasInsets | HitRecord.redirectWhenNil | hittable
        presenting = !world.pointee.presented.isEmpty
        plain = presenting ? ~0 : hittable
    }

    /// The id of the window being tested, for the rare checks that name it (a redirect, a passthrough view).
    private var window: String { world.pointee.nodes.unsafeNode(atSlot: Int(windowSlot)).pointee.spec.id }

    /// `HitTester.windowOrder(_:)` into lists kept between hit tests (their room made once). Called with the
    /// world as a value, before a walk holds its address: read through an address beside a change to the lists,
    /// the table would be copied for the read.
    static func windowOrder(_ world: World, into windows: inout HitBuffer<Int32>, levels: inout [Double]) {
        windows.removeAll()
        let app = world.nodes.applicationSlot
        guard app >= 0 else { return }
        for child in world.nodes.unsafeChildSlots(ofSlot: app) where child >= 0 {
            if world.nodes.unsafeNode(atSlot: Int(child)).pointee.spec.kind == .window { windows.append(child) }
        }
        guard windows.count > 1 else { return }
        // Levels only to sort: one window, nearly every world, needs no list of them.
        levels.removeAll(keepingCapacity: true)
        for w in windows.buffer { levels.append(world.nodes.unsafeNode(atSlot: Int(w)).pointee.spec.windowLevel) }
        let order = levels.indices.sorted { a, b in levels[a] != levels[b] ? levels[a] > levels[b] : a > b }
        let sorted = order.map { windows[$0] }
        for (i, w) in sorted.enumerated() { windows[i] = w }
    }

    /// The hit test over the windows in `kept.windows` (`windowOrder`), its answer left by slot in the kept
    /// buffers (`kept.answer`), which take back the visits and the stack.
    mutating func run(screen: Point) {
        visits.removeAll()
        if !kept.pointee.names.isEmpty { kept.pointee.names.removeAll(keepingCapacity: true) }
        kept.pointee.answer = HitSlots()
        defer {
            kept.pointee.visits = visits
            kept.pointee.stack = stack
        }
        let windows = kept.pointee.windows
        for i in 0..<windows.count {
            let slot = windows[i]
            let q = SuperviewConversion(world.pointee.nodes.unsafeNode(atSlot: Int(slot))).apply(screen)
            if let answer = hitTest(root: slot, point: q) {
                // A view that answered for itself was asked with the point in its own coordinates (H4 applied on
                // the way down, as `convert` would apply it); only a redirect's target is converted.
                var local = answer.point
                if local == nil, let q { local = world.pointee.convert(q, fromWindow: window, to: name(answer.slot)) }
                kept.pointee.answer = HitSlots(window: slot, view: answer.slot, windowPoint: q, localPoint: local)
                return
            }
        }
    }

    /// The id a visit's slot names (as `HitTestAnswer.id`).
    private func name(_ slot: Int32) -> String {
        slot >= 0
            ? world.pointee.nodes.unsafeNode(atSlot: Int(slot)).pointee.spec.id : kept.pointee.names[Int(-1 - slot)]
    }

    // MARK: - One window's tree

    /// A view whose subviews are being asked: its slot, its subviews and the next of them to ask, its visit,
    /// and the point it is asked about, in its bounds.
    fileprivate struct Frame {
        /// The subviews' slots, back to front, where the table keeps them (-1 for an id that names no node), or
        /// for a window when something is presented, in `presentationOrder` (where a dimming view is below -1).
        var subviews: UnsafePointer<Int32>?
        var slot: Int32
        /// Index of the next subview to ask, counting down from the front-most (H2.2).
        var next: Int32
        var visit: Int32
        var point: Point
    }

    /// A view's answer (its slot, as a visit's), with the point it was asked about when it answered for itself
    /// (nil after a redirect).
    private typealias Answer = (slot: Int32, point: Point?)

    /// What asking a view before its subviews comes to (`ask`). Below zero: `passed` (its subviews are asked
    /// next), `answeredNil`; otherwise the slot of a redirect's target, which answers with no point.
    private static let passed: Int32 = -1
    private static let answeredNil: Int32 = -2

    /// hitTest(root, p) for one window. The view whose subviews are being asked is `top`, a local value; the
    /// views above it, each with a subview being asked, are on the stack.
    ///
    /// A view that passes its checks is recorded as hit (H2) when its frame is made: that is its visit unless
    /// its own override changes it when it answers for itself (`answerSelf`), so an answer found below it goes
    /// back up with nothing more to record.
    private mutating func hitTest(root: Int32, point: Point?) -> Answer? {
        windowSlot = root
        stack.removeAll()
        let node = world.pointee.nodes.unsafeNode(atSlot: Int(root))
        let asked = ask(root, point, world.pointee.nodes.hitRecord(atSlot: Int(root)), node)
        if asked >= 0 { return (asked, nil) }
        if asked != Self.passed { return nil }
        var top = frame(root, node, point!, window: true)
        while true {
            if top.next >= 0 {
                let candidate = top.subviews.unsafelyUnwrapped[Int(top.next)]
                top.next -= 1
                if candidate >= 0 {
                    // H2.2: the first non-nil answer wins; the views behind it are never asked.
                    if let subview = askChild(candidate, in: top.point) {
                        guard subview.passed else { return (subview.slot, nil) }
                        stack.append(top)
                        top = frame(subview.slot, subview.node, subview.point, window: false)
                    }
                } else if candidate < -1, let a = dimmingAnswer(kept.pointee.dimmings[Int(-2 - candidate)], top.point) {
                    return a
                }
                continue
            }
            // H2.3: no subview answered, so the view answers itself (then its override).
            if let a = answerSelf(top) { return a }
            // H6 pass-through-self: nil instead of itself; its superview goes on with the views behind.
            if stack.isEmpty { return nil }
            top = stack.removeLast()
        }
    }

    /// A subview asked, as `hitTestSubviews` lists it: a view itself, a child controller's root view, nothing
    /// else; the point in its superview's bounds is converted into its own (H4). Nil when it answers nil or is
    /// not asked; otherwise the view that passed its checks, for a frame of its own, or a redirect's target
    /// (`passed` false), which answers.
    ///
    /// The view's point-free questions are read from its `HitRecord`; its frame and bounds origin, inline in the
    /// node, through the node's address (`NodeTable.unsafeNode`): the world does not change while the walk
    /// reads it. A transform, insets or a redirect are read from the node only by a view whose record has one.
    @inline(__always)
    private mutating func askChild(_ child: Int32, in p: Point) -> Subview? {
        var slot = child
        var record = world.pointee.nodes.hitRecord(atSlot: Int(slot))
        if record.has(HitRecord.viewController) {
            // A child controller: its root view is asked in its place.
            slot = world.pointee.nodes.withChildSlots(ofSlot: Int(slot)) { $0.first ?? -1 }
            guard slot >= 0 else { return nil }
            record = world.pointee.nodes.hitRecord(atSlot: Int(slot))
        }
        guard record.has(HitRecord.subviewKind) else { return nil }
        let node = world.pointee.nodes.unsafeNode(atSlot: Int(slot))
        let point: Point?
        if record.has(HitRecord.hasTransform) {
            point = SuperviewConversion(node).apply(p)
        } else {
            let frame = node.pointee.spec.frame, origin = node.pointee.spec.boundsOrigin
            point = Point(p.x - frame.x + origin.x, p.y - frame.y + origin.y)
        }
        let asked = ask(slot, point, record, node)
        if asked == Self.passed { return Subview(slot: slot, node: node, point: point!, passed: true) }
        if asked >= 0 { return Subview(slot: asked, node: node, point: p, passed: false) }
        return nil
    }

    /// What asking a subview comes to when it does not answer nil (`askChild`).
    private struct Subview {
        var slot: Int32
        var node: UnsafePointer<Node>
        var point: Point
        /// The view passed its checks (its subviews are asked next); otherwise `slot` is a redirect's target.
        var passed: Bool
    }

    /// The checks a view makes before asking its subviews (H2.1, H3, H5, H6 never, H7), and its visit, recorded
    /// whole: `passed` when it goes on to its subviews (`frame`), `answeredNil`, or a redirect's target's slot.
    ///
    /// Most views asked are plain: no point-free check refuses them, nothing is presented, and they have no
    /// hit-area insets or redirect, so only their bounds are tested (H3). The others take every check in order
    /// (`askFully`).
    @inline(__always)
    private mutating func ask(_ slot: Int32, _ point: Point?, _ record: HitRecord, _ node: UnsafePointer<Node>)
        -> Int32
    {
        guard record.bits & plainMask == plain, let p = point else { return askFully(slot, point, record, node) }
        // H3 point(inside:) on the bounds. H5: a subview is only asked when its superview contained the point,
        // so clipsToBounds plays no part.
        guard Self.bounds(node, contain: p) else {
            visits.append(SlotVisit(slot: slot, reason: .outsideBounds, rule: .h3, point: p))
            return Self.answeredNil
        }
        return Self.passed
    }

    /// `Rect.contains` on the view's bounds, read in place. An empty rect needs no test of its own: with a width
    /// or height of zero or less, no point lies at or after its origin and before its far edge.
    @inline(__always)
    private static func bounds(_ node: UnsafePointer<Node>, contain p: Point) -> Bool {
        let origin = node.pointee.spec.boundsOrigin, frame = node.pointee.spec.frame
        return p.x >= origin.x && p.y >= origin.y && p.x < origin.x + frame.width && p.y < origin.y + frame.height
    }

    /// `ask` for a view that is not plain: the checks in their order, then its point test, then a redirect when
    /// it answers nil.
    @inline(never)
    private mutating func askFully(_ slot: Int32, _ point: Point?, _ record: HitRecord, _ node: UnsafePointer<Node>)
        -> Int32
    {
        let exclusion: (reason: HitReason, rule: Rule)?
        if let excluded = recordExclusion(record, node) {
            if excluded.reason == .never {
                // H6 never: always nil, the whole subtree is hidden from touches.
                visits.append(SlotVisit(slot: slot, result: .skipped, reason: .never, rule: .h6, point: point))
                return Self.answeredNil
            }
            exclusion = excluded
        } else if let p = point {
            // H3 point(inside:) on the bounds (H6: inset by the declared hit-area insets).
            if record.has(HitRecord.hasInsets) {
                let insets = node.pointee.spec.hitTestInsets
                exclusion = node.pointee.spec.bounds.inset(by: insets).contains(p) ? nil : (.outsideBounds, .h6)
            } else {
                exclusion = node.pointee.spec.bounds.contains(p) ? nil : (.outsideBounds, .h3)
            }
        } else {
            exclusion = (.singularTransform, .h4)
        }
        // Passed: its point was tested, so it has one.
        guard let (reason, rule) = exclusion else { return Self.passed }
        let index = visits.count
        visits.append(SlotVisit(slot: slot, reason: reason, rule: rule, point: point))
        // H6 redirect when nil: the override replaces super's nil answer.
        if record.has(HitRecord.redirectWhenNil), let r = node.pointee.spec.hitTestRedirect,
            let target = validRedirect(r.to)
        {
            redirected(index, to: target)
            return target
        }
        return Self.answeredNil
    }

    /// The view in `slot` passed its checks: its visit, recorded as hit (H2), and the frame for its subviews.
    @inline(__always)
    private mutating func frame(_ slot: Int32, _ node: UnsafePointer<Node>, _ point: Point, window: Bool) -> Frame {
        let visit = Int32(truncatingIfNeeded: visits.count)
        visits.append(SlotVisit(slot: slot, result: .hit, rule: .h2, point: point))
        // K9: a window's subviews in presentation order when something is presented. Otherwise, as any other
        // view's, its children are asked as they are, each resolved when it is asked: most are never asked
        // (H2.2), so resolving a window's children up front would mostly be wasted.
        let subviews =
            window && presenting ? presentationOrder(node) : world.pointee.nodes.unsafeChildSlots(ofSlot: Int(slot))
        return Frame(
            subviews: subviews.baseAddress, slot: slot, next: Int32(truncatingIfNeeded: subviews.count - 1),
            visit: visit, point: point)
    }

    /// K9: the window's subviews in presentation order, its controllers resolved to their root views, and its
    /// dimming views among them (K17, K18; `dimmings[i]` stored as `-2 - i`), kept in `kept` for the walk.
    @inline(never)
    private func presentationOrder(_ node: UnsafePointer<Node>) -> UnsafeBufferPointer<Int32> {
        let id = node.pointee.spec.id
        let dimmings = world.pointee.dimmings(in: id)
        kept.pointee.dimmings = dimmings
        kept.pointee.presentationOrder = world.pointee.withDimmings(world.pointee.hitTestSubviews(of: id), dimmings)
            .map { id in
                if let d = dimmings.firstIndex(where: { $0.id == id }) { return Int32(-2 - d) }
                return world.pointee.nodes.slot(of: id).map { Int32(truncatingIfNeeded: $0) } ?? -1
            }
        // Not changed again while the walk reads it: its storage stays where it is.
        return kept.pointee.presentationOrder.withUnsafeBufferPointer { $0 }
    }

    /// The checks a view makes whatever the point, in the order it makes them (H6 never, H2.1, K1, K10, K9, H7):
    /// nil when it goes on to its point test. `whyNot` asks the same of every view between a window and a view.
    /// `id` is asked for only when something is presented (K9).
    @inline(__always)
    static func exclusion(
        _ node: UnsafePointer<Node>, _ id: @autoclosure () -> String, world: World, profile: Profile
    ) -> (reason: HitReason, rule: Rule)? {
        if node.pointee.spec.hitTestMode == .never { return (.never, .h6) }
        if node.pointee.spec.hidden { return (.hidden, .h2) }
        // Each view checks only its own alpha.
        if !profile.isHittable(alpha: node.pointee.spec.alpha) { return (.alpha, .h2) }
        if !node.pointee.spec.userInteractionEnabled {
            // K1: the class default (an image view, a label) when the node does not set it.
            return (.interactionDisabled, node.pointee.spec.interactionSetting == nil ? .k1 : .h2)
        }
        // K10: the model frame is tested, as UIKit does.
        if node.pointee.spec.animatingAllowsInteraction == false { return (.animating, .k10) }
        if !world.presented.isEmpty, world.presentedOver(id()) { return (.presentedOver, .k9) }
        if node.pointee.spec.kind.isControl && !node.pointee.spec.enabled { return (.disabledControl, .h7) }
        return nil
    }

    /// `exclusion` read from the view's `HitRecord`, in the same order: the node itself is read only when
    /// something is presented (K9, which asks for its id).
    private func recordExclusion(_ r: HitRecord, _ node: UnsafePointer<Node>) -> (reason: HitReason, rule: Rule)? {
        if r.bits & HitRecord.excluding == 0 && r.has(hittable) && !presenting { return nil }
        if r.has(HitRecord.never) { return (.never, .h6) }
        if r.has(HitRecord.hidden) { return (.hidden, .h2) }
        if !r.has(hittable) { return (.alpha, .h2) }
        if r.has(HitRecord.interactionDisabled) {
            return (.interactionDisabled, r.has(HitRecord.interactionUnset) ? .k1 : .h2)
        }
        if r.has(HitRecord.animatingRefuses) { return (.animating, .k10) }
        if presenting, world.pointee.presentedOver(node.pointee.spec.id) { return (.presentedOver, .k9) }
        if r.has(HitRecord.disabledControl) { return (.disabledControl, .h7) }
        return nil
    }

    /// The view of `frame` answers itself once no subview has (H2.3) — then its override (H6): its answer, or
    /// nil when it passes the touch through. Most views have no override: their visit stays as it was made.
    @inline(__always)
    private mutating func answerSelf(_ frame: Frame) -> Answer? {
        let record = world.pointee.nodes.hitRecord(atSlot: Int(frame.slot))
        guard record.bits & (HitRecord.redirectWhenSelf | HitRecord.passThroughSelf) != 0 else {
            return (frame.slot, frame.point)
        }
        return overridden(frame)
    }

    /// `answerSelf` for a view with an override: redirect when self, or pass-through-self.
    @inline(never)
    private mutating func overridden(_ frame: Frame) -> Answer? {
        let i = Int(frame.visit)
        let override = world.pointee.nodes.read(slot: Int(frame.slot)) { $0.pointee.spec.hitTest }
        if let r = override.redirect, r.when == .self, let target = validRedirect(r.to) {
            redirected(i, to: target)
            return (target, nil)
        }
        if override.mode == .passThroughSelf {
            // H6 pass-through-self: nil instead of itself; the parent goes on with the views behind.
            visits[i].result = .skipped
            visits[i].reason = .passThrough
            visits[i].rule = .h6
            return nil
        }
        return (frame.slot, frame.point)
    }

    /// K17, K18: the dimming view covers the whole window, so it answers itself wherever it is asked — except
    /// over a popover's passthrough view, where it answers nil and the views behind it are asked as usual.
    @inline(never)
    private mutating func dimmingAnswer(_ dimming: Dimming, _ point: Point) -> Answer? {
        kept.pointee.names.append(dimming.id)
        var visit = SlotVisit(
            slot: Int32(-kept.pointee.names.count), result: .hit, rule: dimming.rule, point: point)
        if dimming.rule == .k18, world.pointee.passthroughView(of: dimming, at: point, window: window) != nil {
            visit.result = .skipped
            visit.reason = .passthroughView
            visits.append(visit)
            return nil
        }
        visits.append(visit)
        return (visit.slot, point)
    }

    private mutating func redirected(_ i: Int, to target: Int32) {
        visits[i].result = .hit
        visits[i].reason = .redirect
        visits[i].rule = .h6
        visits[i].to = target
    }

    /// H6 redirect: the named view must be a view in the window being tested; its slot.
    private func validRedirect(_ id: String) -> Int32? {
        guard let node = world.pointee[id], node.kind.isView, world.pointee.window(of: id) == window,
            let slot = world.pointee.nodes.slot(of: id)
        else { return nil }
        return Int32(truncatingIfNeeded: slot)
    }
}
