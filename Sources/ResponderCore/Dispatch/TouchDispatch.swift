import ResponderProtocol

/// One touch phase of a `touch` request.
struct TouchInput {
    var id: JSON
    var key: String
    var phase: String
    var point: Point?
}

extension SessionState {
    static let touchMessages = ["began": "touchesBegan", "moved": "touchesMoved", "ended": "touchesEnded", "cancelled": "touchesCancelled"]

    /// `{touches: [{touch, phase, point}], tapCount?}`: each touch phase in the order given (T1–T5).
    /// Atomic: an error leaves the session exactly as it was.
    public mutating func touch(_ params: JSON, client: String) throws(RPCError) -> Dispatch {
        var r = try ParamReader(params)
        _ = r.raw("session")
        guard let list = try r.array("touches"), !list.isEmpty else { throw r.error("touches", "is required and must not be empty") }
        let tapCount = try r.int("tapCount") ?? 1
        guard tapCount >= 1 else { throw r.error("tapCount", "must be at least 1") }
        try r.finish()
        var inputs: [TouchInput] = []
        for (i, entry) in list.enumerated() {
            var e = try ParamReader(entry, path: "touches[\(i)].")
            let (id, key) = try eventID(e.raw("touch"), field: "touch", e)
            let phase = try e.requiredString("phase")
            guard ["began", "moved", "stationary", "ended", "cancelled"].contains(phase) else {
                throw e.error("phase", "expected began, moved, stationary, ended or cancelled, got \"\(phase)\"")
            }
            let point = try e.point("point").map { Point($0.0, $0.1) }
            if phase == "began" && point == nil { throw e.error("point", "is required for began") }
            try e.finish()
            inputs.append(TouchInput(id: id, key: key, phase: phase, point: point))
        }
        var session = self
        var trace = Trace(kind: "touch")
        var deliveries: [JSON] = []
        for (i, input) in inputs.enumerated() {
            do throws(RPCError) {
                deliveries.append(try session.handle(input, client: client, tapCount: tapCount, trace: &trace))
            } catch {
                throw error.with("index", JSON(i))
            }
        }
        self = session
        return trace.finish(["deliveries": .array(deliveries)])
    }

    /// `{point, tapCount?}`: a fresh touch that begins and ends at `point`.
    public mutating func tap(_ params: JSON, client: String) throws(RPCError) -> Dispatch {
        var r = try ParamReader(params)
        _ = r.raw("session")
        guard let (x, y) = try r.point("point") else { throw r.error("point", "is required") }
        let tapCount = try r.int("tapCount") ?? 1
        guard tapCount >= 1 else { throw r.error("tapCount", "must be at least 1") }
        try r.finish()
        var id: String
        repeat {
            tapCounter += 1
            id = "tap-\(tapCounter)"
        } while touches.contains { $0.id == .string(id) }
        let touch: JSON = .string(id)
        return try self.touch(
            ["touches": [["touch": touch, "phase": "began", "point": [.number(x), .number(y)]], ["touch": touch, "phase": "ended", "point": [.number(x), .number(y)]]], "tapCount": JSON(tapCount)],
            client: client)
    }

    private mutating func handle(_ input: TouchInput, client: String, tapCount: Int, trace: inout Trace) throws(RPCError) -> JSON {
        if input.phase == "began" {
            if let live = touches.first(where: { $0.key == input.key }) {
                throw RPCError(.touchInUse, "touch \(input.key) is live (owned by \(live.client))", [("touch", input.id), ("client", .string(live.client))])
            }
            return began(input, client: client, tapCount: tapCount, trace: &trace)
        }
        guard let index = touches.firstIndex(where: { $0.key == input.key }) else {
            throw RPCError(.touchNotFound, "no live touch \(input.key)", [("touch", input.id)])
        }
        guard touches[index].client == client else {
            throw RPCError(.touchInUse, "touch \(input.key) belongs to another client", [("touch", input.id), ("client", .string(touches[index].client))])
        }
        if let p = input.point { touches[index].point = p }
        touches[index].phase = input.phase
        let touch = touches[index]
        if input.phase == "ended" || input.phase == "cancelled" { touches.remove(at: index) }
        let tag: [(key: String, value: JSON)] = [("touch", touch.id)]
        guard let view = touch.view else {
            // T4/T5/no hit: a touch delivered to no one stays so for its whole life.
            let why = touch.undelivered ?? ("no-view", "T1")
            let message = Self.touchMessages[input.phase]
            if let message { trace.discard(message, reason: why.reason, rule: why.rule, extra: tag) }
            return undeliveredEntry(touch, message: message, why: why)
        }
        if input.phase == "stationary" {
            // A stationary touch is not part of touchesMoved; nothing is delivered.
            return entry(touch, message: nil, walk: ChainWalk(), reason: "stationary", view: view)
        }
        // T1/T2: later phases go to the bound view, with no new hit test.
        return deliver(touch, phase: input.phase, responders: Responders(world), rule: "T2", trace: &trace)
    }

    private mutating func began(_ input: TouchInput, client: String, tapCount: Int, trace: inout Trace) -> JSON {
        var tester = HitTester(world: world, profile: profile)
        let hit = tester.run(screen: input.point!)
        for v in hit.visits {
            trace.add(.object([("step", "hitTest")] + v.json.objectMembers! + [("touch", input.id)]))
        }
        var touch = LiveTouch(id: input.id, key: input.key, client: client, view: hit.view, window: hit.window, phase: "began", point: input.point!, tapCount: tapCount)
        let tag: [(key: String, value: JSON)] = [("touch", input.id)]
        guard let view = hit.view, let window = hit.window else {
            touch.undelivered = ("no-hit", "H1")
            touches.append(touch)
            trace.discard("touchesBegan", reason: "no-hit", rule: "H1", extra: tag)
            return undeliveredEntry(touch, message: "touchesBegan", why: touch.undelivered!)
        }
        if let blocked = admission(view: view, window: window) {
            touch.view = nil
            touch.undelivered = (blocked.reason, blocked.rule)
            touches.append(touch)
            trace.discard("touchesBegan", reason: blocked.reason, rule: blocked.rule, extra: tag + [("blockedBy", .string(blocked.by))])
            return undeliveredEntry(touch, message: "touchesBegan", why: touch.undelivered!, hitView: view)
        }
        touches.append(touch)
        return deliver(touch, phase: "began", responders: Responders(world), rule: "T2", trace: &trace)
    }

    /// T5 then T4: whether a new touch that hit `view` may be delivered to it.
    private func admission(view: String, window: String) -> (reason: String, rule: String, by: String)? {
        let tracked = touches.filter { $0.window == window && $0.view != nil }
        // T5: an exclusive view tracking a touch keeps every other view of its window from getting one…
        if let other = tracked.first(where: { $0.view != view && world[$0.view!]?.exclusiveTouch == true }) {
            return ("exclusive-touch", "T5", other.view!)
        }
        // …and an exclusive view gets a new touch only if no other view of its window is tracking one.
        if world[view]?.exclusiveTouch == true, let other = tracked.first(where: { $0.view != view }) {
            return ("exclusive-touch", "T5", other.view!)
        }
        // T4: without multipleTouchEnabled a view gets only the first touch until that one ends.
        if world[view]?.multipleTouchEnabled == false, let first = tracked.first(where: { $0.view == view }) {
            return ("multiple-touch-disabled", "T4", first.view!)
        }
        return nil
    }

    /// T2/T3: delivers one phase of a bound touch up the chain from its view; an enabled control takes it
    /// over and turns it into control events. Also used for T6 cancellation (`rule` "T6").
    mutating func deliver(_ touch: LiveTouch, phase: String, responders: Responders, rule: String, trace: inout Trace) -> JSON {
        let message = Self.touchMessages[phase]!
        let view = touch.view!
        let tag: [(key: String, value: JSON)] = [("touch", touch.id)]
        let tracking = self.tracking
        let walk = walkChain(message, from: view, responders: responders, rule: rule, tag: tag, trace: &trace) { node in
            // T3: a control does not pass touches on — unless its own override stops them without super.
            guard node.kind.isControl, node.handling(message) != .handle else { return false }
            return node.enabled || tracking[touch.key]?.control == node.id
        }
        var result = entry(touch, message: message, walk: walk, reason: nil, view: view, responders: responders)
        if let control = walk.consumedBy {
            let effects = trackControl(control, touch: touch, phase: phase, responders: responders, trace: &trace)
            result = result.setting("controlEvents", JSON(effects.events)).setting("actions", .array(effects.actions))
        }
        if phase == "ended" || phase == "cancelled" { self.tracking[touch.key] = nil }
        return result
    }

    private func entry(_ touch: LiveTouch, message: String?, walk: ChainWalk, reason: String?, view: String, responders: Responders? = nil) -> JSON {
        let responders = responders ?? Responders(world)
        var local: JSON = .null
        if let w = touch.window, responders.world[view] != nil, let wp = world.convert(screen: touch.point, toWindow: w),
            let lp = world.convert(wp, fromWindow: w, to: view)
        {
            local = lp.json
        }
        var m: [(key: String, value: JSON)] = [
            ("touch", touch.id), ("phase", .string(touch.phase)), ("view", .string(view)), ("window", JSON(touch.window)),
            ("localPoint", local), ("message", JSON(message)), ("visited", JSON(walk.visited)), ("handledBy", JSON(walk.handledBy)),
            ("controlEvents", []), ("actions", []),
        ]
        if let reason { m.append(("reason", .string(reason))) }
        return .object(m)
    }

    private func undeliveredEntry(_ touch: LiveTouch, message: String?, why: (reason: String, rule: String), hitView: String? = nil) -> JSON {
        var m: [(key: String, value: JSON)] = [
            ("touch", touch.id), ("phase", .string(touch.phase)), ("view", .null), ("window", JSON(touch.window)),
            ("localPoint", .null), ("message", JSON(message)), ("visited", []), ("handledBy", []),
            ("controlEvents", []), ("actions", []), ("reason", .string(why.reason)), ("rule", .string(why.rule)),
        ]
        if let hitView { m.append(("hitView", .string(hitView))) }
        return .object(m)
    }
}
