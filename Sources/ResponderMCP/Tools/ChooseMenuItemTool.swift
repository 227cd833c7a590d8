import ResponderJSON
import ResponderOutput
import ResponderProtocol

/// `choose_menu_item` → `event.menuItem`.
package enum ChooseMenuItemTool: MCPTool {
    package static let name = "choose_menu_item"
    package static let title = "Choose a menu item"
    package static let description = """
        Choose an item of the options menu, or of the context menu a long press on `view` showed. Under the uikit \
        profile it is a menu command: a nil-targeted action (the item is its selector) from the first responder up \
        the responder chain (A3, A4). Under the android profile the Activity is asked first, then its fragments in \
        the order they were added (AX3; a context item: AX4). Publishes a trace. Returns who handled it and who was \
        asked, in order.
        """
    package static let properties: [(key: String, value: JSON)] = [
        (
            "item",
            [
                "type": "string", "minLength": 1,
                "description": "The item's id (under uikit its selector, e.g. \"share:\")."
            ]
        ),
        (
            "view",
            ToolSchema.nodeID("The long-pressed view whose context menu the item is from. Omit for the options menu.")
        )
    ]
    package static let required = ["item"]
    package static let readOnly = false

    package static func request(_ arguments: inout ToolArguments, session: String) throws(RPCError) -> EngineRequest {
        let item = try arguments.string("item")
        var params: JSON = ["session": .string(session), "item": .string(item)]
        if let view = try arguments.optionalString("view") {
            params = params.setting("menu", "context").setting("view", .string(view))
        }
        return EngineRequest(method: MenuItemRequest.method, params: params, subject: item)
    }

    package static func text(_ reply: JSON, for request: EngineRequest) -> String {
        guard let sent = typed(MenuItemRequest.Response.self, reply) else {
            return "chose \(request.subject ?? "the item")"
        }
        return TraceFormatter.action(sent.base.outcome, name: request.subject, names: ToolNames.current)
            + Describe.seqRange(sent.seqRange)
    }
}
