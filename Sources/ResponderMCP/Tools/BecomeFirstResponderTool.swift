import ResponderJSON
import ResponderOutput
import ResponderProtocol

/// `become_first_responder` → `responder.become`.
package enum BecomeFirstResponderTool: MCPTool {
    package static let name = "become_first_responder"
    package static let title = "Become first responder"
    package static let description = """
        Call becomeFirstResponder() on a responder. UIKit's order: already first responder → true; not in a window → \
        false; canBecomeFirstResponder false (the default, except text fields and text views: F1) → false and the \
        current first responder stays; the current one refuses to resign (canResignFirstResponder false) → false; \
        otherwise it becomes its window's first responder (F2), each window having its own (F4). View controllers \
        can be first responder too (F7). Publishes a trace and a focus event. Returns whether it did, why, and \
        which responder resigned.
        """
    package static let properties: [(key: String, value: JSON)] = [
        ("id", ToolSchema.nodeID("The responder: a node id of the world."))
    ]
    package static let required = ["id"]
    package static let readOnly = false

    package static func request(_ arguments: inout ToolArguments, session: String) throws(RPCError) -> EngineRequest {
        let id = try arguments.string("id")
        return EngineRequest(
            method: BecomeRequest.method, params: ["session": .string(session), "id": .string(id)], subject: id)
    }

    package static func text(_ reply: JSON, for request: EngineRequest) -> String {
        guard let become = typed(BecomeRequest.Response.self, reply) else {
            return "asked \(request.subject ?? "?") to become first responder"
        }
        let traced = become.base
        var lines = [
            FirstResponderReply.summary(traced.outcome, verb: .become, id: request.subject, names: ToolNames.current)
                + Describe.seqRange(become.seqRange)
        ]
        // The few checks UIKit made, in order: why it did or did not.
        let checks = traced.trace.steps.compactMap { step -> String? in
            guard case .check(let id, let check, let value, let rule) = step else { return nil }
            return "\(ToolNames.current.label(id)).\(check.rawValue) = \(value) \(rule.rawValue)"
        }
        if !checks.isEmpty { lines.append("checked: " + checks.joined(separator: "; ")) }
        return (lines + DispatchReply.focusLines(traced.trace, names: ToolNames.current)).joined(separator: "\n")
    }
}
