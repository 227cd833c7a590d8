import MCP
import ResponderClient
import ResponderJSON
import ResponderOutput
import ResponderProtocol

/// Carries out a `tools/call`: reads the arguments, sends the one engine request, and answers with a short
/// text (what happened and why, citing rules) and the engine's reply unchanged as structured content. Every
/// failure is a tool result with `isError`, not a protocol error, so that the model reads it and can fix
/// its call: an engine error names the error and the bad argument; no engine says how to start one.
package struct ToolRunner: Sendable {
    package let engine: EngineThread
    /// The session a call without `session` addresses (`responder mcp --session`).
    package let defaultSession: String

    package func call(_ name: String, arguments: [String: Value]?) async throws -> CallTool.Result {
        // An unknown tool is the client's protocol error, not the model's (MCP: -32602).
        guard let tool = ToolCatalog.tool(named: name) else { throw MCPError.invalidParams("no tool named \(name)") }
        var args = ToolArguments(ValueBridge.json(.object(arguments ?? [:])))
        let request: EngineRequest
        do throws(RPCError) {
            let given = try args.optionalString("session")
            // A tool that makes a session needs its name: the default one exists already.
            if given == nil, tool.required.contains("session") { throw ToolArguments.invalid("session", "is required") }
            let session = given ?? defaultSession
            let dry = ToolCatalog.dispatching.contains(name) ? try args.optionalBool(DryRun.argument) ?? false : false
            var built = try tool.request(&args, session: session)
            built.dryRun = dry
            request = built
            try args.done()
        } catch {
            return ToolReply.failure(error)
        }
        let done = await tool.perform(request, on: engine)
        switch done.reply {
        case .success(var reply):
            defer { JSON.release(&reply) }
            if let content = done.content {
                let structured: Value? = ValueBridge.value(reply).value
                let failed: Bool? = done.declined
                return CallTool.Result(content: content, structuredContent: structured, isError: failed)
            }
            let names =
                ToolNames.tools.contains(tool.name)
                ? await ToolNames.read(session: done.request.params["session"]?.stringValue, on: engine) : .none
            var text = ToolNames.$current.withValue(names) { tool.text(reply, for: done.request) }
            if reply["dryRun"]?.boolValue == true { text = DryRun.note + "\n" + text }
            if let rules = RuleCitation.line(reply) { text += "\n" + rules }
            return ToolReply.success(
                text: text, reply: reply, session: done.request.params["session"]?.stringValue, isError: done.declined)
        case .failure(.rpc(let error)):
            return ToolReply.failure(Self.renaming(error, tool.renamedFields))
        case .failure(let error):
            return ToolReply.unreachable(error)
        }
    }

    /// The engine's error with `field` naming the tool's argument where the tool calls the param differently
    /// (`id` is get_world's `subtree`).
    package static func renaming(_ error: RPCError, _ renamed: [String: String]) -> RPCError {
        guard let field = error.detail("field")?.stringValue else { return error }
        for (param, argument) in renamed
        where field == param || field.hasPrefix(param + ".") || field.hasPrefix(param + "[") {
            var copy = error
            copy.details = error.details.map {
                $0.key == "field" ? ("field", .string(argument + field.dropFirst(param.count))) : $0
            }
            return copy
        }
        return error
    }
}

/// The shapes of a tool's result.
package enum ToolReply {
    /// `isError`: the tool declined (ToolCall.declined); the reply says why.
    package static func success(text: String, reply: JSON, session: String?, isError: Bool = false)
        -> CallTool.Result
    {
        let (structured, truncated) = ValueBridge.value(reply)
        var text = text
        if truncated, let session {
            text +=
                "\n(the structured content is cut below \(ValueBridge.maxDepth) levels of nesting; read responder://\(session)/world for all of it)"
        }
        let content: Value? = structured
        let failed: Bool? = isError
        return CallTool.Result(
            content: [.text(text: text, annotations: nil, _meta: nil)], structuredContent: content, isError: failed)
    }

    /// An error the engine (or the argument check, which reads arguments as the engine reads params) gave:
    /// `error: NAME (code): message` and its details (`field: ops[0].set.hiden`), and the JSON-RPC error object.
    package static func failure(_ error: RPCError) -> CallTool.Result {
        CallTool.Result(
            content: [.text(text: Output.describe(error), annotations: nil, _meta: nil)],
            structuredContent: Optional(ValueBridge.value(["error": error.json]).value), isError: true)
    }

    /// No engine, or one that does not answer: the client error says where it looked and how to start one.
    package static func unreachable(_ error: ClientError) -> CallTool.Result {
        let text =
            "error: the Responder Engine is not reachable: \(error.description)"
            + "\n`responder mcp` talks to a running engine; start one (`responderd`, or `./dev run` in the repository) and call the tool again."
        return CallTool.Result(
            content: [.text(text: text, annotations: nil, _meta: nil)],
            structuredContent: Optional(Value.object(["error": .object(["message": .string(error.description)])])),
            isError: true)
    }
}
