import ArgumentParser
import Foundation
import Logging
import ResponderCore
import ResponderProtocol
import ResponderServer

@main
struct Responderd: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "responderd",
        abstract: "The Responder Engine: a live UIKit-style responder world per session, reached over ZeroMQ.",
        discussion: """
            Binds an rpc ROUTER socket (JSON-RPC 2.0) and an events XPUB socket, writes a discovery file \
            <dir>/<name>.json so that clients find it, and runs until SIGINT or SIGTERM. See Protocol/README.md.
            """,
        version: EngineConfig.version
    )

    @Option(name: .long, help: "Instance name; one engine per name. Clients find it by this name.")
    var name = "default"

    @Option(name: .long, help: "rpc endpoint (ROUTER), e.g. tcp://127.0.0.1:5555. Default: ipc://<dir>/<name>.rpc")
    var rpc: String?

    @Option(name: .long, help: "events endpoint (XPUB). Default: ipc://<dir>/<name>.events")
    var events: String?

    @Option(name: .long, help: "Directory for the discovery file, lock and ipc sockets. Default: $XDG_RUNTIME_DIR/responder or /tmp/responder-<uid>")
    var dir: String?

    @Option(name: .long, help: "A world file ({\"tree\": …, \"detached\"?: […]}) loaded into the default session at start, e.g. Protocol/examples/demo-world.json. A mistake in it stops the start, naming the field by its path in the file (tree.children[0].frame).")
    var world: String?

    @Option(name: .long, help: "Events kept per session for trace.replay.")
    var replayBuffer = 10_000

    @Option(name: .long, help: "Most nodes per session.")
    var maxNodes = Limits.default.maxNodes

    @Option(name: .long, help: "Deepest tree per session.")
    var maxDepth = Limits.default.maxDepth

    @Option(name: .long, help: "Largest request, in bytes.")
    var maxMessageBytes = Limits.default.maxMessageBytes

    @Option(name: .long, help: "Most ops in one tree.apply.")
    var maxOps = Limits.default.maxOpsPerBatch

    @Option(name: .long, help: "Period of the $sys/tick event, in milliseconds.")
    var tickMs = 1000

    @Option(name: .long, help: "Events queued per subscriber before the engine drops (it never blocks on a slow subscriber; a subscriber recovers drops with trace.replay).")
    var publishHwm = 100_000

    @Option(name: .long, help: "Seconds without a request after which a client is no longer listed by session.clients.")
    var clientIdleSeconds = 600

    @Option(name: .long, help: "Log level.")
    var logLevel = LogLevel.info

    func validate() throws {
        guard EngineConfig.isValidName(name) else { throw ValidationError("--name must match [A-Za-z0-9_-]{1,64}") }
        for (flag, value) in [("--replay-buffer", replayBuffer), ("--max-nodes", maxNodes), ("--max-depth", maxDepth),
                              ("--max-message-bytes", maxMessageBytes), ("--max-ops", maxOps), ("--tick-ms", tickMs), ("--publish-hwm", publishHwm), ("--client-idle-seconds", clientIdleSeconds)] where value < 1 {
            throw ValidationError("\(flag) must be at least 1")
        }
    }

    func run() throws {
        let level = logLevel.level
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        let logger = Logger(label: "responderd")
        let limits = Limits(maxNodes: maxNodes, maxDepth: maxDepth, maxMessageBytes: maxMessageBytes, maxOpsPerBatch: maxOps)
        var config = EngineConfig(name: name, directory: dir, rpcEndpoint: rpc, eventsEndpoint: events, limits: limits,
                                  replayBuffer: replayBuffer, tickMilliseconds: tickMs, publishHighWaterMark: publishHwm)
        if let world {
            // Read before anything is bound: a file that cannot be used leaves nothing behind.
            guard let data = FileManager.default.contents(atPath: world) else { fail("--world \(world): cannot read the file") }
            // Straight into the configuration, which holds it alone and frees it without recursion however deep.
            do { config.initialWorld = try JSONCodec.decode(Array(data)) } catch { fail("--world \(world): not valid JSON: \(error)") }
            let shape = "a world file is {\"tree\": <application node>, \"detached\"?: [<node>…]}"
            guard let members = config.initialWorld?.objectMembers else { fail("--world \(world): \(shape)") }
            if !members.contains(where: { $0.key == "tree" }), members.contains(where: { $0.key == "kind" }) {
                fail("--world \(world): \(shape); this file holds a bare node: put it under \"tree\"")
            }
            config.initialWorldSource = world
        }
        config.clientIdleSeconds = Double(clientIdleSeconds)
        let engine = Engine(config: config, logger: logger)
        // SIGINT and SIGTERM are blocked here, before any thread exists to inherit an unblocked mask, and a thread
        // of ours takes them with sigwait: a signal right after start-up is never lost. (A DispatchSource registers
        // asynchronously; with the signal ignored meanwhile, one that came first was discarded and the engine ran on.)
        var stopSignals = Self.stopSignals
        pthread_sigmask(SIG_BLOCK, &stopSignals, nil)
        let signalThread = Thread {
            var set = Self.stopSignals
            var received: Int32 = 0
            while sigwait(&set, &received) == 0 { engine.stop() }
        }
        signalThread.name = "responderd-signals"
        signalThread.start()
        do { try engine.start() } catch EngineError.initialWorld(let source, let e) {
            // Field paths are the file's own, from its top: tree.children[0].frame.
            var text = "--world \(source ?? "?"): \(e.name.rawValue) (\(e.code)): \(e.message)"
            for (key, value) in e.details { text += "\n  \(key): " + (value.stringValue ?? JSONCodec.encodeString(value)) }
            fail(text)
        } catch {
            fail("\(error)")
        }
        FileHandle.standardOutput.write(Data("responderd \(EngineConfig.version): engine \"\(name)\" running; discovery file \(engine.discoveryPath)\n".utf8))
        engine.wait()
    }

    /// `responderd: <message>` on standard error, and exit status 1.
    func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("responderd: \(message)\n".utf8))
        Foundation.exit(1)
    }

    /// SIGINT and SIGTERM: both stop the engine cleanly.
    static var stopSignals: sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGINT)
        sigaddset(&set, SIGTERM)
        return set
    }
}
