import ResponderProtocol

/// E4: a text key and the field that would take it.
struct TypedKey {
    var field: String
    var key: TextKey
}

/// E5: a began press as key commands see it.
struct KeyPress {
    var id: EventID
    var key: String
    var modifiers: [KeyModifier]
}

/// E4, E5: who took a press after the pressesBegan walk.
struct PressTaken {
    var textInput: String?
    var keyCommand: KeyCommandOutcome?
}

/// E5: a responder's key command that matches a press.
struct KeyCommandMatch {
    var responder: String
    var command: KeyCommand
}

extension SessionState {
    /// E4, E5: a began press no responder consumed. Text input takes it first unless the profile puts key
    /// commands first or the winning command wants priority over system behaviour; key commands get what text
    /// input did not take.
    mutating func textInputAndKeyCommands(
        _ press: KeyPress?, start: String, typing: TypedKey?, trace: inout Trace
    ) -> PressTaken {
        var taken = PressTaken()
        let matches = press.map { keyCommandMatches($0, from: start) } ?? []
        let winner = profile.keyCommandClash == .nearest ? matches.first : matches.last
        let commandsFirst =
            profile.keyCommandOrder == .keyCommandsFirst || winner?.command.wantsPriorityOverSystemBehavior == true
        if commandsFirst, let press {
            taken.keyCommand = sendKeyCommand(press, matches: matches, winner: winner, start: start, trace: &trace)
            if taken.keyCommand?.performed == true { return taken }
        }
        if let typing {
            taken.textInput = typing.field
            type(typing.key, into: typing.field, trace: &trace)
            return taken
        }
        if !commandsFirst, let press {
            taken.keyCommand = sendKeyCommand(press, matches: matches, winner: winner, start: start, trace: &trace)
        }
        return taken
    }

    /// E5: the responders from `start` up the chain whose key commands match `press`, nearest first; each
    /// responder's first matching command in declaration order.
    func keyCommandMatches(_ press: KeyPress, from start: String) -> [KeyCommandMatch] {
        let responders = Responders()
        var matches: [KeyCommandMatch] = []
        var seen = CycleGuard()
        var current: String? = start
        while let id = current, seen.firstPass(id),
            let commands = responders.read(id, in: world, { $0.pointee.spec.keyCommands })
        {
            if let command = commands.first(where: { $0.matches(key: press.key, modifiers: press.modifiers) }) {
                matches.append(KeyCommandMatch(responder: id, command: command))
            }
            current = responders.next(of: id, in: world)
        }
        return matches
    }

    /// E5: the system's commands (⌘X ⌘C ⌘V ⌘A, through A5) have the first opportunity; then the winning
    /// responder's command, its action sent nil-targeted from the first responder (A3/A4). Nil when no command
    /// matched.
    private mutating func sendKeyCommand(
        _ press: KeyPress, matches: [KeyCommandMatch], winner: KeyCommandMatch?, start: String, trace: inout Trace
    ) -> KeyCommandOutcome? {
        var outcome: KeyCommandOutcome?
        if let system = KeyCommand.system.first(where: { $0.matches(key: press.key, modifiers: press.modifiers) }) {
            outcome = perform(
                KeyCommandMatch(responder: World.rootID, command: system), press: press, sender: World.rootID,
                system: true, trace: &trace)
            if outcome?.performed == true { return outcome }
        }
        guard let winner else { return outcome }
        trace.add(
            .keyCommand(
                KeyCommandStep(id: winner.responder, command: winner.command, result: .matched, press: press.id)))
        for other in matches where other.responder != winner.responder {
            trace.add(
                .keyCommand(
                    KeyCommandStep(id: other.responder, command: other.command, result: .skipped, press: press.id)))
        }
        return perform(winner, press: press, sender: start, system: false, trace: &trace, announced: true)
    }

    /// E5: sends the command's action nil-targeted (A3/A4) and notes whether it was performed, and by whom.
    private mutating func perform(
        _ match: KeyCommandMatch, press: KeyPress, sender: String, system: Bool, trace: inout Trace,
        announced: Bool = false
    ) -> KeyCommandOutcome {
        if !announced {
            trace.add(
                .keyCommand(
                    KeyCommandStep(
                        id: match.responder, command: match.command, result: .matched, system: system, press: press.id))
            )
        }
        let sent = performAction(
            match.command.action, target: nil, sender: sender, responders: Responders(), trace: &trace)
        trace.add(
            .keyCommand(
                KeyCommandStep(
                    id: match.responder, command: match.command, result: sent.performed ? .performed : .notPerformed,
                    by: sent.by, system: system, press: press.id)))
        return KeyCommandOutcome(
            responder: match.responder, command: match.command, performed: sent.performed, by: sent.by, system: system)
    }
}
