import ResponderJSON
import ResponderProtocol

/// What recognizers did while one input was carried out: collected for the input's outcome.
struct GestureLog: Sendable {
    var transitions: [GestureTransition] = []
    var actions: [GestureActionSent] = []
    var deliveries: [TouchDelivery] = []
    /// K5: control events a timer sent (a held stepper's autorepeat).
    var controlEvents: [TimedControlEvent] = []

    /// Appends a transition of one of `runs` recognizers. The first makes room for two per recognizer (it leaves
    /// possible and is reset in the same input, as a tap's are): one by one, a tap's four would take three
    /// allocations.
    mutating func record(_ change: GestureTransition, runs: Int) {
        if transitions.isEmpty { transitions.reserveCapacity(2 * runs) }
        transitions.append(change)
    }
}

/// What a recognizer's attempt to leave possible reads of its spec (G5–G8, G10), taken out where the spec is
/// stored: a copy of the whole spec retains and releases each of its strings and lists.
struct AttemptParameters {
    var kind: GestureKind
    var requireToFail: [String]
    var shouldBegin: Bool
    var numberOfTapsRequired: Int
    var numberOfTouchesRequired: Int
    var delaysTouchesBegan: Bool
    var cancelsTouchesInView: Bool

    init(_ spec: UnsafePointer<GestureRecognizerSpec>) {
        kind = spec.pointee.kind
        requireToFail = spec.pointee.requireToFail
        shouldBegin = spec.pointee.shouldBegin
        numberOfTapsRequired = spec.pointee.numberOfTapsRequired
        numberOfTouchesRequired = spec.pointee.numberOfTouchesRequired
        delaysTouchesBegan = spec.pointee.delaysTouchesBegan
        cancelsTouchesInView = spec.pointee.cancelsTouchesInView
    }
}

extension SessionState {
    func runIndex(_ id: String) -> Int? { runs.firstIndex { $0.id == id } }

    /// `body` of recognizer `id`'s view and spec, looked up on its run's view first
    /// (`World.withRecognizer(_:on:slot:_:)`).
    func withSpec<R>(_ id: String, _ body: (_ view: String, _ spec: UnsafePointer<GestureRecognizerSpec>) -> R) -> R? {
        guard let i = runIndex(id) else { return world.withRecognizer(id, body) }
        return world.withRecognizer(id, on: runs[i].view, slot: runs[i].viewSlot, body)
    }

    /// G1: the enabled recognizers of the hit view and its ancestors up to its window, deepest first and in
    /// attachment order, that do not refuse the touch; each gets a run if it had none.
    mutating func observe(_ touch: EventID, hitView: String, trace: inout Trace) -> [String] {
        var observers: [String] = []
        // Up by slot, each node read once where it is stored: only the hit view's id is hashed, and only a view
        // with recognizers (or a scroll view's pan) has its id made.
        guard var slot = world.nodes.slot(of: hitView) else { return observers }
        while true {
            let (kind, attached, scrolls) = world.nodes.read(slot: slot) {
                (
                    $0.pointee.spec.kind, $0.pointee.spec.gestureRecognizers,
                    $0.pointee.spec.uikitClass?.isScrollView == true
                )
            }
            if kind.isView, scrolls || !attached.isEmpty {
                let id = world.nodes.read(slot: slot) { $0.pointee.spec.id }
                let specs = scrolls ? world.attachedRecognizers(of: id) : attached
                // By index: `for spec in specs` would copy each spec, a retain per string and array it holds.
                for j in specs.indices {
                    let refusal: GestureReason? =
                        !specs[j].enabled ? .disabled : (!specs[j].shouldReceiveTouch ? .shouldReceiveTouchFalse : nil)
                    let recognizer = specs[j].id
                    trace.add(
                        .observe(
                            recognizer: recognizer, view: id, touch: touch, observes: refusal == nil, reason: refusal)
                    )
                    guard refusal == nil else { continue }
                    observers.append(recognizer)
                    if runIndex(recognizer) == nil {
                        runs.append(GestureRun(id: recognizer, view: id, viewSlot: slot, kind: specs[j].kind))
                    }
                }
            }
            if kind == .window { break }
            let parent = world.nodes.parentSlot(ofSlot: slot)
            guard parent >= 0 else { break }
            slot = Int(parent)
        }
        return observers
    }

    /// G1: the observing recognizers get the phase before the view does, in observation order.
    /// `observers`: the touch's recognizers (`LiveTouch.recognizers`), in the order they get each phase.
    mutating func recognizersSee(_ touch: EventID, observers: [String], _ input: GestureInput, trace: inout Trace) {
        if case .cancelled = input { cancelling = touch }
        defer { cancelling = nil }
        for id in observers where !hasCrashed {
            guard let i = runIndex(id) else { continue }
            if case .began = input {} else if !runs[i].touches.contains(touch) { continue }
            guard
                let spec = world.withRecognizer(id, on: runs[i].view, slot: runs[i].viewSlot, { GestureParameters($1) })
            else { continue }
            if let decision = runs[i].decide(input, spec: spec, now: clock, profile: profile),
                let decision = scrollAxesDecide(decision, run: i, trace: &trace)
            {
                apply(decision, to: id, trace: &trace)
            }
        }
    }

    mutating func apply(_ decision: GestureDecision, to id: String, trace: inout Trace) {
        switch decision {
        case .recognize(let reason, let rule): attempt(id, reason: reason, rule: rule, trace: &trace)
        case .fail(let reason, let rule): fail(id, reason: reason, rule: rule, by: nil, trace: &trace)
        case .change:
            transition(id, to: .changed, rule: .g2, reason: .moved, trace: &trace)
            sendActions(id, trace: &trace)
        case .end:
            transition(id, to: .ended, rule: .g2, reason: .touchesEnded, trace: &trace)
            sendActions(id, trace: &trace)
        case .cancel(let reason):
            transition(id, to: .cancelled, rule: .g2, reason: reason, trace: &trace)
        }
    }

    /// A recognizer that would leave possible: G5 (wait for, or fail with, the recognizers it requires),
    /// G6 (shouldBegin), G10 (a control's own gesture), then it recognizes or begins and G4 (exclusion),
    /// G7/G8 (the view's touches) and G3 (its actions) follow.
    mutating func attempt(_ id: String, reason: GestureReason, rule: Rule, trace: inout Trace) {
        guard let i = runIndex(id), runs[i].state == .possible,
            let (view, spec) = world.withRecognizer(
                id, on: runs[i].view, slot: runs[i].viewSlot, { ($0, AttemptParameters($1)) })
        else { return }
        // A closure, not the method itself: `compactMap(runIndex)` captured a copy of the whole session state.
        let required = spec.requireToFail.compactMap { runIndex($0) }
        if let winner = required.first(where: { runs[$0].state.isActive }) {
            fail(id, reason: .requiredRecognized, rule: .g5, by: runs[winner].id, trace: &trace)
            return
        }
        let waitingFor = required.filter { runs[$0].state == .possible }.map { runs[$0].id }
        if !waitingFor.isEmpty {
            if runs[i].pending == nil {
                runs[i].pending = (spec.kind.isDiscrete ? .recognized : .began, reason, rule)
                trace.add(.gestureWait(recognizer: id, waitingFor: waitingFor))
            }
            return
        }
        let released = runs[i].pending != nil
        runs[i].pending = nil
        // G4: a recognizer that has begun or recognized keeps the touches it shares with this one. The runs are
        // read in place, by index: `runs.first(where:)` hands out a copy of the run it finds.
        for k in runs.indices where k != i && runs[k].state.isActive && sharesTouch(k, i) {
            if !simultaneous(id, runs[k].id) {
                fail(id, reason: .excluded, rule: .g4, by: runs[k].id, trace: &trace)
                return
            }
        }
        guard spec.shouldBegin else {
            fail(id, reason: .shouldBeginFalse, rule: .g6, by: nil, trace: &trace)
            return
        }
        if let control = preemptingControl(run: i, view: view, spec: spec) {
            fail(id, reason: .controlDefaultAction, rule: .g10, by: control, trace: &trace)
            return
        }
        if let kept = contentKeepsTouch(run: i) {
            fail(id, reason: kept.reason, rule: .k8, by: kept.by, trace: &trace)
            return
        }
        let to: GestureState = spec.kind.isDiscrete ? .recognized : .began
        transition(id, to: to, rule: released ? .g5 : rule, reason: released ? .requiredFailed : reason, trace: &trace)
        // G5: those that require this one fail; G4: the others sharing a touch fail unless simultaneous. By index,
        // reading each run's state as it is now: `fail` acts only on a run still possible, so the outcome is the
        // same as over a copy of the runs taken before, and no run is copied.
        for k in runs.indices where k != i && runs[k].state == .possible {
            if withSpec(runs[k].id, { $1.pointee.requireToFail.contains(id) }) == true {
                fail(runs[k].id, reason: .requiredRecognized, rule: .g5, by: id, trace: &trace)
            }
        }
        for k in runs.indices where k != i && runs[k].state == .possible && sharesTouch(k, i) {
            if !simultaneous(id, runs[k].id) { fail(runs[k].id, reason: .excluded, rule: .g4, by: id, trace: &trace) }
        }
        takeTouches(id, spec: spec, trace: &trace)
        sendActions(id, trace: &trace)
    }

    /// G2: possible → failed; then G5: recognizers waiting on this one try again.
    mutating func fail(_ id: String, reason: GestureReason, rule: Rule, by: String?, trace: inout Trace) {
        guard let i = runIndex(id), runs[i].state == .possible else { return }
        runs[i].pending = nil
        transition(id, to: .failed, rule: rule, reason: reason, by: by, trace: &trace)
        // A touch being cancelled fails every recognizer observing it: none of them may complete on the way.
        // By index, reading each run as it is now: a run stops being pending or possible on the way and never
        // starts again here, and `attempt` acts only on one that still is, so the outcome is the same as over a
        // copy of the runs taken before, and no run is copied.
        for k in runs.indices where runs[k].pending != nil && runs[k].state == .possible {
            if let cancelling, runs[k].touches.contains(cancelling) { continue }
            if withSpec(runs[k].id, { $1.pointee.requireToFail.contains(id) }) == true, let p = runs[k].pending {
                attempt(runs[k].id, reason: p.reason, rule: p.rule, trace: &trace)
            }
        }
    }

    /// G4: whether runs `a` and `b` have seen a touch in common. A run sees a touch or two: the lists are compared
    /// in place, with no set made of either.
    func sharesTouch(_ a: Int, _ b: Int) -> Bool {
        runs[a].seen.contains { runs[b].seen.contains($0) }
    }

    mutating func transition(
        _ id: String, to: GestureState, rule: Rule, reason: GestureReason?, by: String? = nil, trace: inout Trace
    ) {
        guard let i = runIndex(id) else { return }
        let change = GestureTransition(recognizer: id, from: runs[i].state, to: to, rule: rule, reason: reason, by: by)
        // Leaving possible is what lets held phases go (G8, G9): the release steps name the last to do so.
        if runs[i].state == .possible { releaseCause = id }
        runs[i].state = to
        trace.add(.gesture(change))
        gestureLog.record(change, runs: runs.count)
    }

    /// G4: either one names the other in `simultaneousWith`.
    func simultaneous(_ a: String, _ b: String) -> Bool {
        withSpec(a, { $1.pointee.simultaneousWith.contains(b) }) == true
            || withSpec(b, { $1.pointee.simultaneousWith.contains(a) }) == true
    }

    /// G10: a control below the recognizer's view that tracks one of its touches keeps the gesture that is its
    /// own default action (a button's single tap, a slider's drag, a switch's tap and drag).
    func preemptingControl(run i: Int, view: String, spec: AttemptParameters) -> String? {
        let singleTap = spec.kind == .tap && spec.numberOfTapsRequired == 1 && spec.numberOfTouchesRequired == 1
        // `seen`: a touch that just ended is no longer among the live ones, and the control still tracks it.
        for touch in runs[i].seen {
            // The control's kind and class read in place: `world[control]` copies the whole node.
            guard let control = tracking[touch]?.control ?? controlAwaitingBegan(touch), control != view,
                world.isAncestor(view, of: control),
                let (kind, uikitClass) = world.read(control, { ($0.pointee.spec.kind, $0.pointee.spec.uikitClass) }),
                kind == .control
            else { continue }
            let keeps: Bool
            switch uikitClass {
            case .UISlider: keeps = spec.kind == .pan || spec.kind == .swipe
            case .UISwitch: keeps = spec.kind == .pan || singleTap
            default: keeps = singleTap
            }
            if keeps { return control }
        }
        return nil
    }

    /// The control a touch is bound to while its touchesBegan is still held back (G8; K8 delaysContentTouches):
    /// it tracks the touch as soon as the phase is released, so G10 counts it as tracking already. (A button in a
    /// scroll view keeps its tap from a tap recognizer further up, as it does in UIKit.)
    func controlAwaitingBegan(_ touch: EventID) -> String? {
        guard let live = touches.first(where: { $0.id == touch }), !live.viewGot, live.withheld == nil,
            live.held.first?.phase == .began, let view = live.view,
            world.read(view, { $0.pointee.spec.kind }) == .control
        else { return nil }
        return view
    }

    /// G3: each target-action, straight to its target; a pair listed again is held once (addTarget(_:action:)
    /// ignores a pair the recognizer has), and a target lacking the action crashes the app as in A2.
    mutating func sendActions(_ id: String, trace: inout Trace) {
        scrollFollows(id, trace: &trace)
        guard !hasCrashed, let targets = withSpec(id, { $1.pointee.targets }) else { return }
        for (i, t) in targets.enumerated() where !targets[..<i].contains(where: { $0 == t }) {
            let node = world[t.target]
            let implements = node?.handling(t.action) != nil
            let crashes = node != nil && !implements && profile.unrecognizedSelector == .crash
            let reason: ActionFailure? =
                node == nil ? .targetMissing : implements ? nil : crashes ? .unrecognizedSelector : .notImplemented
            let sent = GestureActionSent(
                recognizer: id, target: t.target, action: t.action, performed: implements, reason: reason)
            trace.add(.gestureAction(sent))
            gestureLog.actions.append(sent)
            if crashes {
                crash = Crash(target: t.target, action: t.action, recognizer: id, rule: .g3)
                return
            }
        }
    }

    /// G11: recognizers whose deadline falls before `time` (or at it, `inclusive`) decide, earliest first;
    /// the clock reads each deadline as it passes.
    mutating func fireTimers(upTo time: Double, inclusive: Bool, trace: inout Trace) {
        var fired: Set<String> = []
        while !hasCrashed {
            let due = earliestDue(upTo: time, inclusive: inclusive)
            // K5: a held stepper's timer, a minimum like a long press's: it fires before an input at its time. (No
            // stepper held, the common case, is known without walking the table.)
            if !steppers.isEmpty, let tick = nextStepperTick(), tick.at <= time + Self.timeTolerance,
                due == nil || tick.at < due!.at
            {
                stepperTick(tick.touch, at: tick.at, until: time, trace: &trace)
                continue
            }
            guard let due, fired.insert("\(due.id)@\(due.at)").inserted, let i = runIndex(due.id) else { return }
            clock = max(clock, due.at)
            apply(runs[i].timeout(), to: due.id, trace: &trace)
            releaseHeld(trace: &trace)
        }
    }

    static let timeTolerance = 1e-9

    /// The run whose deadline comes first among those due by `time` (G11), and that deadline. The runs are read
    /// through a pointer: `runs[i]` read beside the session copied the whole run, twice an input for every run.
    private func earliestDue(upTo time: Double, inclusive: Bool) -> (id: String, at: Double)? {
        runs.withUnsafeBufferPointer { runs in
            var due: (index: Int, at: Double)?
            for i in runs.indices {
                let run = runs.baseAddress! + i
                guard let at = deadline(of: run) else { continue }
                // Times are decimal seconds sent as binary doubles (0.1 + 0.35 is not 0.45): a deadline within a
                // nanosecond of an input's time counts as that time.
                // A deadline that is a minimum (a long press's duration) is met by an input at that time, so it fires
                // first; one that is a limit (a tap interval, a swipe's duration) leaves an input at that time in time.
                let firesFirst = inclusive || run.pointee.kind == .longPress
                guard firesFirst ? at <= time + Self.timeTolerance : at < time - Self.timeTolerance else { continue }
                if due == nil || at < due!.at { due = (i, at) }
            }
            return due.map { (runs[$0.index].id, $0.at) }
        }
    }

    /// Run `i`'s deadline (G11); none once its recognizer is gone.
    func deadline(ofRun i: Int) -> Double? {
        runs.withUnsafeBufferPointer { deadline(of: $0.baseAddress! + i) }
    }

    /// A run's deadline, the run read where it is stored and its recognizer looked up only for a run that has one:
    /// this is asked twice an input, for every run, and `runs[i]` read beside the session copied the whole run.
    private func deadline(of run: UnsafePointer<GestureRun>) -> Double? {
        switch GestureRun.deadlineBasis(of: run, profile: profile) {
        case nil:
            return nil
        case .pressedSince(let since):
            return world.withRecognizer(run.pointee.id, on: run.pointee.view, slot: run.pointee.viewSlot) {
                since + $1.pointee.minimumPressDuration
            }
        case .at(let at):
            return world.withRecognizer(run.pointee.id, on: run.pointee.view, slot: run.pointee.viewSlot) { _, _ in true
            } == true ? at : nil
        }
    }

    /// G2: recognizers in an end state with no live touches are reset to possible; idle ones are dropped.
    mutating func resetFinished(trace: inout Trace) {
        for i in runs.indices where runs[i].state.isFinal && runs[i].touches.isEmpty {
            let change = GestureTransition(
                recognizer: runs[i].id, from: runs[i].state, to: .possible, rule: .g2, reason: .reset)
            trace.add(.gesture(change))
            gestureLog.record(change, runs: runs.count)
        }
        // From the last run back, each decided as it is reached: whether a run is idle reads only that run, so the
        // ones removed after it change nothing, and no list of them is made. (`removeAll`'s closure on `runs` may
        // not read the session it belongs to.)
        for i in runs.indices.reversed() where isIdle(run: i) { runs.remove(at: i) }
    }

    /// G2: whether run `i` is done with (finished, its touches gone) or has nothing to wait for.
    private func isIdle(run i: Int) -> Bool {
        if runs[i].state.isFinal { return runs[i].touches.isEmpty }
        guard runs[i].touches.isEmpty, runs[i].pending == nil else { return false }
        return deadline(ofRun: i) == nil
    }

    /// After an input: time that is due decides (G11), held phases whose holders are gone are delivered
    /// (G8, G9), finished recognizers reset (G2) and touches the view is done with are forgotten.
    mutating func settleGestures(trace: inout Trace) {
        if !hasCrashed {
            fireTimers(upTo: clock, inclusive: true, trace: &trace)
            releaseHeld(trace: &trace)
        }
        resetFinished(trace: &trace)
        // Asked first: `removeAll` rewrites the list even when it removes nothing, as after a began.
        if touches.contains(where: \.isDone) {
            touches.removeAll(where: \.isDone)
        }
    }

    /// G11: moves the session's clock; recognizers waiting on time decide. Its trace (kind `clock`) is published.
    public mutating func advanceClock(to: Double?, by: Double?) throws(CoreError) -> Traced<ClockOutcome> {
        let target = to ?? clock + (by ?? 0)
        guard target.isFinite, target >= clock else {
            throw .clockBackwards(target, clock: clock)
        }
        if profile.model == .android { return androidAdvanceClock(to: target) }
        var trace = Trace(kind: .clock)
        gestureLog = GestureLog()
        releaseCause = nil
        crash = nil
        let from = clock
        fireTimers(upTo: target, inclusive: true, trace: &trace)
        // A2, G3: a crash stops the clock where it happened.
        clock = hasCrashed ? clock : target
        settleGestures(trace: &trace)
        let crashed = crash
        commitChanges()
        let log = gestureLog
        gestureLog = GestureLog()
        return trace.finish(
            ClockOutcome(
                from: from, time: clock, gestures: log.transitions, gestureActions: log.actions,
                gestureDeliveries: log.deliveries, controlEvents: log.controlEvents.isEmpty ? nil : log.controlEvents,
                crashed: crashed))
    }

    /// 12.8: every recognizer of the session, by id, with its state and the touches it observes.
    public var recognizers: [GestureRecognizerInfo] {
        (world.recognizerOwners.keys + world.builtInPans.map(\.spec.id)).sorted().compactMap { id in
            guard let (view, spec) = world.recognizer(id) else { return nil }
            guard let run = runs.first(where: { $0.id == id }) else {
                return GestureRecognizerInfo(
                    recognizer: id, view: view, kind: spec.kind, state: .possible, touches: [], waitingFor: [])
            }
            var info = run.info
            if run.pending != nil {
                info.waitingFor = spec.requireToFail.filter { r in runs.contains { $0.id == r && $0.state == .possible }
                }
            }
            return info
        }
    }
}
