import ResponderProtocol

/// Printing the reply of a dispatching request: the full JSON with --json, else the outcome's paths
/// (TraceFormatter) followed by any first-responder changes the dispatch made.
enum DispatchReply {
    static func print(_ reply: JSON, json: Bool, message: String? = nil) {
        if json { return Output.printJSON(reply) }
        for line in TraceFormatter.lines(outcome: reply, message: message, trace: reply["trace"]) { Output.line(line) }
        for line in focusLines(reply["trace"]) { Output.line(line) }
    }

    /// `focus window w1: a → b (reason)` for each firstResponder step of a trace.
    static func focusLines(_ trace: JSON?) -> [String] {
        (trace?["steps"]?.arrayValue ?? []).filter { $0["step"]?.stringValue == "firstResponder" }.map(EventFormatter.focus)
    }

    static func point(_ x: Double, _ y: Double) -> JSON { [.number(x), .number(y)] }

    /// Touch and press ids: numbers when they look like integers, strings otherwise.
    static func identifier(_ text: String) -> JSON {
        if let n = Int(text) { return JSON(n) }
        return .string(text)
    }
}
