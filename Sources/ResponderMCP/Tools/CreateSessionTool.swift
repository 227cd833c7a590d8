import ResponderJSON
import ResponderOutput
import ResponderProtocol

/// `create_session` → `session.create`.
package enum CreateSessionTool: MCPTool {
    package static let name = "create_session"
    package static let title = "Create a session"
    package static let description = """
        Create a new session: a world of its own, beside the shared default one, for an experiment or an imported \
        app (import_hierarchy and load_world fill it; import_hierarchy also creates the session it names). It \
        starts with tree if given (the UIApplication node {"id": "app", "kind": "application", "children": \
        [...]}, as load_world takes it), else with a bare application. profile picks UIKit's behaviour where \
        versions differ (e.g. {"alphaBoundary": "exclusive"}); omit it for UIKit's. Pass the same session to \
        every other tool to work in it. Fails with SESSION_EXISTS if the name is taken.
        """
    package static let properties: [(key: String, value: JSON)] = [
        (
            "tree",
            [
                "type": "object",
                "description": "The application node (id \"app\", kind \"application\") with its whole tree."
            ]
        ),
        ("profile", ["type": "object", "description": "Dispatch switches, e.g. {\"alphaBoundary\": \"exclusive\"}."])
    ]
    package static let required = ["session"]
    package static let readOnly = false

    package static func request(_ arguments: inout ToolArguments, session: String) throws(RPCError) -> EngineRequest {
        var params: JSON = ["session": .string(session)]
        if let tree = arguments.take("tree") { params = params.setting("tree", tree) }
        if let profile = arguments.take("profile") { params = params.setting("profile", profile) }
        return EngineRequest(method: SessionCreateRequest.method, params: params, subject: nil)
    }

    package static func text(_ reply: JSON, for request: EngineRequest) -> String {
        let session = reply["session"]?.stringValue ?? request.params["session"]?.stringValue ?? "?"
        let nodes = request.params["tree"].map { InputFile.countNodes($0) } ?? 1
        return
            "created session \(session) with \(nodes) node\(nodes == 1 ? "" : "s"): revision \(Describe.number(reply["revision"]?.intValue))"
            + Describe.seqRange(reply["seqRange"]?.arrayValue?.compactMap(\.intValue))
            + "\npass session \"\(session)\" to the other tools to work in it"
    }
}
