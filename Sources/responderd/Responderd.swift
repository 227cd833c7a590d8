import ArgumentParser
import Foundation
import Logging
import ResponderCore
import ResponderJSON
import ResponderProtocol
import ResponderServer

@main
struct Responderd: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "responderd",
        abstract: "The Responder Engine: a live UIKit-style responder world per session, reached over ZeroMQ.",
        discussion: """
            Binds an rpc ROUTER socket (JSON-RPC 2.0) and an events XPUB socket, writes a discovery file \
            <dir>/<name>.json so that clients find it, and runs until SIGINT or SIGTERM (also SIGALRM; SIGHUP is ignored). See Protocol/README.md.
            """,
        version: EngineConfig.version
    )

    @Option(name: .long, help: "Instance name; one engine per name. Clients find it by this name.")
    var name = "default"

    @Option(name: .long, help: "rpc endpoint (ROUTER), e.g. tcp://127.0.0.1:5555. Default: ipc://<dir>/<name>.rpc")
    var rpc: String?

    @Option(name: .long, help: "events endpoint (XPUB). Default: ipc://<dir>/<name>.events")
    var events: String?

    @Option(
        name: .long,
        help:
            "Directory for the discovery file, lock and ipc sockets. Default: $XDG_RUNTIME_DIR/responder or /tmp/responder-<uid>"
    )
    var dir: String?

    @Option(
        name: .long,
        help:
            "A world file ({\"tree\": …, \"detached\"?: […]}) loaded into the default session at start, e.g. Protocol/examples/demo-world.json. A mistake in it stops the start, naming the field by its path in the file (tree.children[0].frame)."
    )
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

    @Option(
        name: .long,
        help:
            "Events queued per subscriber before the engine drops (it never blocks on a slow subscriber; a subscriber recovers drops with trace.replay)."
    )
    var publishHwm = 100_000

    @Option(name: .long, help: "Seconds without a request after which a client is no longer listed by session.clients.")
    var clientIdleSeconds = 600

    @Option(
        name: .long,
        help:
            "Directory of the durable state (sessions survive a restart), or \"none\" to keep everything in memory. Default: $XDG_STATE_HOME/responder/<name>, else ~/.local/state/responder/<name>"
    )
    var stateDir: String?

    @Flag(name: .long, help: "Keep everything in memory: a restart starts empty (the same as --state-dir none).")
    var ephemeral = false

    @Option(
        name: .long,
        help:
            "none: nothing is written; normal: every acknowledged change survives a crash or kill of the engine; full: also a power loss (an fsync per group commit)."
    )
    var durability = Durability.normal

    @Flag(
        name: .long,
        help:
            "Start from the valid part of a damaged state directory (what is dropped is logged) instead of refusing to start."
    )
    var recover = false

    @Option(
        name: .customLong("allow-uid"),
        help:
            "Also accept ipc connections from this user id (repeat for several). By default only the engine's own user may connect."
    )
    var allowUIDs: [UInt32] = []

    @Flag(
        name: .long,
        help:
            "Allow plain tcp (no CURVE) on a loopback address. Anyone on this machine can then connect, read and change every session. Without it a tcp endpoint uses CURVE: keys in $XDG_STATE_HOME/responder/<name>/ (engine.key, authorized_clients; see `responder keygen`)."
    )
    var insecureTcp = false

    @Option(
        name: .long,
        help:
            "Most connections per socket (rpc, events); more are refused at once, and the open-file limit is raised to hold them."
    )
    var maxClients = EngineBounds().maxClients

    @Option(
        name: .long,
        help:
            "Replies queued to a client that does not read them; past it, its replies are dropped (the requests are still carried out)."
    )
    var replyHwm = EngineBounds().replyHighWaterMark

    @Option(
        name: .long,
        help: "Bytes of events kept per session for trace.replay (the oldest go first; the newest is always kept).")
    var replayBytes = EngineBounds().replayBytes

    @Option(name: .long, help: "Most sessions in the engine.")
    var maxSessions = EngineBounds().maxSessions

    @Option(
        name: .long,
        help:
            "Seconds a new connection has to complete its ZeroMQ handshake before it is closed (a connection that never speaks ZeroMQ gives its --max-clients slot back)."
    )
    var handshakeTimeout = Double(EngineBounds().handshakeTimeoutMs) / 1000

    @Option(name: .long, help: "Longest client.hello name and kind, in bytes (the engine keeps both per client).")
    var maxClientStringBytes = EngineBounds().maxClientStringBytes

    @Option(
        name: .long,
        help:
            "Longest topic a subscriber may subscribe to, in bytes; a connection that subscribes to a longer one is cut (libzmq keeps about 32 bytes of memory per topic byte)."
    )
    var maxSubscriptionBytes = EngineBounds().subscriptions.topicBytes

    @Option(
        name: .long,
        help: "Most subscriptions per connection to the events socket; a connection that makes more is cut.")
    var maxSubscriptions = EngineBounds().subscriptions.perConnection

    @Option(
        name: .long,
        help: "Most bytes of subscribed topics per connection to the events socket; a connection past it is cut.")
    var subscriptionBytes = EngineBounds().subscriptions.bytesPerConnection

    @Option(
        name: .long,
        help:
            "Most subscriptions on the events socket, all connections together; the connection whose subscription goes past it is cut."
    )
    var maxSubscriptionsTotal = EngineBounds().subscriptions.total

    @Option(
        name: .long,
        help:
            "Most bytes of subscribed topics on the events socket, all connections together; the connection whose subscription goes past it is cut."
    )
    var subscriptionBytesTotal = EngineBounds().subscriptions.bytesTotal

    @Option(
        name: .long,
        help:
            "Bytes of requests held for one client while its large request is read; a request past it is answered LIMIT_EXCEEDED (queuedBytes) unread."
    )
    var maxQueuedBytes = EngineBounds().queuedBytesPerClient

    @Option(
        name: .long,
        help:
            "Bytes of requests held for all clients while large requests are read; a request past it is answered LIMIT_EXCEEDED (queuedBytesTotal) unread."
    )
    var maxQueuedBytesTotal = EngineBounds().queuedBytesTotal

    @Option(
        name: .long,
        help:
            "Bytes of events kept for trace.replay in all sessions together; past it, the publishing session drops its oldest (each keeps its newest)."
    )
    var replayBytesTotal = EngineBounds().replayBytesTotal

    @Option(name: .long, help: "Log level.")
    var logLevel = LogLevel.info

    func validate() throws {
        guard EngineConfig.isValidName(name) else { throw ValidationError("--name must match [A-Za-z0-9_-]{1,64}") }
        for (flag, value) in [
            ("--replay-buffer", replayBuffer), ("--max-nodes", maxNodes), ("--max-depth", maxDepth),
            ("--max-message-bytes", maxMessageBytes), ("--max-ops", maxOps), ("--tick-ms", tickMs),
            ("--publish-hwm", publishHwm), ("--client-idle-seconds", clientIdleSeconds),
            ("--max-clients", maxClients), ("--reply-hwm", replyHwm), ("--replay-bytes", replayBytes),
            ("--max-sessions", maxSessions), ("--max-client-string-bytes", maxClientStringBytes),
            ("--max-subscription-bytes", maxSubscriptionBytes), ("--max-subscriptions", maxSubscriptions),
            ("--subscription-bytes", subscriptionBytes), ("--max-subscriptions-total", maxSubscriptionsTotal),
            ("--subscription-bytes-total", subscriptionBytesTotal), ("--max-queued-bytes", maxQueuedBytes),
            ("--max-queued-bytes-total", maxQueuedBytesTotal), ("--replay-bytes-total", replayBytesTotal)
        ] where value < 1 {
            throw ValidationError("\(flag) must be at least 1")
        }
        guard handshakeTimeout >= 0.001, handshakeTimeout <= 3600 else {
            throw ValidationError("--handshake-timeout must be between 0.001 and 3600 seconds")
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
        let limits = Limits(
            maxNodes: maxNodes, maxDepth: maxDepth, maxMessageBytes: maxMessageBytes, maxOpsPerBatch: maxOps)
        var config = EngineConfig(
            name: name, directory: dir, rpcEndpoint: rpc, eventsEndpoint: events, limits: limits,
            replayBuffer: replayBuffer, tickMilliseconds: tickMs, publishHighWaterMark: publishHwm)
        if let world {
            // Read before anything is bound: a file that cannot be used leaves nothing behind.
            guard let data = FileManager.default.contents(atPath: world) else {
                // The system's reason (No such file or directory, Permission denied, Is a directory).
                let fd = open(world, O_RDONLY)
                var reason = fd < 0 ? String(cString: strerror(errno)) : "the file cannot be read"
                if fd >= 0 {
                    var byte: UInt8 = 0
                    if read(fd, &byte, 1) < 0 { reason = String(cString: strerror(errno)) }
                    close(fd)
                }
                fail("--world \(world): cannot read the file: \(reason)")
            }
            // Straight into the configuration, which holds it alone and frees it without recursion however deep.
            let text = NormalizedText.json(Array(data))
            do { config.initialWorld = try JSONCodec.decode(text) } catch {
                fail("--world \(world): not valid JSON: \(error.located(in: text))")
            }
            let shape = "a world file is {\"tree\": <application node>, \"detached\"?: [<node>…]}"
            guard let members = config.initialWorld?.objectMembers else { fail("--world \(world): \(shape)") }
            if !members.contains(where: { $0.key == "tree" }), members.contains(where: { $0.key == "kind" }) {
                fail("--world \(world): \(shape); this file holds a bare node: put it under \"tree\"")
            }
            config.initialWorldSource = world
        }
        config.clientIdleSeconds = Double(clientIdleSeconds)
        config.durability = durability
        config.recover = recover
        if !ephemeral, stateDir != "none", durability != .none {
            config.stateDirectory = stateDir ?? StateDirectory.defaultPath(name: name)
        }
        config.security = SecurityConfig(
            allowedUIDs: Set(allowUIDs), insecureTCP: insecureTcp,
            stateDirectory: stateDir == "none" ? nil : stateDir)
        config.bounds = EngineBounds(
            maxClients: maxClients, replyHighWaterMark: replyHwm, replayBytes: replayBytes, maxSessions: maxSessions,
            handshakeTimeoutMs: Int((handshakeTimeout * 1000).rounded()), maxClientStringBytes: maxClientStringBytes)
        config.bounds.subscriptions = SubscriptionBudget.Bounds(
            topicBytes: maxSubscriptionBytes, perConnection: maxSubscriptions, bytesPerConnection: subscriptionBytes,
            total: maxSubscriptionsTotal, bytesTotal: subscriptionBytesTotal)
        config.bounds.queuedBytesPerClient = maxQueuedBytes
        config.bounds.queuedBytesTotal = maxQueuedBytesTotal
        config.bounds.replayBytesTotal = replayBytesTotal
        let engine = Engine(config: config, logger: logger)
        Signals.prepare()
        Signals.handle(for: engine, logger: logger)
        Signals.removeOnCrash(engine.discoveryPath)
        // The warning comes before the discovery file: whoever finds the engine can already read it.
        do {
            try engine.start { rpc, events in if insecureTcp { InsecureWarning.print(rpc: rpc, events: events) } }
        } catch EngineError.initialWorld(let source, let e) {
            // Field paths are the file's own, from its top: tree.children[0].frame.
            var text = "--world \(source ?? "?"): \(e.name.rawValue) (\(e.code)): \(e.message)"
            for (key, value) in e.details {
                text += "\n  \(key): " + (value.stringValue ?? JSONCodec.encodeString(value))
            }
            fail(text)
        } catch {
            fail("\(error)")
        }
        FileHandle.standardOutput.write(
            Data(
                "responderd \(EngineConfig.version): engine \"\(name)\" running; discovery file \(engine.discoveryPath)\n"
                    .utf8))
        engine.wait()
        if let failure = engine.failure { fail(failure) }
    }

    /// `responderd: <message>` on standard error, and exit status 1.
    func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("responderd: \(message)\n".utf8))
        Foundation.exit(1)
    }
}
