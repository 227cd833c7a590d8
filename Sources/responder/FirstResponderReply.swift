import ResponderProtocol

/// Printing the reply of responder.become / responder.resign: `{result, reason, resigned, trace}`.
enum FirstResponderReply {
    static func print(_ reply: JSON, verb: String, id: String, json: Bool) {
        if json { return Output.printJSON(reply) }
        Output.line(summary(reply, verb: verb, id: id))
        for line in DispatchReply.focusLines(reply["trace"]) { Output.line(line) }
    }

    /// `tf became first responder (became), replacing x` or `tf did not resign first responder (cannot-resign)`.
    static func summary(_ outcome: JSON, verb: String, id: String?) -> String {
        let ok = outcome["result"]?.boolValue == true
        let subject = id.map { "\($0) " } ?? ""
        var text: String
        switch (verb, ok) {
        case ("become", true): text = "\(subject)became first responder"
        case ("become", false): text = "\(subject)did not become first responder"
        case (_, true): text = "\(subject)resigned first responder"
        default: text = "\(subject)did not resign first responder"
        }
        if let reason = outcome["reason"]?.stringValue { text += " (\(reason))" }
        if verb == "become", let resigned = outcome["resigned"]?.stringValue { text += ", replacing \(resigned)" }
        return text
    }
}
