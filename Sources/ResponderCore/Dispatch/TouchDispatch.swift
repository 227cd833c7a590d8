import ResponderJSON
import ResponderProtocol

extension SessionState {
    /// T1–T5, G1–G11: the UIKit model's touch sequence (`UIKitModel.touch`), each phase in the order given.
    /// Atomic: an error leaves the session exactly as it was.
    mutating func uikitTouch(_ inputs: [TouchInput], tapCount: Int, client: String) throws(CoreError) -> Traced<
        TouchOutcome
    > {
        guard cannotFail(inputs, client: client) else {
            // Atomic the general way: carried out on a copy that replaces the session only if every input passes.
            var session = self
            let outcome = try session.carryOut(inputs, tapCount: tapCount, client: client)
            self = session
            return outcome
        }
        // Every input is known to pass, so nothing can fail half-way: carried out in place. A copy would make
        // each array and table the touch changes copy itself on its first change (copy-on-write), and free the
        // old state afterwards — a tenth of a tap's cost.
        do throws(CoreError) {
            return try carryOut(inputs, tapCount: tapCount, client: client)
        } catch {
            preconditionFailure("SessionState.uikitTouch: an input checked by cannotFail failed: \(error)")
        }
    }

    private mutating func carryOut(_ inputs: [TouchInput], tapCount: Int, client: String) throws(CoreError) -> Traced<
        TouchOutcome
    > {
        var trace = Trace(kind: .touch)
        var deliveries: [TouchDelivery] = []
        deliveries.reserveCapacity(inputs.count)
        clearCrash()
        // A2, G3: a crash ends the request; the inputs after it are not carried out.
        for (i, input) in inputs.enumerated() where !hasCrashed {
            do throws(CoreError) {
                try handle(input, index: i, client: client, tapCount: tapCount, into: &deliveries, trace: &trace)
            } catch {
                throw .inTouch(i, error)
            }
        }
        let crashed = takeCrash()
        dismissPresented(trace: &trace)
        commitChanges()
        return trace.finish(TouchOutcome(deliveries: deliveries, crashed: crashed))
    }

    /// Whether none of `inputs` can be refused, decided from the inputs and the live touches alone: the checks
    /// `handle` and `phase` make (time order, a began's point and free id, a later phase's live touch of the same
    /// client) replayed over the ids, with nothing carried out. Conservative: an id that begins while a touch
    /// with that id exists, finished or not, answers false (a finished one may or may not be gone by then,
    /// which only dispatch decides), and so does anything else it does not prove.
    func cannotFail(_ inputs: [TouchInput], client: String) -> Bool {
        var now = clock
        // The touches of the batch so far: id, whether it still takes phases.
        var seen: [(id: EventID, open: Bool)] = []
        for input in inputs {
            if let time = input.time {
                guard time >= now else { return false }
                now = time
            }
            if input.phase == .began {
                guard input.point != nil, !seen.contains(where: { $0.id == input.touch }),
                    !touches.contains(where: { $0.id == input.touch })
                else { return false }
                seen.append((input.touch, true))
                continue
            }
            if let i = seen.firstIndex(where: { $0.id == input.touch }) {
                guard seen[i].open else { return false }
                if input.phase.isFinal { seen[i].open = false }
                continue
            }
            // Unfinished touches stay live during a request: only the client's own phases finish them, and only a
            // tree change (not a touch) removes one.
            guard touches.contains(where: { $0.id == input.touch && !$0.finished && $0.client == client }) else {
                return false
            }
            seen.append((input.touch, !input.phase.isFinal))
        }
        return true
    }

    /// A fresh touch `tap-<n>` that begins and ends at `point`, at `time` (default: the session clock). Shared by
    /// every model: the touch sequence goes through `touch`, that is through the session's model.
    public mutating func tap(at point: Point, tapCount: Int = 1, time: Double? = nil, client: String) throws(CoreError)
        -> Traced<TouchOutcome>
    {
        // A refused tap changes nothing, its id included.
        let counter = tapCounter
        var id: EventID
        repeat {
            tapCounter += 1
            id = .string("tap-\(tapCounter)")
        } while touches.contains { $0.id == id }
        do throws(CoreError) {
            return try touch(
                [
                    TouchInput(touch: id, phase: .began, point: point, time: time),
                    TouchInput(touch: id, phase: .ended, point: point)
                ],
                tapCount: tapCount, client: client)
        } catch {
            // event.tap has no touches list: its time is its own field.
            tapCounter = counter
            let unlocated = error.unlocated
            if case .timeBeforeClock(let time, let clock, _) = unlocated {
                throw .timeBeforeClock(time, clock: clock, touch: nil)
            }
            throw unlocated
        }
    }

    /// One entry, appended to `deliveries`: time passes first (G11), then recognizers see the phase (G1), then the
    /// view may (G7–G9).
    private mutating func handle(
        _ input: TouchInput, index: Int, client: String, tapCount: Int, into deliveries: inout [TouchDelivery],
        trace: inout Trace
    ) throws(CoreError) {
        if let time = input.time, time < clock {
            throw .timeBeforeClock(time, clock: clock, touch: index)
        }
        gestureLog = GestureLog()
        releaseCause = nil
        if let time = input.time, time > clock {
            fireTimers(upTo: time, inclusive: false, trace: &trace)
            clock = time
            // K8: a scroll view's delay may have run out meanwhile.
            releaseHeld(trace: &trace)
        }
        if let rule = crashRule {
            // A2, G3: an action a timer set off crashed the app before this phase.
            var d = TouchDelivery(touch: input.touch, phase: input.phase, view: nil, window: nil, message: nil)
            d.reason = .crashed
            d.rule = rule
            deliveries.append(d)
            return
        }
        deliveries.append(try phase(input, client: client, tapCount: tapCount, trace: &trace))
        settleGestures(trace: &trace)
        // Completed where the list keeps it: an entry returned and then changed is copied. The log's lists are
        // moved into it (swapped with its empty ones), not copied and then freed with the log.
        let last = deliveries.count - 1
        swap(&deliveries[last].gestures, &gestureLog.transitions)
        swap(&deliveries[last].gestureActions, &gestureLog.actions)
        swap(&deliveries[last].gestureDeliveries, &gestureLog.deliveries)
        gestureLog = GestureLog()
    }

    private mutating func phase(_ input: TouchInput, client: String, tapCount: Int, trace: inout Trace)
        throws(CoreError) -> TouchDelivery
    {
        if input.phase == .began {
            if let live = touches.first(where: { $0.id == input.touch }) {
                if live.finished {
                    throw .touchInUse(input.touch, client: live.client, reason: .heldByRecognizers)
                }
                throw .touchInUse(input.touch, client: live.client, reason: .live)
            }
            guard let point = input.point else { throw .touchPointMissing }
            return began(input.touch, at: point, client: client, tapCount: tapCount, trace: &trace)
        }
        guard let index = touches.firstIndex(where: { $0.id == input.touch && !$0.finished }) else {
            throw .touchNotFound(input.touch)
        }
        guard touches[index].client == client else {
            throw .touchInUse(input.touch, client: touches[index].client, reason: .otherClient)
        }
        if let p = input.point { touches[index].point = p }
        if let tap = touches[index].dimmingTap, tap.from.isFarther(than: profile.tapSlop, from: touches[index].point) {
            touches[index].dimmingTap = nil  // K17, K18: the dimming view's tap fails once the touch moves away
        }
        touches[index].phase = input.phase
        if input.phase.isFinal { touches[index].finished = true }
        // The touch as this phase finds it; the recognizers and held phases below change only what the touch
        // holds back (its held phases, whether it is withheld), which `deliverToView` reads again.
        let touch = touches[index].delivered
        let observers = touches[index].recognizers
        switch input.phase {
        case .moved: recognizersSee(touch.id, observers: observers, .moved(touch.id, touch.point), trace: &trace)
        case .ended: recognizersSee(touch.id, observers: observers, .ended(touch.id), trace: &trace)
        case .cancelled: recognizersSee(touch.id, observers: observers, .cancelled(touch.id), trace: &trace)
        case .began, .stationary: break
        }
        if let rule = crashRule { return undelivered(touch, message: input.phase.message, why: (.crashed, rule)) }
        releaseHeld(trace: &trace)
        guard let view = touch.view else {
            // T4/T5/no hit: a touch delivered to no one stays so for its whole life.
            let why = touches[index].undelivered ?? (.noView, .t1)
            let message = input.phase.message
            if input.phase == .ended, let tap = touches[index].dimmingTap, let dimming = world.dimming(named: tap.id) {
                dimmingTapped(dimming, trace: &trace)
            }
            if let message {
                trace.discard(
                    message, reason: DiscardReason(rawValue: why.reason.rawValue)!, rule: why.rule,
                    tag: .touch(touch.id))
            }
            return undelivered(touch, message: message, why: why)
        }
        if input.phase == .stationary {
            // A stationary touch is not part of touchesMoved; nothing is delivered.
            var d = delivery(
                touch, message: nil, walk: ChainWalk(), view: view, localPoint: localPoint(touch, in: view))
            d.reason = .stationary
            return d
        }
        // T1/T2: later phases go to the bound view, with no new hit test (G7–G9 may hold or withhold them).
        return deliverToView(index, phase: input.phase, trace: &trace)
    }

    private mutating func began(_ id: EventID, at point: Point, client: String, tapCount: Int, trace: inout Trace)
        -> TouchDelivery
    {
        let hit = HitTester.answer(world: world, profile: profile, screen: point)
        // Ids now: the trace outlives the world's state (the replay ring, a deferred event).
        for i in 0..<hit.visitCount { trace.add(.hitTest(hit.hitVisit(i), touch: id)) }
        // Made in each case with what it knows: a touch made first and changed afterwards would be copied into the
        // list.
        func live(recognizers: [String] = []) -> LiveTouch {
            LiveTouch(
                id: id, client: client, view: hit.view, window: hit.window, phase: .began, point: point,
                tapCount: tapCount, beganAt: clock, recognizers: recognizers)
        }
        let message = TouchPhase.began.message!
        guard let view = hit.view, let window = hit.window else {
            var touch = live()
            touch.undelivered = (.noHit, .h1)
            touches.append(touch)
            trace.discard(message, reason: .noHit, rule: .h1, tag: .touch(id))
            return undelivered(touch.delivered, message: message, why: touch.undelivered!)
        }
        if let dimming = world.dimming(named: view) {
            // K17, K18: the dimming view takes the touch; no responder gets it, the window's recognizers
            // observe it (G1: the window is the dimming view's superview).
            var touch = live()
            touch.view = nil
            touch.undelivered = (.dimmed, dimming.rule)
            touch.dimmingTap = (view, point)
            touch.recognizers = observe(id, hitView: window, trace: &trace)
            touches.append(touch)
            recognizersSee(id, observers: touch.recognizers, .began(id, point), trace: &trace)
            trace.discard(message, reason: .dimmed, rule: dimming.rule, tag: .touch(id), view: view)
            var d = undelivered(touch.delivered, message: message, why: touch.undelivered!)
            d.hitView = view
            return d
        }
        if let blocked = admission(view: view, window: window) {
            var touch = live()
            touch.view = nil
            touch.undelivered = (blocked.reason, blocked.rule)
            // G1 follows the hit view: T4 and T5 withhold touches from views only, so the recognizers of the
            // hit view and its ancestors still observe this one (a pinch on a single-touch view, a tap beside an
            // exclusive button) and may recognize; G7 then cancels what the views that did get touches have.
            touch.recognizers = observe(id, hitView: view, trace: &trace)
            touches.append(touch)
            recognizersSee(id, observers: touch.recognizers, .began(id, point), trace: &trace)
            trace.discard(
                message, reason: DiscardReason(rawValue: blocked.reason.rawValue)!, rule: blocked.rule, tag: .touch(id),
                blockedBy: blocked.by)
            var d = undelivered(touch.delivered, message: message, why: touch.undelivered!)
            d.hitView = view
            return d
        }
        let observers = observe(id, hitView: view, trace: &trace)
        touches.append(live(recognizers: observers))
        recognizersSee(id, observers: observers, .began(id, point), trace: &trace)
        let index = touches.count - 1
        if let rule = crashRule {
            return undelivered(touches[index].delivered, message: message, why: (.crashed, rule))
        }
        return deliverToView(index, phase: .began, trace: &trace)
    }

    /// T5 then T4: whether a new touch that hit `view` may be delivered to it.
    private func admission(view: String, window: String) -> (reason: TouchDeliveryReason, rule: Rule, by: String)? {
        // A touch the client has ended no longer counts, even while recognizers hold its ended (G9).
        let tracked = touches.filter { $0.window == window && $0.view != nil && $0.withheld == nil && !$0.finished }
        // T5: an exclusive view tracking a touch keeps every other view of its window from getting one…
        if let other = tracked.first(where: {
            $0.view != view && world.read($0.view!, { $0.pointee.spec.exclusiveTouch }) == true
        }) {
            return (.exclusiveTouch, .t5, other.view!)
        }
        // …and an exclusive view gets a new touch only if no other view of its window is tracking one.
        let (exclusive, multiple) =
            world.read(view, { ($0.pointee.spec.exclusiveTouch, $0.pointee.spec.multipleTouchEnabled) }) ?? (
                false, true
            )
        if exclusive, let other = tracked.first(where: { $0.view != view }) {
            return (.exclusiveTouch, .t5, other.view!)
        }
        // T4: without multipleTouchEnabled a view gets only the first touch until that one ends.
        if !multiple, let first = tracked.first(where: { $0.view == view }) {
            return (.multipleTouchDisabled, .t4, first.view!)
        }
        return nil
    }

    /// T2/T3: delivers one phase of a bound touch up the chain from its view; an enabled control takes it
    /// over and turns it into control events. Also used for T6 cancellation (`rule` T6).
    mutating func deliver(
        _ touch: DeliveredTouch, phase: TouchPhase, responders: Responders, rule: Rule, trace: inout Trace
    )
        -> TouchDelivery
    {
        let message = phase.message!
        let view = touch.view!
        // The one entry the walk asks about, read before it: a closure holding the whole table would keep a second
        // reference to it, and the control's tracking written after the walk would copy the table. An empty table
        // (a touch's began, usually) is not asked: the key's hash is most of a lookup.
        let trackedControl = tracking.isEmpty ? nil : tracking[touch.id]?.control
        let walk = walkChain(
            message, from: view, world: world, responders: responders, rule: rule, tag: .touch(touch.id),
            trace: &trace
        ) { node in
            // T3: a control does not pass touches on — unless its own override stops them without super.
            guard node.pointee.spec.kind.isControl, node.pointee.spec.handling(message) != .handle else { return false }
            return node.pointee.spec.enabled || trackedControl == node.pointee.spec.id
        } classHandles: { node, world in
            Self.cellHandles(node, world: world) ?? Self.scrollViewHandles(node, touchView: view)
        }
        // K14–K16: a cell that handled the phase highlights or selects.
        if let cell = walk.classHandledBy { cellTouch(cell, touch: touch, phase: phase, trace: &trace) }
        // The point in the view as it is before the control's actions; the entry is made whole at once after them
        // (an entry made and then changed is copied).
        let local = localPoint(touch, in: view)
        var effects: (events: [ControlEvent], actions: [ControlAction]) = ([], [])
        if let control = walk.consumedBy {
            effects = trackControl(
                control, touch: touch, local: local, phase: phase, responders: responders, trace: &trace)
        }
        // A final phase ends the touch's tracking. Its control, reached by the walk, has ended it already; a touch
        // tracked by no control has nothing to end (only began starts a track).
        if phase.isFinal, let trackedControl, walk.consumedBy != trackedControl { self.tracking[touch.id] = nil }
        return delivery(
            touch, message: message, walk: walk, view: view, localPoint: local, controlEvents: effects.events,
            actions: effects.actions)
    }

    private func delivery(
        _ touch: DeliveredTouch, message: String?, walk: ChainWalk, view: String, localPoint: Point?,
        controlEvents: [ControlEvent] = [], actions: [ControlAction] = []
    ) -> TouchDelivery {
        TouchDelivery(
            touch: touch.id, phase: touch.phase, view: view, window: touch.window, localPoint: localPoint,
            message: message, visited: walk.visited, handledBy: walk.handledBy, controlEvents: controlEvents,
            actions: actions)
    }

    private func undelivered(
        _ touch: DeliveredTouch, message: String?, why: (reason: TouchDeliveryReason, rule: Rule)
    )
        -> TouchDelivery
    {
        TouchDelivery(
            touch: touch.id, phase: touch.phase, view: nil, window: touch.window, localPoint: nil, message: message,
            reason: why.reason, rule: why.rule)
    }
}
