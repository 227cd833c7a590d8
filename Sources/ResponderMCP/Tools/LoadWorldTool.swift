import Foundation
import ResponderJSON
import ResponderOutput
import ResponderProtocol

/// `load_world` → `tree.load`, from a tree given inline or a world file.
package enum LoadWorldTool: MCPTool {
    package static let name = "load_world"
    package static let title = "Load a world"
    package static let description = """
        Replace the session's whole world. Give either tree, the UIApplication node {"id": "app", "kind": \
        "application", "children": [...]} holding the app delegate and windows, each window holding its root view \
        controller and views nested in "children" (node shape as in apply_ops), or file, the path of a world file \
        on this machine ({"tree": ..., "detached"?: [...]} or a bare application node, as `responder load` reads). \
        Everyone watching the session sees a load event.
        """
    package static let properties: [(key: String, value: JSON)] = [
        (
            "tree",
            [
                "type": "object",
                "description": "The application node (id \"app\", kind \"application\") with its whole tree."
            ]
        ),
        (
            "detached",
            [
                "type": "array", "items": ["type": "object"],
                "description": "Subtrees that exist outside the application's tree."
            ]
        ),
        ("file", ["type": "string", "minLength": 1, "description": "Instead of tree: a world file to read."]),
        (
            "ifRevision",
            ["type": "integer", "minimum": 0, "description": "Load only if the session is still at this revision."]
        )
    ]
    package static let required: [String] = []
    package static let readOnly = false

    package static func request(_ arguments: inout ToolArguments, session: String) throws(RPCError) -> EngineRequest {
        var tree = arguments.take("tree")
        var detached = arguments.take("detached")
        let file = try arguments.optionalString("file")
        switch (tree, file) {
        case (nil, nil): throw ToolArguments.invalid("tree", "or file is required")
        case (.some, .some): throw ToolArguments.invalid("file", "cannot be given with tree: give one")
        case (nil, let path?):
            do {
                let world = try InputFile.world(path)
                tree = world.tree
                if detached == nil { detached = world.detached }
            } catch {
                throw ToolArguments.invalid("file", "cannot be read: \(error.description)")
            }
        default: break
        }
        var params: JSON = ["session": .string(session), "tree": tree ?? .null]
        if let detached { params = params.setting("detached", detached) }
        if let revision = try arguments.optionalInteger("ifRevision") {
            params = params.setting("ifRevision", JSON(revision))
        }
        return EngineRequest(method: TreeLoadRequest.method, params: params, subject: file)
    }

    package static func text(_ reply: JSON, for request: EngineRequest) -> String {
        let nodes =
            InputFile.countNodes(request.params["tree"])
            + (request.params["detached"]?.arrayValue ?? []).reduce(0) { $0 + InputFile.countNodes($1) }
        let session = request.params["session"]?.stringValue ?? "?"
        let source = request.subject.map { " from \($0)" } ?? ""
        return
            "loaded \(nodes) node\(nodes == 1 ? "" : "s") into \(session)\(source): revision \(Describe.number(reply["revision"]?.intValue))"
            + Describe.seqRange(reply["seqRange"]?.arrayValue?.compactMap(\.intValue))
    }
}
