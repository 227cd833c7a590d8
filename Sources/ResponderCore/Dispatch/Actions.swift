import ResponderProtocol

/// A5: the editing-menu commands.
let editingCommands: Set<String> = ["cut:", "copy:", "paste:", "select:", "selectAll:", "delete:"]

extension SessionState {
    /// A3: where a nil-target search starts, by profile.
    func nilTargetStart(sender: String?) -> String {
        // With no first responder in any window (a tap on a button, usually) the key window is not looked for.
        let fr = firstResponderByWindow.isEmpty ? nil : keyFirstResponder
        switch profile.nilTargetStart {
        case .firstResponderThenSender: return fr ?? sender ?? World.rootID
        case .senderOnly: return sender ?? World.rootID
        case .firstResponderOnly: return fr ?? World.rootID
        }
    }

    /// A2–A4: sends `action`. `perform` false (canPerformAction) only finds the target. A responder's own
    /// `handles` come first; otherwise the built-in methods of K6/K7 answer, and performing them may change
    /// fields and the first responder.
    mutating func performAction(
        _ action: String, target: String?, sender: String?, responders: Responders, perform: Bool = true,
        trace: inout Trace
    ) -> ActionOutcome {
        var visited: [String]? = []
        let sent = send(
            action, target: target, sender: sender, responders: responders, perform: perform, visited: &visited,
            trace: &trace)
        return ActionOutcome(performed: sent.performed, by: sent.by, visited: visited ?? [], reason: sent.reason)
    }

    /// What a send came to: whether it was performed, by whom, and why not.
    struct ActionSent {
        var performed = false
        var by: String?
        var reason: ActionFailure?
    }

    /// `performAction`, with the responders asked appended to `visited` unless it is nil: a control's actions
    /// keep only who performed them, and a list made for each would be an allocation and a free.
    mutating func send(
        _ action: String, target: String?, sender: String?, responders: Responders, perform: Bool = true,
        visited: inout [String]?, trace: inout Trace
    ) -> ActionSent {
        func step(_ to: String, _ disposition: Disposition, _ rule: Rule, reason: DeliverReason? = nil) {
            trace.add(.deliver(to: to, message: action, disposition: disposition, rule: rule, reason: reason, tag: nil))
        }
        var outcome: ActionSent
        let rule: Rule
        // Whether the responder that performs it does so through a built-in method (K6/K7), not its `handles`.
        var byBuiltIn = false
        if let target {
            // A2: straight to the target; the chain and the first responder play no part.
            rule = .a2
            if let (handling, textInput) = responders.read(
                target, in: world,
                { ($0.pointee.spec.handling(action), $0.pointee.spec.uikitClass?.isTextInput == true) })
            {
                let builtIn =
                    handling == nil
                    ? builtInAction(action, on: target, textInput: textInput, responders: responders) : nil
                let implements = handling != nil || builtIn != nil
                step(target, implements ? .handled : .notHandled, builtIn?.rule ?? rule)
                // A2: UIKit raises "unrecognized selector"; the app crashes unless the profile ignores it.
                let crashes = !implements && perform && profile.unrecognizedSelector == .crash
                visited?.append(target)
                outcome = ActionSent(
                    performed: implements, by: implements ? target : nil,
                    reason: implements ? nil : crashes ? .unrecognizedSelector : .notImplemented)
                if crashes { crash = Crash(target: target, action: action, sender: sender, rule: .a2) }
                byBuiltIn = builtIn != nil
            } else {
                outcome = ActionSent(reason: .targetMissing)
            }
        } else {
            // A3: the start; A4: the walk.
            rule = .a4
            outcome = ActionSent(reason: .endOfChain)
            // Room for a usual chain at once: grown one append at a time, the list is reallocated at 1, 2 and 4.
            visited?.reserveCapacity(8)
            var seen = HopGuard()
            var current = responders.hop(nilTargetStart(sender: sender), in: world)
            while let hop = current, seen.firstPass(hop) {
                let id = hop.id
                let (handling, textInput, vetoed) = responders.read(hop, in: world) { node in
                    (
                        node.pointee.spec.handling(action), node.pointee.spec.uikitClass?.isTextInput == true,
                        node.pointee.spec.vetoes.contains(action)
                    )
                }
                visited?.append(id)
                let builtIn =
                    handling == nil ? builtInAction(action, on: id, textInput: textInput, responders: responders) : nil
                if handling != nil || builtIn != nil {
                    if vetoed || builtIn?.available == false {
                        step(id, .notHandled, builtIn?.rule ?? rule, reason: .vetoed)
                    } else {
                        step(id, .handled, builtIn?.rule ?? rule)
                        outcome.performed = true
                        outcome.by = id
                        outcome.reason = nil
                        byBuiltIn = builtIn != nil
                        break
                    }
                } else {
                    step(id, .notHandled, rule)
                }
                current = responders.next(of: hop, in: world)
            }
            if !outcome.performed { trace.discard(action, reason: .endOfChain, rule: .a4) }
        }
        trace.add(
            .action(
                action: action, target: target, sender: sender, performed: outcome.performed, by: outcome.by,
                rule: rule, reason: outcome.reason))
        if perform, outcome.performed, let by = outcome.by, byBuiltIn {
            performBuiltIn(action, on: by, trace: &trace)
        }
        return outcome
    }

    /// A2–A4: `sendAction(_:to:from:for:)`; `target` nil sends it up the chain.
    public mutating func sendAction(_ action: String, target: String?, sender: String?) throws(CoreError) -> Traced<
        ActionOutcome
    > {
        if let target { _ = try existing(target, field: "target") }
        if let sender { _ = try existing(sender, field: "sender") }
        var trace = Trace(kind: .action)
        crash = nil
        var outcome = performAction(
            action, target: target, sender: sender, responders: Responders(), trace: &trace)
        outcome.crashed = crash
        crash = nil
        commitChanges()
        return trace.finish(outcome)
    }

    /// A5: the nil-target walk with the application as sender (unless `sender` names another node); no side
    /// effects.
    public func canPerformAction(_ action: String, sender: String?) throws(CoreError) -> Traced<CanPerformOutcome> {
        let sender = sender ?? World.rootID
        _ = try existing(sender, field: "sender")
        var trace = Trace(kind: .canPerform)
        var query = self
        let outcome = query.performAction(
            action, target: nil, sender: sender, responders: Responders(), perform: false, trace: &trace)
        return trace.finish(
            CanPerformOutcome(
                available: outcome.performed, by: outcome.by, visited: outcome.visited,
                editingCommand: editingCommands.contains(action)))
    }
}
