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

    @Option(name: .long, help: "A world file ({\"tree\": …}) loaded into the default session at start, e.g. Protocol/examples/demo-world.json")
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
            guard let data = FileManager.default.contents(atPath: world) else { throw ValidationError("--world: cannot read \(world)") }
            // Straight into the configuration, which holds it alone and frees it without recursion however deep.
            do { config.initialWorld = try JSONCodec.decode(Array(data)) } catch { throw ValidationError("--world: \(world) is not valid JSON: \(error)") }
        }
        config.clientIdleSeconds = Double(clientIdleSeconds)
        let engine = Engine(config: config, logger: logger)
        // Signals become stop() before the engine starts, so a signal right after start-up still shuts down
        // cleanly; stop() wakes the engine thread at once, and it removes what it created.
        signal(SIGINT, SIG_IGN)
        signal(SIGTERM, SIG_IGN)
        let queue = DispatchQueue(label: "responderd.signals")
        let sources = [SIGINT, SIGTERM].map { sig in
            let source = DispatchSource.makeSignalSource(signal: sig, queue: queue)
            source.setEventHandler { engine.stop() }
            source.resume()
            return source
        }
        do { try engine.start() } catch {
            FileHandle.standardError.write(Data("responderd: \(error)\n".utf8))
            throw ExitCode(1)
        }
        FileHandle.standardOutput.write(Data("responderd \(EngineConfig.version): engine \"\(name)\" running; discovery file \(engine.discoveryPath)\n".utf8))
        engine.wait()
        sources.forEach { $0.cancel() }
    }
}
