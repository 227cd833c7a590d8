import ArgumentParser
import Dispatch
import Foundation
import ResponderClient
import ResponderMCP
import ResponderOutput
import Synchronization

/// `responder mcp`: an MCP server on stdin/stdout, for agents and editors' assistants.
struct MCPCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mcp",
        abstract: "Serve the engine to MCP clients (editors, coding agents) over stdio: tools and resources.",
        discussion: """
            A Model Context Protocol server (the official Swift SDK) on stdin/stdout. Tools: hit_test, tap, \
            responder_chain, send_action, become_first_responder, get_world, apply_ops, load_world; each answers with \
            a short text citing rule ids and the engine's reply as structured content. Resources: \
            responder://<session>/world and responder://<session>/traces, with subscriptions. It is an ordinary client \
            of the running engine, found like every command (--name, --dir, --connect): start `responderd` first. \
            --session sets the session of calls that name none. Register it with an editor as \
            {"command": "responder", "args": ["mcp"]}.
            """
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var session: SessionOptions

    func validate() throws {
        if global.json { throw ValidationError("--json does not apply to mcp: it always speaks MCP") }
    }

    func run() throws {
        // A client that went away shows up as a write error, not as a signal that kills the process mid-message.
        signal(SIGPIPE, SIG_IGN)
        let options = global
        let engine: EngineThread
        do {
            engine = try EngineThread.mcp(timeoutSeconds: global.replyTimeout) { () throws(ClientError) in
                try options.address()
            }
        } catch {
            Output.error("responder mcp: \(error.description)")
            throw ExitCode.failure
        }
        // Said at once on stderr (editors keep it in the server's log); each tool call says it again until an
        // engine runs.
        do { _ = try engine.connector.locate() } catch { Output.error("responder mcp: \(error.description)") }
        let server = MCPServer(engine: engine, defaultSession: session.session)
        let done = DispatchSemaphore(value: 0)
        let failure = Failure()
        Task.detached {
            do { try await server.run() } catch { failure.set("responder mcp: \(error)") }
            done.signal()
        }
        done.wait()
        if let message = failure.message {
            Output.error(message)
            throw ExitCode.failure
        }
    }
}

/// A message handed from the server's task to the main thread.
private final class Failure: Sendable {
    private let text = Mutex<String?>(nil)
    func set(_ message: String) { text.withLock { $0 = message } }
    var message: String? { text.withLock { $0 } }
}
