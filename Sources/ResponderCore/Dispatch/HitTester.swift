import ResponderProtocol

/// The hit tester's buffers, kept between hit tests by what runs many of them (a session's host), so that their
/// room is made once; after a hit test (`SessionState.hitTest(at:keeping:)`), its answer by slot, written from
/// here (`SessionState.writeHitTest(_:traced:to:)`) with no id string, no list made and no copy of the node
/// table. Its slots name the views only of the world it was tested in, as it is then: it is written before that
/// world changes, or not at all (an answer that outlives the world is a `HitTestAnswer`).
public struct HitTestScratch {
    var visits: [SlotVisit] = []
    /// Ids of the views asked that are no nodes (dimming views): a visit's slot below zero names one.
    var names: [String] = []
    fileprivate var stack: [HitWalk.Frame] = []
    /// K17, K18: the dimming views of the window being tested, asked where the window's subviews list them.
    var dimmings: [Dimming] = []
    /// K9: the window's subviews in presentation order when something is presented (the window's frame reads
    /// them here rather than where the table keeps its children).
    var presentationOrder: [Int32] = []
    /// H1: the windows in the order they are tried, and their levels while they are sorted.
    var windows: [Int32] = []
    var levels: [Double] = []
    /// The last hit test's answer.
    var answer = HitSlots()

    public init() {}

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
        var windows: [Int32] = []
        var levels: [Double] = []
        HitWalk.windowOrder(world, into: &windows, levels: &levels)
        return windows
    }

    /// The hit test's answer made for itself, with its ids and its own lists (`HitTestAnswer`), in buffers made
    /// for it: the answer takes its visits, so buffers kept for another hit test would be copied by its first
    /// visit.
    static func answer(world: World, profile: Profile, screen: Point) -> HitTestAnswer {
        var scratch = HitTestScratch()
        run(world: world, profile: profile, screen: screen, keeping: &scratch)
        let a = scratch.answer
        let hit = a.window >= 0
        return HitTestAnswer(
            window: hit ? world.nodes.unsafeNode(atSlot: Int(a.window)).pointee.spec.id : nil,
            view: hit ? HitAnswerText.id(a.view, names: scratch.names, nodes: world.nodes) : nil,
            windowPoint: a.windowPoint, localPoint: a.localPoint, visits: scratch.visits, names: scratch.names,
            nodes: world.nodes)
    }

    /// `answer(world:profile:screen:)` with the buffers kept in `scratch`, which holds the answer by slot
    /// afterwards. The world is read where it is, not copied: a copy is a retain and a release for each of its
    /// references.
    static func run(world: World, profile: Profile, screen: Point, keeping scratch: inout HitTestScratch) {
        HitWalk.windowOrder(world, into: &scratch.windows, levels: &scratch.levels)
        withUnsafePointer(to: world) { world in
            var walk = HitWalk(world: world, profile: profile)
            // Swapped in and out, not copied: a buffer held twice would be copied by its first append.
            swap(&walk.kept, &scratch)
            walk.run(screen: screen)
            swap(&walk.kept, &scratch)
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
/// change or go while the walk runs), into buffers handed to it (`kept`).
struct HitWalk {
    /// Read through its address (`world.pointee`): a property that yields the world is a read of the walk
    /// itself, which changes to its lists overlap, and the compiler copies the world for them.
    let world: UnsafePointer<World>
    let profile: Profile
    /// The walk's buffers and, once it has run, its answer by slot.
    fileprivate var kept = HitTestScratch()
    /// The slot of the window being tested: every frame of one window's walk shares it.
    private var windowSlot: Int32 = -1

    init(world: UnsafePointer<World>, profile: Profile) {
        self.world = world
        self.profile = profile
    }

    /// The id of the window being tested, for the rare checks that name it (a redirect, a passthrough view).
    private var window: String { world.pointee.nodes.unsafeNode(atSlot: Int(windowSlot)).pointee.spec.id }

    /// `HitTester.windowOrder(_:)` into lists kept between hit tests (their room made once). Called with the
    /// world as a value, before a walk holds its address: read through an address beside a change to the lists,
    /// the table would be copied for the read.
    static func windowOrder(_ world: World, into windows: inout [Int32], levels: inout [Double]) {
        windows.removeAll(keepingCapacity: true)
        levels.removeAll(keepingCapacity: true)
        let app = world.nodes.applicationSlot
        guard app >= 0 else { return }
        for child in world.nodes.unsafeChildSlots(ofSlot: app) where child >= 0 {
            if world.nodes.unsafeNode(atSlot: Int(child)).pointee.spec.kind == .window { windows.append(child) }
        }
        guard windows.count > 1 else { return }
        // Levels only to sort: one window, nearly every world, needs no list of them.
        for w in windows { levels.append(world.nodes.unsafeNode(atSlot: Int(w)).pointee.spec.windowLevel) }
        let order = windows.indices.sorted { a, b in levels[a] != levels[b] ? levels[a] > levels[b] : a > b }
        windows = order.map { windows[$0] }
    }

    /// The hit test over the windows in `kept.windows` (`windowOrder`), its answer left by slot in the kept
    /// buffers (`kept.answer`).
    mutating func run(screen: Point) {
        kept.visits.removeAll(keepingCapacity: true)
        // Room for a few levels of views asked: growing from empty reallocated the array five times for 16.
        if kept.visits.capacity == 0 { kept.visits.reserveCapacity(32) }
        kept.names.removeAll(keepingCapacity: true)
        kept.answer = HitSlots()
        for i in kept.windows.indices {
            let slot = kept.windows[i]
            let q = SuperviewConversion(world.pointee.nodes.unsafeNode(atSlot: Int(slot))).apply(screen)
            if let answer = hitTest(root: slot, point: q) {
                // A view that answered for itself was asked with the point in its own coordinates (H4 applied on
                // the way down, as `convert` would apply it); only a redirect's target is converted.
                var local = answer.point
                if local == nil, let q { local = world.pointee.convert(q, fromWindow: window, to: name(answer.slot)) }
                kept.answer = HitSlots(window: slot, view: answer.slot, windowPoint: q, localPoint: local)
                return
            }
        }
    }

    /// The id a visit's slot names (as `HitTestAnswer.id`).
    private func name(_ slot: Int32) -> String {
        slot >= 0 ? world.pointee.nodes.unsafeNode(atSlot: Int(slot)).pointee.spec.id : kept.names[Int(-1 - slot)]
    }

    // MARK: - One window's tree

    /// A view being asked: its slot, its subviews and the next of them to ask, and its visit, which holds the
    /// point it is asked about (`visits[visit].point`).
    fileprivate struct Frame {
        /// The subviews' slots, back to front, where the table keeps them (-1 for an id that names no node);
        /// empty for a window whose subviews are in `presentationOrder` (the walk's first frame, `presenting`).
        var subviews: UnsafeBufferPointer<Int32>
        var slot: Int32
        /// Index of the next subview to ask, counting down from the front-most (H2.2).
        var next: Int32
        var visit: Int32
    }

    /// A dimming view among a window's subviews in `presentationOrder`: `dimmings[i]` is stored as `-2 - i`.
    private static func dimmingIndex(_ subview: Int32) -> Int? { subview < -1 ? Int(-2 - subview) : nil }

    /// A view's answer (its slot, as a visit's), with the point it was asked about when it answered for itself
    /// (nil after a redirect).
    private typealias Answer = (slot: Int32, point: Point?)

    /// What asking a view before its subviews comes to (a frame for its subviews is pushed by `start` itself).
    /// Below zero: `pushed`, `answeredNil`, `notAView`; otherwise the slot of a redirect's target, which
    /// answers with no point.
    private static let pushed: Int32 = -1
    private static let answeredNil: Int32 = -2
    /// A child that is not asked at all (H2: neither a view nor a controller with a root view): no visit.
    private static let notAView: Int32 = -3

    /// What `start` is given: a window, or a child as its superview lists it — asked as `hitTestSubviews` lists
    /// children: a view itself, a child controller's root view (`rootView`), nothing else.
    private enum Asking {
        case itself
        case child
        case rootView
    }

    /// Whether the walk's first frame (the window's) reads its subviews in `presentationOrder`.
    private var presenting = false

    /// hitTest(root, p) for one window.
    private mutating func hitTest(root: Int32, point: Point?) -> Answer? {
        windowSlot = root
        kept.dimmings.removeAll(keepingCapacity: true)
        presenting = false
        kept.stack.removeAll(keepingCapacity: true)
        if kept.stack.capacity == 0 { kept.stack.reserveCapacity(16) }
        var answer: Answer?
        let started = start(root, .local(point), asking: .itself)
        if started >= 0 { return (started, nil) }
        if started != Self.pushed { return nil }
        // `answer` is the latest answer of a finished child; nil means "keep asking the views behind".
        while !kept.stack.isEmpty {
            let top = kept.stack.count - 1
            if let a = answer {
                // H2.2: the first non-nil answer wins; the views behind it are never asked.
                let frame = kept.stack.removeLast()
                answer = finish(frame, subviewAnswer: a)
                if kept.stack.isEmpty { return answer }
                continue
            }
            let frame = kept.stack[top]
            if frame.next >= 0 {
                let candidate =
                    top == 0 && presenting ? kept.presentationOrder[Int(frame.next)] : frame.subviews[Int(frame.next)]
                kept.stack[top].next = frame.next - 1
                let point = kept.visits[Int(frame.visit)].point!
                if let d = Self.dimmingIndex(candidate) {
                    answer = dimmingAnswer(kept.dimmings[d], point: point)
                    continue
                }
                let started = start(candidate, .inSuperview(point), asking: .child)
                if started >= 0 {
                    answer = (started, nil)
                } else if started == Self.answeredNil {
                    answer = nil
                }
            } else {
                // H2.3: no subview answered, so the view answers itself (before overrides).
                kept.stack.removeLast()
                answer = finish(frame, subviewAnswer: nil)
                if kept.stack.isEmpty { return answer }
            }
        }
        return answer
    }

    /// The checks a view makes before asking its subviews (H2.1, H3, H5, H6 never, H7).
    /// Where the point a view is asked about is given: already in its bounds (a window), or in its
    /// superview's, converted (H4) in the same read as the checks.
    private enum Given {
        case local(Point?)
        case inSuperview(Point)
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
    @inline(__always)
    private func recordExclusion(_ r: HitRecord, _ node: UnsafePointer<Node>) -> (reason: HitReason, rule: Rule)? {
        if r.bits & HitRecord.excluding == 0 && r.hittable(profile.alphaBoundary) && world.pointee.presented.isEmpty {
            return nil
        }
        if r.has(HitRecord.never) { return (.never, .h6) }
        if r.has(HitRecord.hidden) { return (.hidden, .h2) }
        if !r.hittable(profile.alphaBoundary) { return (.alpha, .h2) }
        if r.has(HitRecord.interactionDisabled) {
            return (.interactionDisabled, r.has(HitRecord.interactionUnset) ? .k1 : .h2)
        }
        if r.has(HitRecord.animatingRefuses) { return (.animating, .k10) }
        if !world.pointee.presented.isEmpty, world.pointee.presentedOver(node.pointee.spec.id) {
            return (.presentedOver, .k9)
        }
        if r.has(HitRecord.disabledControl) { return (.disabledControl, .h7) }
        return nil
    }

    /// The checks a view makes before asking its subviews, and its visit; a frame for its subviews pushed when
    /// it passes them. Its answer: `pushed`, `answeredNil`, `notAView`, or a redirect's target's slot.
    ///
    /// The view's point-free questions are read from its `HitRecord`; its frame and bounds origin, inline in the
    /// node, through the node's address (`NodeTable.unsafeNode`): the world does not change while the tester
    /// holds it. A transform, insets or a redirect are read from the node only by a view whose record has one.
    private mutating func start(_ slot: Int32, _ given: Given, asking: Asking) -> Int32 {
        guard slot >= 0 else { return Self.notAView }
        let record = world.pointee.nodes.hitRecord(atSlot: Int(slot))
        switch asking {
        case .itself: break
        case .child where record.has(HitRecord.viewController):
            // A child controller: its root view is asked in its place.
            let root = world.pointee.nodes.withChildSlots(ofSlot: Int(slot)) { $0.first ?? -1 }
            return start(root, given, asking: .rootView)
        case .child, .rootView:
            guard record.has(HitRecord.subviewKind) else { return Self.notAView }
        }
        let node = world.pointee.nodes.unsafeNode(atSlot: Int(slot))
        let point: Point?
        switch given {
        case .local(let p): point = p
        case .inSuperview(let p):
            // H4
            if record.has(HitRecord.hasTransform) {
                point = SuperviewConversion(node).apply(p)
            } else {
                let frame = node.pointee.spec.frame, origin = node.pointee.spec.boundsOrigin
                point = Point(p.x - frame.x + origin.x, p.y - frame.y + origin.y)
            }
        }
        let index = kept.visits.count
        kept.visits.append(SlotVisit(slot: slot, point: point))
        let exclusion: (reason: HitReason, rule: Rule)?
        if let excluded = recordExclusion(record, node) {
            if excluded.reason == .never {
                // H6 never: always nil, the whole subtree is hidden from touches.
                kept.visits[index].result = .skipped
                kept.visits[index].reason = .never
                kept.visits[index].rule = .h6
                return Self.answeredNil
            }
            exclusion = excluded
        } else if let p = point {
            // H3 point(inside:) on the bounds (H6: inset by the declared hit-area insets). H5: a subview
            // is only asked when its superview contained the point, so clipsToBounds plays no part.
            if record.has(HitRecord.hasInsets) {
                let insets = node.pointee.spec.hitTestInsets
                exclusion = node.pointee.spec.bounds.inset(by: insets).contains(p) ? nil : (.outsideBounds, .h6)
            } else {
                exclusion = node.pointee.spec.bounds.contains(p) ? nil : (.outsideBounds, .h3)
            }
        } else {
            exclusion = (.singularTransform, .h4)
        }
        if let (reason, rule) = exclusion {
            kept.visits[index].reason = reason
            kept.visits[index].rule = rule
            // H6 redirect when nil: the override replaces super's nil answer.
            if record.has(HitRecord.redirectWhenNil), let r = node.pointee.spec.hitTestRedirect,
                let target = validRedirect(r.to)
            {
                redirected(index, to: target)
                return target
            }
            return Self.answeredNil
        }
        // K9: a window's subviews in presentation order, its controllers resolved to their root views, when
        // something is presented. Otherwise, as any other view's, its children are asked as they are, each
        // resolved when it is asked: most are never asked (H2.2), so resolving a window's children up front
        // would mostly be wasted.
        if asking == .itself && !world.pointee.presented.isEmpty {
            let id = node.pointee.spec.id
            let dimmings = world.pointee.dimmings(in: id)
            kept.dimmings = dimmings
            kept.presentationOrder = world.pointee.withDimmings(world.pointee.hitTestSubviews(of: id), dimmings).map {
                id in
                if let d = dimmings.firstIndex(where: { $0.id == id }) { return Int32(-2 - d) }
                return world.pointee.nodes.slot(of: id).map { Int32(truncatingIfNeeded: $0) } ?? -1
            }
            presenting = true
            kept.stack.append(
                Frame(
                    subviews: UnsafeBufferPointer(start: nil, count: 0), slot: slot,
                    next: Int32(kept.presentationOrder.count - 1), visit: Int32(index)))
            return Self.pushed
        }
        let subviews = world.pointee.nodes.unsafeChildSlots(ofSlot: Int(slot))
        kept.stack.append(Frame(subviews: subviews, slot: slot, next: Int32(subviews.count - 1), visit: Int32(index)))
        return Self.pushed
    }

    /// The view's answer once its subviews are done: a subview's answer, or itself — then H6 overrides.
    private mutating func finish(_ frame: Frame, subviewAnswer: Answer?) -> Answer? {
        let i = Int(frame.visit)
        if let a = subviewAnswer {
            kept.visits[i].result = .hit
            kept.visits[i].rule = .h2
            return a
        }
        // Whether the view's override changes its own answer (redirect when self, pass-through-self): most
        // views have neither.
        let record = world.pointee.nodes.hitRecord(atSlot: Int(frame.slot))
        guard record.bits & (HitRecord.redirectWhenSelf | HitRecord.passThroughSelf) != 0 else {
            kept.visits[i].result = .hit
            kept.visits[i].rule = .h2
            return (frame.slot, kept.visits[i].point)
        }
        let override = world.pointee.nodes.read(slot: Int(frame.slot)) { $0.pointee.spec.hitTest }
        if let r = override.redirect, r.when == .self, let target = validRedirect(r.to) {
            redirected(i, to: target)
            return (target, nil)
        }
        if override.mode == .passThroughSelf {
            // H6 pass-through-self: nil instead of itself; the parent goes on with the views behind.
            kept.visits[i].result = .skipped
            kept.visits[i].reason = .passThrough
            kept.visits[i].rule = .h6
            return nil
        }
        kept.visits[i].result = .hit
        kept.visits[i].rule = .h2
        return (frame.slot, kept.visits[i].point)
    }

    /// K17, K18: the dimming view covers the whole window, so it answers itself wherever it is asked — except
    /// over a popover's passthrough view, where it answers nil and the views behind it are asked as usual.
    private mutating func dimmingAnswer(_ dimming: Dimming, point: Point) -> Answer? {
        kept.names.append(dimming.id)
        var visit = SlotVisit(slot: Int32(-kept.names.count), result: .hit, rule: dimming.rule, point: point)
        if dimming.rule == .k18, world.pointee.passthroughView(of: dimming, at: point, window: window) != nil {
            visit.result = .skipped
            visit.reason = .passthroughView
            kept.visits.append(visit)
            return nil
        }
        kept.visits.append(visit)
        return (visit.slot, point)
    }

    private mutating func redirected(_ i: Int, to target: Int32) {
        kept.visits[i].result = .hit
        kept.visits[i].reason = .redirect
        kept.visits[i].rule = .h6
        kept.visits[i].to = target
    }

    /// H6 redirect: the named view must be a view in the window being tested; its slot.
    private func validRedirect(_ id: String) -> Int32? {
        guard let node = world.pointee[id], node.kind.isView, world.pointee.window(of: id) == window,
            let slot = world.pointee.nodes.slot(of: id)
        else { return nil }
        return Int32(truncatingIfNeeded: slot)
    }
}
