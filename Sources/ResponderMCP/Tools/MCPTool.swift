import MCP
import ResponderClient
import ResponderJSON
import ResponderOutput
import ResponderProtocol

/// One MCP tool: its name, a description for a model that knows UIKit, a JSON Schema for its arguments, how
/// the arguments become one engine request, and how the engine's reply reads as text. The reply itself goes
/// to the client unchanged as structured content (ToolRunner).
package protocol MCPTool: Sendable {
    static var name: String { get }
    static var title: String { get }
    static var description: String { get }
    /// The `properties` of the input schema besides `session`, which every tool takes.
    static var properties: [(key: String, value: JSON)] { get }
    static var required: [String] { get }
    /// Whether the tool only reads (an MCP annotation: clients may call it without asking the user).
    static var readOnly: Bool { get }
    /// Engine params the tool calls something else, so that an engine error names the tool's argument.
    static var renamedFields: [String: String] { get }

    /// Reads the arguments (`session` already taken) into the request to send.
    static func request(_ arguments: inout ToolArguments, session: String) throws(RPCError) -> EngineRequest
    /// What happened and why, in a few lines, citing rule ids.
    static func text(_ reply: JSON, for request: EngineRequest) -> String
    /// Sends the request: one engine call, unless the tool needs an answer first (a tap on a view asks
    /// whyNot where) or a session made on the way (an import into a new session).
    static func perform(_ request: EngineRequest, on engine: EngineThread) async -> ToolCall
}

extension MCPTool {
    package static var renamedFields: [String: String] { [:] }

    package static func perform(_ request: EngineRequest, on engine: EngineThread) async -> ToolCall {
        ToolCall(reply: await engine.call(request.method, request.sentParams), request: request)
    }

    /// The reply typed, read leniently (members this client does not know are ignored); nil if it does not fit.
    package static func typed<T: Decodable>(_: T.Type, _ reply: JSON) -> T? {
        try? WireDecoder.decode(T.self, from: reply, strict: false)
    }

    /// The input schema: an object of `properties` and `session`, nothing else.
    package static var inputSchema: JSON {
        .object([
            ("type", "object"),
            ("properties", .object(properties + DryRun.property(of: name) + [("session", ToolSchema.session)])),
            ("required", JSON(required)),
            ("additionalProperties", false)
        ])
    }
}

/// What a tool sends to the engine, and what the text needs to remember of the call.
package struct EngineRequest: Sendable {
    package var method: String
    package var params: JSON
    /// The subject the reply does not repeat: the action sent, the node asked about, the file loaded.
    package var subject: String?
    /// `dry_run`: the dispatch is sent with `dryRun: true` (`sentParams`).
    package var dryRun = false
}

/// What a tool's call came to: the last engine reply and the request it answers (its text reads them), and
/// whether the tool declined to do what was asked (a tap on a view nowhere hittable answers why not): then
/// the result is an error for the model, with the reply that says why.
package struct ToolCall: Sendable {
    package var reply: Result<JSON, ClientError>
    package var request: EngineRequest
    package var declined = false
    /// The result's content, where the tool's own (a picture) replaces the text.
    package var content: [Tool.Content]?
}

/// Every tool, in the order `tools/list` gives them.
package enum ToolCatalog {
    package static let all: [any MCPTool.Type] = [
        HitTestTool.self, WhyNotTool.self, TapTool.self, ResponderChainTool.self, SendActionTool.self,
        ChooseMenuItemTool.self, CanPerformTool.self, BecomeFirstResponderTool.self, GetWorldTool.self,
        ApplyOpsTool.self, LoadWorldTool.self,
        CreateSessionTool.self, ImportHierarchyTool.self, DragTool.self, LongPressTool.self, TouchTool.self,
        AdvanceClockTool.self,
        DrawTool.self, CompareTool.self
    ]

    /// The tools that dispatch: they take `dry_run` (DryRun).
    package static let dispatching: Set<String> = [
        TapTool.name, SendActionTool.name, ChooseMenuItemTool.name, BecomeFirstResponderTool.name, DragTool.name,
        LongPressTool.name,
        TouchTool.name, AdvanceClockTool.name
    ]

    package static func tool(named name: String) -> (any MCPTool.Type)? { all.first { $0.name == name } }
}
