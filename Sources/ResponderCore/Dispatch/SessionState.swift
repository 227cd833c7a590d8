import ResponderJSON
import ResponderProtocol

/// One session's world, dispatch profile and live dispatch state (touches, presses, control tracking,
/// first responders). Pure and deterministic: every request is a function of the state and its params.
public struct SessionState: Sendable {
    public internal(set) var world: World
    public let profile: Profile

    /// T1: live touches in the order they began.
    var touches: [LiveTouch] = []
    /// E2: live presses in the order they began.
    var presses: [LivePress] = []
    /// T3: tracking controls by touch.
    var tracking = ControlTracks()
    /// F4: each window's first responder.
    var firstResponderByWindow: [String: String] = [:]
    /// Source of fresh ids for `tap`.
    var tapCounter = 0
    /// G11: the session's clock, in seconds: moved by touches that carry a time and by clock.advance.
    public internal(set) var clock = 0.0
    /// G2: recognizers between their first observed touch and their reset, in the order they started.
    var runs: [GestureRun] = []
    /// What recognizers did during the input being carried out (empty between requests).
    var gestureLog = GestureLog()
    /// The recognizer that last left possible in this request: what releases held phases (G8, G9).
    var releaseCause: String?
    /// The touch whose cancellation recognizers are seeing (G5 waits do not complete meanwhile).
    var cancelling: EventID?
    /// K3–K8: node fields this request changed, in order; committed as one batch when it ends.
    var fieldChanges: [(id: String, field: String)] = []
    /// The committed batch of the last request, until the engine takes it to publish (12.6).
    var committedChanges: [GuardedOp] = []
    /// K17, K18: presented controllers a dimming tap dismissed in this request, taken out when the request ends.
    var dismissals: [String] = []
    /// Whether this request's batch has already taken the next revision (a dismissal): field changes join it.
    var revisionTaken = false
    /// K4: slider thumbs being dragged: the value and the touch's x when it began.
    var thumbs: [EventID: (control: String, value: Double, x: Double)] = [:]
    /// K8: each scrolling pan's content offset when it began.
    var scrollStarts: [String: Point] = [:]
    /// K5: held steppers by touch: the highlighted half and the autorepeat timer.
    var steppers: [EventID: StepperTrack] = [:]
    /// A2, G3: the crash the request being carried out ended in (nil between requests): nothing after it runs.
    var crash: Crash?
    /// The `android` model's live gesture (docs/rules-android.md).
    var android = AndroidLive()

    public init(world: World = World(), profile: Profile = .uikit) {
        self.world = world
        self.profile = profile
    }

    // MARK: - Tree changes

    /// Applies a batch atomically, then works out what it did to live touches, presses and first
    /// responders (T6, F6, K9).
    public mutating func apply(_ ops: [GuardedOp], ifRevision: Int?, limits: Limits) throws(CoreError) -> TreeChange {
        // Only a remove or a move can take a node out of its window (T6, E2, F6), and only live touches,
        // presses and first responders can be affected. Otherwise skip keeping the old world: holding it
        // would make the batch copy the whole world instead of changing it in place.
        // K9: so can a presentation that starts, ends or changes style (fullScreen takes the presenter's views out).
        let mayLeave = ops.contains {
            switch $0.op {
            case .remove, .move: return true
            case .insert(_, _, let tree): return tree.entries.contains { $0.spec.presentedBy != nil }
            case .update(_, let set):
                return set.assignments.contains {
                    $0.name == "presentedBy" || $0.name == "modalPresentationStyle"
                        || ($0.name == "hidden" && profile.hiddenFirstResponder == .nextKeyView)  // F9
                        || ($0.name == "android" && profile.model == .android)  // AL2: temporarilyDetached
                }
            }
        }
        // Live recognizers can be removed, disabled or moved by any op (G2).
        let live =
            !touches.isEmpty || !presses.isEmpty || !firstResponderByWindow.isEmpty || !android.pointers.isEmpty
        guard (mayLeave && live) || !runs.isEmpty else {
            let batch = try world.apply(ops, ifRevision: ifRevision, limits: limits)
            return TreeChange(batch: batch, ops: ops, consequences: nil)
        }
        let before = world
        let batch = try world.apply(ops, ifRevision: ifRevision, limits: limits)
        let consequences = treeChanged(before: before)
        return TreeChange(batch: batch, ops: ops, consequences: consequences)
    }

    /// Replaces the world. `ops` is empty: the server publishes the whole tree for a load. `removed` lists
    /// the ids that no longer exist, sorted; `changed` every id of the new world, parents first.
    public mutating func load(tree: NodeTree, detached: [NodeTree] = [], limits: Limits) throws(CoreError) -> TreeChange
    {
        load(prepared: try World.prepared(tree: tree, detached: detached, limits: limits))
    }

    /// Replaces the world with one prepared elsewhere (`World.prepared`, off the engine thread), as `load`
    /// would: the revision goes up by one and every node gets it.
    public mutating func load(prepared: consuming World) -> TreeChange {
        var next = prepared
        // A world prepared for a session's first load has the revision that load gives it already.
        if next.revision != world.revision + 1 { next.restamp(revision: world.revision + 1) }
        let before = world
        world = next
        let removed = before.nodes.keys.filter { !world.contains($0) }.sorted()
        let consequences = treeChanged(before: before)
        return TreeChange(
            batch: AppliedBatch(revision: world.revision, removed: removed), ops: [],
            consequences: consequences)
    }

    /// F4: makes `id` the key window with one batch of `update key` ops (the old key window first). The
    /// trace (kind makeKey, never published) records the switch.
    public mutating func makeKey(_ id: String) throws(CoreError) -> (
        change: TreeChange, outcome: Traced<MakeKeyOutcome>
    ) {
        let node = try existing(id)
        guard node.kind == .window else {
            throw .notAWindow(id, kind: node.kind, field: nil)
        }
        guard world.isAttached(id) else {
            throw .detachedWindow(id)
        }
        let previous = world.keyWindow
        var ops: [GuardedOp] = []
        for w in world.windows where w != id && world[w]!.key {
            var set = NodeUpdate()
            set.set("key", \.key, false)
            ops.append(GuardedOp(.update(id: w, set: set)))
        }
        var set = NodeUpdate()
        set.set("key", \.key, true)
        ops.append(GuardedOp(.update(id: id, set: set)))
        let change = try apply(ops, ifRevision: nil, limits: .default)
        let key = world.keyWindow
        let trace = Trace(kind: .makeKey, steps: [.keyWindow(from: previous, to: key)])
        return (change, trace.finish(MakeKeyOutcome(key: key, previous: previous)))
    }

    // MARK: - Queries

    /// F4: every attached window → its first responder, in window order.
    public var firstResponders: FirstResponders {
        FirstResponders(world.windows.map { ($0, firstResponderByWindow[$0]) })
    }

    /// Touches in the order they began (12.8).
    public var liveTouches: [LiveTouchInfo] {
        touches.map { t in
            var info = LiveTouchInfo(touch: t.id, client: t.client, view: t.view, window: t.window, phase: t.phase)
            if let first = t.held.first { info.heldBy = holders(of: t, phase: first.phase) }
            return info
        }
            + android.pointers.map { p in
                // `android`: the view handling the pointer, at the end of its targets.
                LiveTouchInfo(
                    touch: p.touch, client: p.client, view: p.chain.last, window: p.window,
                    phase: p.events > 1 ? .moved : .began)
            }
            + android.windowless.sorted { $0.key.description < $1.key.description }.map { touch, client in
                LiveTouchInfo(touch: touch, client: client, view: nil, window: nil, phase: .began)
            }
    }

    /// Presses in the order they began (12.8).
    public var livePresses: [LivePressInfo] {
        presses.map(\.info)
            + android.presses.sorted { $0.key.description < $1.key.description }.map { id, p in
                LivePressInfo(
                    press: id, client: p.client, key: p.key, responder: p.window.flatMap { firstResponderByWindow[$0] },
                    window: p.window, phase: .began)
            }
    }

    /// H1–H8: the view at a screen point; no side effects. The trace (kind hitTest) has one step per view
    /// asked, as a touch's began does, then H1's discard when no window's hit test answered.
    public func hitTest(at point: Point) -> Traced<HitTestOutcome> {
        let outcome = hitTestOutcome(at: point)
        var trace = Trace(kind: .hitTest)
        trace.steps.reserveCapacity(outcome.visited.count + 1)
        for v in outcome.visited { trace.add(.hitTest(v, touch: nil)) }
        trace.steps += Self.hitTestEnd(outcome)
        return trace.finish(outcome)
    }

    /// The steps of `outcome`'s trace after the visits: H1, a point no window answers is discarded.
    public static func hitTestEnd(_ outcome: HitTestOutcome) -> [TraceStep] {
        outcome.view == nil ? [noHitStep] : []
    }

    /// H1's discard of a point no window answers.
    static let noHitStep = TraceStep.discard(
        message: "hitTest", reason: .noHit, rule: .h1, tag: nil, blockedBy: nil, view: nil)

    /// H1–H8 without building the trace, for a reply that leaves it out (1.8): its steps would only restate
    /// the visits.
    public func hitTestOutcome(at point: Point) -> HitTestOutcome { hitTestAnswer(at: point).outcome }

    /// H1–H8 with the views asked by slot, their ids written only with the answer (`HitTestAnswer`).
    public func hitTestAnswer(at point: Point) -> HitTestAnswer {
        HitTester.answer(world: world, profile: profile, screen: point)
    }

    /// N1–N4: the chain from `id`; the trace has one `next` step per hop, `to` nil at the end (N3).
    public func responderChain(from id: String) throws(CoreError) -> Traced<ChainOutcome> {
        _ = try existing(id)
        let chain = world.responderChain(from: id)
        var trace = Trace(kind: .responderChain)
        for (i, from) in chain.enumerated() {
            let to: String? = i + 1 < chain.count ? chain[i + 1] : world.nextResponder(of: from)
            trace.add(.next(from: from, to: to, rule: Self.nextRule(world.read(from) { $0.pointee.spec.kind }!)))
        }
        return trace.finish(ChainOutcome(chain: chain))
    }

    /// The rule that gives a node's next responder: N1 views, N2 view controllers, N3 the rest.
    static func nextRule(_ kind: NodeKind) -> Rule {
        switch kind {
        case .view, .control, .textField, .textView: return .n1
        case .viewController: return .n2
        case .window, .application, .appDelegate: return .n3
        }
    }

    /// F4: the first responder of `window`, or of the key window when nil.
    public func firstResponder(window: String?) throws(CoreError) -> String? {
        guard let window else { return keyFirstResponder }
        let node = try existing(window, field: "window")
        guard node.kind == .window else {
            throw .notAWindow(window, kind: node.kind, field: "window")
        }
        return firstResponderByWindow[window]
    }

    // MARK: - Helpers

    func existing(_ id: String, field: String = "id") throws(CoreError) -> Node {
        guard let node = world[id] else {
            throw .noNode(id, field: field)
        }
        return node
    }

    /// F4: the key window's first responder.
    var keyFirstResponder: String? {
        guard let key = world.keyWindow else { return nil }
        return firstResponderByWindow[key]
    }
}
