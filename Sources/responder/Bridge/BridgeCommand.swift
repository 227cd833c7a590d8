import ArgumentParser
import Foundation
import ResponderBridge
import ResponderClient
import ResponderJSON
import ResponderOutput
import ResponderProtocol

/// `responder bridge`: the engine's JSON-RPC on stdin/stdout with LSP framing, so that an editor extension
/// drives the engine with its LSP client library and no libzmq of its own.
struct BridgeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bridge",
        abstract: "Serve the engine's JSON-RPC on stdin/stdout with LSP Content-Length framing, for editor extensions.",
        discussion: """
            Each message is `Content-Length: N`, an empty line, and N bytes of JSON-RPC 2.0, both ways. Every \
            engine method passes through unchanged (params, results, errors and ids exactly as Protocol/README.md \
            describes them). The bridge adds bridge.subscribe {session?, streams?, since?}, which forwards the \
            session's events as `event` notifications {topic, event} without gaps (announcing gaps it filled with \
            bridge.recovered), and bridge.unsubscribe {session?}. It exits when stdin closes, or with status 1 \
            when the engine goes away. Framing errors are reported on stderr.
            """
    )

    @ParentCommand var responder: Responder
    @OptionGroup var global: GlobalOptions

    func validate() throws {
        if responder.session.session != SessionOptions.defaultSession {
            throw ValidationError(
                "--session does not apply to bridge: bridge.subscribe and each request name their session")
        }
        if global.json { throw ValidationError("--json does not apply to bridge: it always speaks JSON-RPC") }
    }

    func run() throws {
        // A closed stdout must show up as EPIPE in FrameWriter, not kill the process mid-frame.
        signal(SIGPIPE, SIG_IGN)
        let writer = FrameWriter()
        let options = global
        let ids = ExactID()
        let relay: EngineRelay
        let subscriptions: BridgeSubscriptions
        do {
            let address = try global.address()
            let connector = EngineThread.Connector(
                timeoutSeconds: global.replyTimeout, clientName: EngineRelay.clientName, kind: "bridge"
            ) { address }
            relay = try EngineRelay(connector: connector, writer: writer, ids: ids) { () throws(ClientError) in
                try options.address()
            }
            subscriptions = BridgeSubscriptions(writer: writer, connector: connector)
        } catch {
            global.report(error)
            throw ExitCode.failure
        }
        StdinPump.run { body in
            switch RPCRequest.parse(body) {
            case .success(var request):
                if request.method.hasPrefix("bridge.") {
                    subscriptions.handle(request, body: body)
                } else {
                    relay.submit(ids.protect(body, id: request.id), expectsReply: request.id != nil)
                }
                JSON.release(&request.params)
            case .failure:
                // The engine answers what it cannot read, exactly as the protocol says (with the id when it could
                // be read); the bridge only notes it.
                Self.note("a message that is not a JSON-RPC request was passed to the engine, which answers it")
                relay.submit(body, expectsReply: true)
            }
        } onError: { message in
            Self.note(message)
        }
        subscriptions.stopAll()
        if !relay.finish(timeout: global.replyTimeout) {
            Self.note(
                "stdin closed; gave up waiting \(Output.number(global.replyTimeout)) s for the engine's last replies")
            throw ExitCode.failure
        }
    }

    static func note(_ message: String) {
        FileHandle.standardError.write(Data("bridge: \(message)\n".utf8))
    }
}
