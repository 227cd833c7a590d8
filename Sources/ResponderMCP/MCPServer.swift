import MCP
import ResponderClient
import ResponderProtocol

/// `responder mcp`'s server: the official SDK's `Server` on stdio, its tools and resources wired to the engine.
package struct MCPServer: Sendable {
    package let engine: EngineThread
    package let defaultSession: String

    /// `engine` carries the calls (EngineThread.mcp); `defaultSession` is the session of calls that name none.
    package init(engine: EngineThread, defaultSession: String) {
        self.engine = engine
        self.defaultSession = defaultSession
    }

    /// Serves until stdin closes.
    package func run() async throws {
        let server = Server(
            name: "responder", version: "0.1.0", title: "Responder Engine", instructions: Self.instructions,
            capabilities: .init(resources: .init(subscribe: true, listChanged: false), tools: .init(listChanged: false))
        )
        let tools = ToolRunner(engine: engine, defaultSession: defaultSession)
        let resources = ResourceCatalog(engine: engine)
        let watchers = ResourceWatchers(engine: engine) { uri in
            Task { try? await server.notify(ResourceUpdatedNotification.message(.init(uri: uri))) }
        }
        defer { watchers.stopAll() }

        await server.withMethodHandler(ListTools.self) { _ in
            ListTools.Result(
                tools: ToolCatalog.all.map { tool in
                    Tool(
                        name: tool.name, title: tool.title, description: tool.description,
                        inputSchema: ValueBridge.value(tool.inputSchema).value,
                        annotations: .init(
                            title: tool.title, readOnlyHint: tool.readOnly, destructiveHint: false, openWorldHint: false
                        ))
                })
        }
        await server.withMethodHandler(CallTool.self) { params in
            try await tools.call(params.name, arguments: params.arguments)
        }
        await server.withMethodHandler(ListResources.self) { _ in
            ListResources.Result(resources: try await resources.list())
        }
        await server.withMethodHandler(ListResourceTemplates.self) { _ in
            ListResourceTemplates.Result(templates: ResourceCatalog.templates)
        }
        await server.withMethodHandler(ReadResource.self) { params in
            ReadResource.Result(contents: try await resources.read(params.uri))
        }
        await server.withMethodHandler(ResourceSubscribe.self) { params in
            guard let (session, _) = ResourceCatalog.parse(params.uri) else {
                throw MCPError.serverError(code: -32002, message: "no resource \(params.uri)")
            }
            let seq = try await resources.currentSeq(session, uri: params.uri)
            watchers.subscribe(params.uri, from: seq, session: session)
            return Empty()
        }
        await server.withMethodHandler(ResourceUnsubscribe.self) { params in
            watchers.unsubscribe(params.uri)
            return Empty()
        }

        let engine = self.engine
        try await server.start(transport: StdioTransport()) { client, _ in
            // Events this client causes name it: `mcp:<client name>` in `responder watch` and in every cause.
            await engine.rename(Self.clientName(client.name))
        }
        await server.waitUntilCompleted()
    }

    /// `mcp:<name>`, within client.hello's 128 bytes.
    package static func clientName(_ name: String) -> String {
        var text = "mcp:" + (name.isEmpty ? "client" : name)
        while text.utf8.count > 128 { text.removeLast() }
        return text
    }

    package static let instructions = """
        Responder Engine simulates UIKit event delivery in a live model of an app's responder world (UIApplication, \
        windows, view controllers, views, controls, text fields, gesture recognizers) and explains each decision. Use \
        get_world to see the nodes and their ids, hit_test and tap to see where a touch goes and who handles it, \
        why_not to ask why a view does not get a tap, an action or the first responder (then tap it by view), \
        responder_chain, send_action, choose_menu_item, can_perform and become_first_responder for the responder \
        chain, nil-targeted actions, menus and focus, apply_ops or load_world to change the world, and create_session \
        or import_hierarchy (an app's screen as lldb prints it) for a world of your own. Every step cites a rule id of \
        the engine's UIKit reference: H hit-testing, N next responder, T touches, G gesture recognizers, E events sent \
        to the first responder, F first responder, A actions. The session is shared: the CLI, `responder watch` and \
        other editors see what you do, and you may see their changes (resources responder://<session>/world and \
        responder://<session>/traces, which you can subscribe to).
        """
}
