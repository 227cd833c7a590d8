import ResponderProtocol

/// Printing the reply of responder.become / responder.resign: `{result, reason, resigned, trace}`.
enum FirstResponderReply {
    static func print(_ reply: JSON, verb: String, id: String, json: Bool) {
        if json { return Output.printJSON(reply) }
        let result = reply["result"] ?? .null
        let ok = result.boolValue ?? (result.stringValue.map { ["ok", "became", "resigned", "done", "success"].contains($0) } ?? false)
        var text = "\(id) \(verb): " + (result.boolValue != nil ? (ok ? "yes" : "no") : Output.plain(result))
        if let reason = reply["reason"], !reason.isNull { text += " (\(Output.plain(reason)))" }
        Output.line(text)
        let resigned = TraceFormatter.ids(reply["resigned"])
        if !resigned.isEmpty { Output.line("resigned: " + resigned.joined(separator: ", ")) }
        for line in DispatchReply.focusLines(reply["trace"]) { Output.line(line) }
    }
}
