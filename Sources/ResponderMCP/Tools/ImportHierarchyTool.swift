import ResponderClient
import ResponderImport
import ResponderJSON
import ResponderOutput
import ResponderProtocol

/// `import_hierarchy` → `tree.load` of what `responder import` reads from lldb dumps (the same parser).
package enum ImportHierarchyTool: MCPTool {
    package static let name = "import_hierarchy"
    package static let title = "Import a running app's hierarchy"
    package static let description = """
        Turn the view and view-controller hierarchy of a running iOS app, as lldb prints it, into the session's \
        world, replacing it; a session that does not exist yet is created with it. text holds the output of `po [[UIWindow keyWindow] recursiveDescription]` (views: \
        `<Class: 0xADDRESS; frame = (x y; w h); …>`, nesting shown by `   | `) and/or of `po \
        UIApplication.shared.keyWindow?.rootViewController?.value(forKey: "_printHierarchy")` (controllers); both \
        may be pasted together, with `po view.gestureRecognizers` (recognizers, attached to the view each names) \
        and `po [0xCONTROL allTargets]` / `po [0xCONTROL actionsForTarget:0xTARGET forControlEvent:64]` after \
        their `(lldb)` command lines (control targets), as tools/lldb/responder-dump.lldb prints them. Node ids are the addresses as printed, so later hit tests and chains name the views \
        the developer sees in lldb. Lines that cannot be read are skipped and listed in the text. Then ask hit_test \
        or tap at a point to see why a touch goes where it goes.
        """
    package static let properties: [(key: String, value: JSON)] = [
        (
            "text",
            [
                "type": "string", "minLength": 1,
                "description": "The lldb output: recursiveDescription and/or _printHierarchy."
            ]
        ),
        (
            "ifRevision",
            ["type": "integer", "minimum": 0, "description": "Load only if the session is still at this revision."]
        )
    ]
    package static let required = ["text"]
    package static let readOnly = false

    package static func request(_ arguments: inout ToolArguments, session: String) throws(RPCError) -> EngineRequest {
        let text = try arguments.string("text")
        var dump = HierarchyDump()
        dump.read(text, file: "text")
        guard !dump.roots.isEmpty || !dump.controllers.isEmpty else {
            throw ToolArguments.invalid("text", "holds no recursiveDescription or _printHierarchy line")
        }
        let tree = dump.world()
        var params: JSON = ["session": .string(session), "tree": tree]
        if let revision = try arguments.optionalInteger("ifRevision") {
            params = params.setting("ifRevision", JSON(revision))
        }
        // Lines it could not read, then what the dump does not show (recognizers of unknown kinds, missing targets).
        var said = dump.problems.isEmpty ? [] : ["skipped lines:"] + dump.problems.map(\.text)
        said += dump.unknowns
        return EngineRequest(
            method: TreeLoadRequest.method, params: params,
            subject: said.isEmpty ? nil : said.joined(separator: "\n"))
    }

    /// Loads into the session, or creates it with the tree when there is none of that name (a load that
    /// waits on a revision is only a load: a new session has no revision to wait on).
    package static func perform(_ request: EngineRequest, on engine: EngineThread) async -> ToolCall {
        let loaded = await engine.call(request.method, request.params)
        guard case .failure(.rpc(let e)) = loaded, e.name == .sessionNotFound, request.params["ifRevision"] == nil
        else { return ToolCall(reply: loaded, request: request) }
        var create = request
        create.method = SessionCreateRequest.method
        let created = await engine.call(create.method, create.params)
        // Another client created it meanwhile: then it is a load after all.
        if case .failure(.rpc(let e)) = created, e.name == .sessionExists {
            return ToolCall(reply: await engine.call(request.method, request.params), request: request)
        }
        return ToolCall(reply: created, request: create)
    }

    package static func text(_ reply: JSON, for request: EngineRequest) -> String {
        let nodes = InputFile.countNodes(request.params["tree"])
        let session = request.params["session"]?.stringValue ?? "?"
        let into = request.method == SessionCreateRequest.method ? "a new session \(session)" : session
        var text =
            "imported \(nodes) node\(nodes == 1 ? "" : "s") into \(into): revision \(Describe.number(reply["revision"]?.intValue))"
            + Describe.seqRange(reply["seqRange"]?.arrayValue?.compactMap(\.intValue))
        if let tree = request.params["tree"] { text += "\n" + ImportSummary(world: tree).text }
        if let said = request.subject { text += "\n" + said }
        return text
    }
}
