import ResponderProtocol

extension SessionState {
    /// E1/F4: the key window's first responder; E3: with none, the key window (or nothing, by profile).
    func firstResponderEventStart(message: String, trace: inout Trace, tag: EventTag? = nil) -> String? {
        guard let key = world.keyWindow else {
            trace.discard(message, reason: .noKeyWindow, rule: .e3, tag: tag)
            return nil
        }
        if let fr = firstResponderByWindow[key], world.contains(fr) { return fr }
        switch profile.noFirstResponder {
        case .keyWindow: return key
        case .drop:
            trace.discard(message, reason: .noFirstResponder, rule: .e3, tag: tag)
            return nil
        }
    }

    /// E1: motionBegan/Ended/Cancelled up the chain from the first responder.
    public mutating func motion(_ subtype: MotionSubtype = .shake, phase: MotionPhase) -> Traced<MotionOutcome> {
        var trace = Trace(kind: .motion)
        let start = firstResponderEventStart(message: phase.message, trace: &trace)
        var walk = ChainWalk()
        if let start {
            walk = walkChain(
                phase.message, from: start, world: world, responders: Responders(), rule: .e1, tag: nil, trace: &trace)
        }
        return trace.finish(
            MotionOutcome(
                subtype: subtype, phase: phase, start: start, visited: walk.visited, handledBy: walk.handledBy))
    }

    /// E1: remoteControlReceived up the chain from the first responder, only while the application receives
    /// remote-control events.
    public mutating func remoteControl(_ subtype: RemoteControlSubtype) -> Traced<RemoteControlOutcome> {
        let message = "remoteControlReceived"
        var trace = Trace(kind: .remoteControl)
        var start: String?
        var walk = ChainWalk()
        if !world.root.receivesRemoteControlEvents {
            trace.discard(message, reason: .notReceivingRemoteControlEvents, rule: .e1)
        } else {
            start = firstResponderEventStart(message: message, trace: &trace)
            if let start {
                walk = walkChain(
                    message, from: start, world: world, responders: Responders(), rule: .e1, tag: nil, trace: &trace)
            }
        }
        return trace.finish(
            RemoteControlOutcome(subtype: subtype, start: start, visited: walk.visited, handledBy: walk.handledBy))
    }

    /// E1–E3: pressesBegan/Changed/Ended/Cancelled. A press starts like any first-responder event and stays
    /// bound to where its began went (E2). `key` is required for began. E4/E5: a began press no responder
    /// consumed goes to text input and key commands, in the profile's order. The UIKit model's key press
    /// (`UIKitModel.press`).
    mutating func uikitPress(
        _ id: EventID, key keyName: String?, modifiers: [KeyModifier], phase: PressPhase, client: String
    ) throws(CoreError) -> Traced<PressOutcome> {
        let tag = EventTag.press(id)
        let message = phase.message
        let modifiers = KeyModifier.canonical(modifiers)
        var trace = Trace(kind: .press)
        var press: LivePress
        if phase == .began {
            if let live = presses.first(where: { $0.id == id }) {
                throw .pressInUse(id, client: live.client, reason: .live)
            }
            let start = firstResponderEventStart(message: message, trace: &trace, tag: tag)
            press = LivePress(
                id: id, client: client, keyName: keyName, responder: start,
                window: start.flatMap { world.responderWindow(of: $0) }, phase: phase)
            presses.append(press)
        } else {
            guard let index = presses.firstIndex(where: { $0.id == id }) else {
                throw .pressNotFound(id)
            }
            guard presses[index].client == client else {
                throw .pressInUse(id, client: presses[index].client, reason: .otherClient)
            }
            if let keyName { presses[index].keyName = keyName }
            presses[index].phase = phase
            press = presses[index]
            if phase.isFinal { presses.remove(at: index) }
            if press.responder == nil { trace.discard(message, reason: .noResponder, rule: .e2, tag: tag) }
        }
        var walk = ChainWalk()
        var taken = PressTaken()
        // E4: a began press with a text meaning, while an editable text field or view is first responder;
        // Command and Control combinations are never typed (E5).
        var typing: TypedKey?
        if phase == .began, !modifiers.contains(.command), !modifiers.contains(.control),
            let field = typingTarget(press.responder), let key = keyName.flatMap(TextKey.init)
        {
            typing = TypedKey(field: field, key: key)
        }
        let keyPress = phase == .began ? keyName.map { KeyPress(id: id, key: $0, modifiers: modifiers) } : nil
        if let typing, profile.textInputPress == .firstResponder {
            // The field takes the key at its pressesBegan; nothing above it sees the press.
            trace.add(
                .deliver(to: typing.field, message: message, disposition: .handled, rule: .e4, reason: nil, tag: tag))
            walk.visited = [typing.field]
            walk.handledBy = [typing.field]
            taken = textInputAndKeyCommands(keyPress, start: typing.field, typing: typing, trace: &trace)
        } else if let start = press.responder {
            walk = walkChain(
                message, from: start, world: world, responders: Responders(), rule: phase == .began ? .e1 : .e2,
                tag: tag,
                trace: &trace)
            // E4, E5: no responder consumed it: text input and key commands get it after the chain; taken, it
            // is not discarded.
            if phase == .began, walk.discarded, case .discard(_, .endOfChain, _, _, _, _)? = trace.steps.last {
                let discard = trace.steps.removeLast()
                taken = textInputAndKeyCommands(keyPress, start: start, typing: typing, trace: &trace)
                if taken.textInput != nil || taken.keyCommand?.performed == true {
                    walk.discarded = false
                } else {
                    trace.add(discard)
                }
            }
        }
        commitChanges()
        var outcome = PressOutcome(
            press: id, key: press.keyName, phase: phase, start: press.responder, visited: walk.visited,
            handledBy: walk.handledBy)
        outcome.textInput = taken.textInput
        outcome.keyCommand = taken.keyCommand
        outcome.modifiers = modifiers.isEmpty ? nil : modifiers
        return trace.finish(outcome)
    }
}
