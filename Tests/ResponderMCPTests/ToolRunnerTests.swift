import Foundation
import MCP
import ResponderClient
import ResponderProtocol
import ResponderTestSupport
import Testing

@testable import ResponderMCP

/// The MCP server's tools without the `responder` executable: ToolRunner over an EngineThread to a real
/// engine, as `responder mcp` runs them, and the server's pure parts.
@Suite struct ToolRunnerTests {
    @Test func aToolCallAnswersWithTextCitingRulesAndTheEnginesReply() async throws {
        let t = try LiveEngine()
        defer { t.stop() }
        let engine = try EngineThread.mcp(timeoutSeconds: patienceSeconds) { () throws(ClientError) in try t.address() }
        defer { engine.stopAndWait() }
        let runner = ToolRunner(engine: engine, defaultSession: "default")

        let hit = try await runner.call("hit_test", arguments: ["x": .double(50), "y": .double(420)])
        #expect(hit.isError == false)
        #expect(text(hit).hasPrefix("hit B in window W"), "\(text(hit))")
        #expect(text(hit).contains("H"), "the text cites hit-testing rules: \(text(hit))")
        guard case .object(let reply)? = hit.structuredContent else {
            Issue.record("no structured content: \(hit)")
            return
        }
        #expect(reply["view"] == .string("B"))
    }

    @Test func theEnginesErrorIsAToolResultNamingTheToolsArgument() async throws {
        let t = try LiveEngine()
        defer { t.stop() }
        let engine = try EngineThread.mcp(timeoutSeconds: patienceSeconds) { () throws(ClientError) in try t.address() }
        defer { engine.stopAndWait() }
        let runner = ToolRunner(engine: engine, defaultSession: "default")

        // get_world calls the engine's `id` its `subtree`: the error names the argument the model wrote.
        let missing = try await runner.call("get_world", arguments: ["subtree": .string("nope")])
        #expect(missing.isError == true)
        #expect(text(missing).contains("NODE_NOT_FOUND"), "\(text(missing))")
        #expect(text(missing).contains("field: subtree"), "\(text(missing))")

        // An argument the tool does not take is refused before the engine is asked.
        let extra = try await runner.call("tap", arguments: ["x": .double(1), "y": .double(1), "z": .double(0)])
        #expect(extra.isError == true)
        #expect(text(extra).contains("z"), "\(text(extra))")

        // An unknown tool is the client's protocol error, not a tool result.
        await #expect(throws: MCPError.self) { try await runner.call("no_such_tool", arguments: nil) }
    }

    @Test func withoutAnEngineACallSaysHowToStartOne() async throws {
        let directory = "/tmp/re-" + String(UInt32.random(in: 0 ... .max), radix: 36)
        let engine = try EngineThread.mcp(timeoutSeconds: patienceSeconds) { () throws(ClientError) in
            try EngineAddress.locate(name: "t", directory: directory)
        }
        defer { engine.stopAndWait() }
        let runner = ToolRunner(engine: engine, defaultSession: "default")
        let unreachable = try await runner.call("hit_test", arguments: ["x": .double(50), "y": .double(420)])
        #expect(unreachable.isError == true)
        #expect(text(unreachable).contains("start one"), "\(text(unreachable))")
    }

    @Test func theClientNameFitsClientHello() {
        #expect(MCPServer.clientName("claude") == "mcp:claude")
        #expect(MCPServer.clientName("") == "mcp:client")
        let long = MCPServer.clientName(String(repeating: "é", count: 100))
        #expect(long.utf8.count <= 128 && long.hasPrefix("mcp:é"))
    }
}

private func text(_ result: CallTool.Result) -> String {
    result.content.compactMap { if case .text(let text, _, _) = $0 { text } else { nil } }.joined(separator: "\n")
}
