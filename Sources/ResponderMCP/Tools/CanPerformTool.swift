import ResponderJSON
import ResponderOutput
import ResponderProtocol

/// `can_perform` → `action.canPerform`.
package enum CanPerformTool: MCPTool {
    package static let name = "can_perform"
    package static let title = "Who would perform an action"
    package static let description = """
        Ask who would perform a nil-targeted action, without performing it: the question an editing menu asks \
        (A5). The walk starts at the key window's first responder (else the sender, else the application, A3) and \
        goes up the responder chain to the first responder that implements the action and does not veto it via \
        canPerformAction(_:withSender:) (A4, K6). Changes nothing and publishes nothing. Returns whether it is \
        available, who would perform it and every responder asked. To ask why a given view would not, use why_not \
        with action.
        """
    package static let properties: [(key: String, value: JSON)] = [
        (
            "action",
            ["type": "string", "minLength": 1, "description": "The selector, e.g. \"copy:\" or \"paste:\"."]
        ),
        ("sender", ToolSchema.nodeID("The sender node. Default: the application."))
    ]
    package static let required = ["action"]
    package static let readOnly = true

    package static func request(_ arguments: inout ToolArguments, session: String) throws(RPCError) -> EngineRequest {
        let action = try arguments.string("action")
        var params: JSON = ["session": .string(session), "action": .string(action)]
        if let sender = try arguments.optionalString("sender") { params = params.setting("sender", .string(sender)) }
        return EngineRequest(method: CanPerformRequest.method, params: params, subject: action)
    }

    package static func text(_ reply: JSON, for request: EngineRequest) -> String {
        let action = request.subject ?? "the action"
        guard let outcome = typed(CanPerformRequest.Response.self, reply)?.outcome else {
            return "asked who would perform \(action)"
        }
        let names = ToolNames.current
        let walk = outcome.visited.isEmpty ? "(no responders)" : names.path(outcome.visited)
        let verdict =
            outcome.available ? "available: \(names.label(outcome.by)) would perform it" : "not available"
        return "\(action) \(walk): \(verdict)"
    }
}
