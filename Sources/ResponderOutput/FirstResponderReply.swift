import ResponderProtocol

/// Printing the reply of responder.become / responder.resign: `{result, reason, resigned, trace}`.
package enum FirstResponderReply {
    package static func print(
        _ reply: Published<Traced<FocusOutcome>>, verb: TraceKind, id: String, names: NodeNames = .none
    ) {
        Output.line(summary(reply.base.outcome, verb: verb, id: id, names: names))
        for line in DispatchReply.focusLines(reply.base.trace, names: names) { Output.line(line) }
        for line in DispatchReply.editingLines(reply.base.trace, names: names) { Output.line(line) }
    }

    /// `tf became first responder (became), replacing x` or `tf did not resign first responder (cannot-resign)`.
    package static func summary(_ outcome: FocusOutcome, verb: TraceKind, id: String?, names: NodeNames = .none)
        -> String
    {
        let subject = id.map { "\(names.label($0)) " } ?? ""
        var text: String
        switch (verb, outcome.result) {
        case (.become, true): text = "\(subject)became first responder"
        case (.become, false): text = "\(subject)did not become first responder"
        // F3: UIKit's answer (true) for a responder that was not first responder; nothing resigned.
        case (_, true) where outcome.reason == .notFirstResponder: text = "\(subject)was not first responder"
        case (_, true): text = "\(subject)resigned first responder"
        default: text = "\(subject)did not resign first responder"
        }
        text += " (\(outcome.reason.rawValue))"
        if verb == .become, let resigned = outcome.resigned { text += ", replacing \(names.label(resigned))" }
        return text
    }
}
