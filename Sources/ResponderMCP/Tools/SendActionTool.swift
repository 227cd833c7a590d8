import ResponderJSON
import ResponderOutput
import ResponderProtocol

/// `send_action` → `action.send`.
package enum SendActionTool: MCPTool {
    package static let name = "send_action"
    package static let title = "Send an action"
    package static let description = """
        Send an action message as UIApplication.sendAction(_:to:from:for:) does. With a target, the target gets it \
        directly, and nothing happens if it does not implement it (A2). With no target (nil-targeted), the search \
        starts at the key window's first responder, else the sender, else the application (A3), and walks the \
        responder chain to the first responder that implements the action and does not veto it via \
        canPerformAction (A4). Publishes a trace. Returns who performed it (or why nobody did) and every responder asked.
        """
    package static let properties: [(key: String, value: JSON)] = [
        (
            "action",
            ["type": "string", "minLength": 1, "description": "The selector, e.g. \"copy:\" or \"buttonTapped:\"."]
        ),
        (
            "target",
            ToolSchema.nodeID("The node to send it to. Omit for a nil-targeted action (the responder chain decides).")
        ),
        (
            "sender",
            ToolSchema.nodeID(
                "The sender node, if any (where a nil-targeted search starts when there is no first responder).")
        )
    ]
    package static let required = ["action"]
    package static let readOnly = false

    package static func request(_ arguments: inout ToolArguments, session: String) throws(RPCError) -> EngineRequest {
        let action = try arguments.string("action")
        var params: JSON = ["session": .string(session), "action": .string(action)]
        if let target = try arguments.optionalString("target") { params = params.setting("target", .string(target)) }
        if let sender = try arguments.optionalString("sender") { params = params.setting("sender", .string(sender)) }
        return EngineRequest(method: SendActionRequest.method, params: params, subject: action)
    }

    package static func text(_ reply: JSON, for request: EngineRequest) -> String {
        guard let sent = typed(SendActionRequest.Response.self, reply) else {
            return "sent \(request.subject ?? "the action")"
        }
        let traced = sent.base
        let lines =
            [
                TraceFormatter.action(traced.outcome, name: request.subject, names: ToolNames.current)
                    + Describe.seqRange(sent.seqRange)
            ]
            + DispatchReply.focusLines(traced.trace, names: ToolNames.current)
        return lines.joined(separator: "\n")
    }
}
