import ResponderProtocol

extension SessionState {
    static let remoteSubtypes: Set<String> = [
        "play", "pause", "togglePlayPause", "stop", "nextTrack", "previousTrack",
        "beginSeekingBackward", "endSeekingBackward", "beginSeekingForward", "endSeekingForward",
    ]

    /// E1/F4: the key window's first responder; E3: with none, the key window (or nothing, by profile).
    func firstResponderEventStart(message: String, trace: inout Trace, tag: [(key: String, value: JSON)] = []) -> String? {
        guard let key = world.keyWindow else {
            trace.discard(message, reason: "no-key-window", rule: "E3", extra: tag)
            return nil
        }
        if let fr = firstResponderByWindow[key], world[fr] != nil { return fr }
        switch profile.noFirstResponder {
        case .keyWindow: return key
        case .drop:
            trace.discard(message, reason: "no-first-responder", rule: "E3", extra: tag)
            return nil
        }
    }

    private func eventOutcome(_ start: String?, _ walk: ChainWalk, _ extra: [(key: String, value: JSON)]) -> JSON {
        .object(extra + [("start", JSON(start)), ("visited", JSON(walk.visited)), ("handledBy", JSON(walk.handledBy))])
    }

    /// `{subtype: "shake", phase: began|ended|cancelled}` → motionBegan/Ended/Cancelled up the chain from
    /// the first responder (E1).
    public mutating func motion(_ params: JSON) throws(RPCError) -> Dispatch {
        var r = try ParamReader(params)
        _ = r.raw("session")
        let subtype = try r.string("subtype") ?? "shake"
        guard subtype == "shake" else { throw r.error("subtype", "expected \"shake\", got \"\(subtype)\"") }
        let phase = try r.requiredString("phase")
        let messages = ["began": "motionBegan", "ended": "motionEnded", "cancelled": "motionCancelled"]
        guard let message = messages[phase] else { throw r.error("phase", "expected began, ended or cancelled, got \"\(phase)\"") }
        try r.finish()
        var trace = Trace(kind: "motion")
        let start = firstResponderEventStart(message: message, trace: &trace)
        var walk = ChainWalk()
        if let start { walk = walkChain(message, from: start, responders: Responders(world), rule: "E1", tag: [], trace: &trace) }
        return trace.finish(eventOutcome(start, walk, [("subtype", .string(subtype)), ("phase", .string(phase)), ("message", .string(message))]))
    }

    /// `{subtype}` → remoteControlReceived up the chain from the first responder, only while the
    /// application receives remote-control events (E1).
    public mutating func remoteControl(_ params: JSON) throws(RPCError) -> Dispatch {
        var r = try ParamReader(params)
        _ = r.raw("session")
        let subtype = try r.requiredString("subtype")
        guard Self.remoteSubtypes.contains(subtype) else {
            throw r.error("subtype", "expected one of \(Self.remoteSubtypes.sorted().joined(separator: ", ")), got \"\(subtype)\"")
        }
        try r.finish()
        let message = "remoteControlReceived"
        var trace = Trace(kind: "remoteControl")
        var start: String?
        var walk = ChainWalk()
        if !world.root.receivesRemoteControlEvents {
            trace.discard(message, reason: "not-receiving-remote-control-events", rule: "E1")
        } else {
            start = firstResponderEventStart(message: message, trace: &trace)
            if let start { walk = walkChain(message, from: start, responders: Responders(world), rule: "E1", tag: [], trace: &trace) }
        }
        return trace.finish(eventOutcome(start, walk, [("subtype", .string(subtype)), ("message", .string(message))]))
    }

    /// `{press, key, phase: began|changed|ended|cancelled}` → pressesBegan/Changed/Ended/Cancelled. A press
    /// starts like any first-responder event (E1, E3) and stays bound to where its began went (E2).
    public mutating func press(_ params: JSON, client: String) throws(RPCError) -> Dispatch {
        var r = try ParamReader(params)
        _ = r.raw("session")
        let (id, key) = try eventID(r.raw("press"), field: "press", r)
        let keyName = try r.string("key")
        let phase = try r.requiredString("phase")
        let messages = ["began": "pressesBegan", "changed": "pressesChanged", "ended": "pressesEnded", "cancelled": "pressesCancelled"]
        guard let message = messages[phase] else { throw r.error("phase", "expected began, changed, ended or cancelled, got \"\(phase)\"") }
        try r.finish()
        let tag: [(key: String, value: JSON)] = [("press", id)]
        var trace = Trace(kind: "press")
        var press: LivePress
        if phase == "began" {
            if let live = presses.first(where: { $0.key == key }) {
                throw RPCError(.pressInUse, "press \(key) is live (owned by \(live.client))", [("press", id), ("client", .string(live.client))])
            }
            guard keyName != nil else { throw r.error("key", "is required for began") }
            let start = firstResponderEventStart(message: message, trace: &trace, tag: tag)
            press = LivePress(id: id, key: key, client: client, keyName: keyName, responder: start, window: start.flatMap { world.responderWindow(of: $0) }, phase: phase)
            presses.append(press)
        } else {
            guard let index = presses.firstIndex(where: { $0.key == key }) else {
                throw RPCError(.pressNotFound, "no live press \(key)", [("press", id)])
            }
            guard presses[index].client == client else {
                throw RPCError(.pressInUse, "press \(key) belongs to another client", [("press", id), ("client", .string(presses[index].client))])
            }
            if let keyName { presses[index].keyName = keyName }
            presses[index].phase = phase
            press = presses[index]
            if phase == "ended" || phase == "cancelled" { presses.remove(at: index) }
            if press.responder == nil { trace.discard(message, reason: "no-responder", rule: "E2", extra: tag) }
        }
        var walk = ChainWalk()
        if let start = press.responder {
            walk = walkChain(message, from: start, responders: Responders(world), rule: phase == "began" ? "E1" : "E2", tag: tag, trace: &trace)
        }
        return trace.finish(eventOutcome(press.responder, walk, [("press", id), ("key", JSON(press.keyName)), ("phase", .string(phase)), ("message", .string(message))]))
    }
}
