import ResponderJSON
import ResponderOutput
import ResponderProtocol

/// `why_not` → `whyNot`.
package enum WhyNotTool: MCPTool {
    package static let name = "why_not"
    package static let title = "Why doesn't this view get it?"
    package static let description = """
        Ask why a view does not get a touch, an action or the first responder, without touching anything. By default: \
        would a tap anywhere on the view be delivered to the view itself as its hit-test view, and reach it? With x \
        and y: a tap at that screen point. With action: would this nil-targeted action (sent from sender, else from \
        where UIKit starts, A3) be performed by the view itself (A4)? With become: can it become first responder (F2)? \
        The answer names the decisive cause first, with its rule id and the node to blame (culprit): an ancestor with \
        user interaction off or hidden or transparent (H2, K1), a superview whose bounds the view lies outside (H3, \
        H5), the view in front that covers it and how much (covered), a disabled control (H7), a full-screen \
        presentation (K9), the gesture recognizer that cancels or takes the view's touches (G7, G8: culprit its view, \
        recognizer its id), the view tracking another touch (T4, T5), the responder earlier in the chain that takes \
        the action, the first responder that refuses to resign; then the other causes; then hittable: the share of the \
        view where a tap is its own and one such screen point, which tap with view uses. Changes nothing.
        """
    package static let properties: [(key: String, value: JSON)] = [
        ("view", ToolSchema.nodeID("The view asked about: a node id of the world (get_world lists them).")),
        ("x", ToolSchema.number("A touch at this screen x (with y) instead of anywhere on the view.")),
        ("y", ToolSchema.number("Screen y, with x.")),
        (
            "action",
            [
                "type": "string", "minLength": 1,
                "description": "Ask about this action instead, e.g. \"copy:\", sent with a nil target."
            ]
        ),
        (
            "sender",
            ToolSchema.nodeID("With action: the sender, where the walk starts when there is no first responder.")
        ),
        ("become", ["type": "boolean", "description": "true: ask whether the view can become first responder."])
    ]
    package static let required = ["view"]
    package static let readOnly = true
    package static let renamedFields = ["point": "x"]

    package static func request(_ arguments: inout ToolArguments, session: String) throws(RPCError) -> EngineRequest {
        let view = try arguments.string("view")
        var params: JSON = ["session": .string(session), "view": .string(view)]
        if let (x, y) = try arguments.optionalPoint("x", "y") {
            params = params.setting("point", [.number(x), .number(y)])
        }
        if let action = try arguments.optionalString("action") { params = params.setting("action", .string(action)) }
        if let sender = try arguments.optionalString("sender") { params = params.setting("sender", .string(sender)) }
        if let become = try arguments.optionalBool("become") { params = params.setting("become", .bool(become)) }
        return EngineRequest(method: WhyNotRequest.method, params: params, subject: view)
    }

    package static func text(_ reply: JSON, for request: EngineRequest) -> String {
        guard let answer = typed(WhyNotAnswer.self, reply) else {
            return "asked why not about \(request.subject ?? "?")"
        }
        let view = request.subject.map(ToolNames.current.label) ?? "?"
        return WhyNotText.lines(answer, view: view).joined(separator: "\n")
    }
}
