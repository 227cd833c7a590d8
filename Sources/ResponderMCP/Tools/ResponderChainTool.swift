import ResponderJSON
import ResponderOutput
import ResponderProtocol

/// `responder_chain` → `responderChain`.
package enum ResponderChainTool: MCPTool {
    package static let name = "responder_chain"
    package static let title = "Responder chain"
    package static let description = """
        List a responder's chain as UIResponder.next walks it: a view's next responder is its view controller when \
        it is that controller's root view, else its superview (N1); a view controller's is its presenter or parent \
        (N2); a window's is the UIApplication, whose is the app delegate (N3); a cycle stops the walk (N4). Works \
        for any node, attached or detached. Changes nothing.
        """
    package static let properties: [(key: String, value: JSON)] = [
        ("id", ToolSchema.nodeID("The responder to start from: a node id of the world (get_world lists them)."))
    ]
    package static let required = ["id"]
    package static let readOnly = true

    package static func request(_ arguments: inout ToolArguments, session: String) throws(RPCError) -> EngineRequest {
        let id = try arguments.string("id")
        return EngineRequest(
            method: ResponderChainRequest.method, params: ["session": .string(session), "id": .string(id)], subject: id)
    }

    package static func text(_ reply: JSON, for request: EngineRequest) -> String {
        guard let chain = typed(ResponderChainRequest.Response.self, reply) else {
            return "the chain of \(request.subject ?? "?")"
        }
        let names = ToolNames.current
        var lines = ["chain of \(request.subject.map(names.label) ?? "?"): " + names.path(chain.outcome.chain)]
        let hops = chain.trace.steps.compactMap { step -> String? in
            guard case .next(let from, let to, let rule) = step else { return nil }
            return "\(names.label(from)) → \(to.map(names.label) ?? "none") \(rule.rawValue)"
        }
        if !hops.isEmpty { lines.append("next responders: " + hops.joined(separator: "; ")) }
        return lines.joined(separator: "\n")
    }
}
