import Foundation
import Logging
import ResponderCore
import ResponderLocal
import ResponderProtocol
import Synchronization
import ZMQ

/// A running engine: one thread owns the sockets and the world and runs zmq_poll; nothing here blocks
/// on the Swift concurrency pool. `start` binds and publishes the discovery file; `stop` asks the thread to
/// finish (waking its poll through a pipe), after which the sockets are closed and the discovery file is removed.
public final class Engine: Sendable {
    public let config: EngineConfig
    private let logger: Logger
    private let stopRequested = Atomic<Bool>(false)
    /// Wakes the engine thread's poll for `stop`; set by `start`, closed by the thread when it finishes.
    private let waker = Mutex<PollWaker?>(nil)
    private let finished = DispatchSemaphore(value: 0)
    private let stoppedBy = Mutex<String?>(nil)

    /// Why the engine stopped on its own (its state could not be saved), after `wait`; nil when asked to stop.
    public var failure: String? { stoppedBy.withLock { $0 } }

    public init(config: EngineConfig, logger: Logger = Logger(label: "responderd")) {
        self.config = config
        self.logger = logger
    }

    public var discoveryPath: String { DiscoveryFile.path(directory: config.directory, name: config.name) }

    /// Binds, writes the discovery file and starts the engine thread. Throws if another engine holds the name
    /// or a socket cannot be bound; nothing is left running then. `bound` gets the real endpoints before the
    /// discovery file exists, so what it prints comes before any client can find the engine.
    public func start(bound announce: (_ rpc: String, _ events: String) -> Void = { _, _ in }) throws {
        guard EngineConfig.isValidName(config.name) else {
            throw EngineError.io("engine names match [A-Za-z0-9_-]{1,64}: \"\(config.name)\"")
        }
        try RuntimeDirectory.prepare(config.directory)
        let lock = try InstanceLock(directory: config.directory, name: config.name)
        // The saved state and the world first: a bad one stops the start before anything is bound or replaced.
        var durable: (store: StateStore, restored: StateStore.Restored)?
        if config.isDurable { durable = try StateStore.open(config, logger: logger) }
        let hasDefault = durable?.restored.hosts.contains { $0.name == "default" } ?? false
        var initial: SessionState?
        if !hasDefault {
            do throws(RPCError) { initial = try EngineState.initialSession(config) } catch {
                durable?.store.close()
                throw EngineError.initialWorld(source: config.initialWorldSource, error)
            }
        }
        // An explicit ipc path is not covered by the lock: one a live process listens on is refused, not taken.
        do {
            try LiveSocketProbe.refuseIfTaken(config.rpcEndpoint, flag: "--rpc")
            try LiveSocketProbe.refuseIfTaken(config.eventsEndpoint, flag: "--events")
        } catch {
            durable?.store.close()
            throw error
        }
        // We hold the lock, so whatever is there was left by a dead engine: take it over.
        DiscoveryFile.remove(discoveryPath)
        DiscoveryFile.removeSocketFile(of: config.rpcEndpoint)
        DiscoveryFile.removeSocketFile(of: config.eventsEndpoint)

        let waker: PollWaker
        do { waker = try PollWaker() } catch {
            durable?.store.close()
            throw EngineError.io("cannot create the engine's wake-up pipe: \(error)")
        }
        // Connections are capped at what the file limit can hold (at that limit libzmq aborts).
        var capped = config
        let files = FileLimit.raise(for: config.bounds.maxClients)
        if files.maxClients < config.bounds.maxClients {
            logger.warning(
                "the open-file limit (\(files.limit)) holds only \(files.maxClients) clients per socket, not --max-clients \(config.bounds.maxClients); raise it with ulimit -n"
            )
        }
        capped.bounds.maxClients = files.maxClients
        let sockets: EngineSockets
        do { sockets = try EngineSockets(config: capped, logger: logger) } catch {
            waker.close()
            durable?.store.close()
            // One socket may have been bound before the other failed: remove its file.
            DiscoveryFile.removeSocketFile(of: config.rpcEndpoint)
            throw error
        }
        /// A failure from here on closes the sockets and removes the files they made.
        func abandon() {
            sockets.close()
            waker.close()
            durable?.store.close()
            DiscoveryFile.removeSocketFile(of: sockets.rpcEndpoint)
            DiscoveryFile.removeSocketFile(of: sockets.eventsEndpoint)
        }
        let now = Date()
        let events = sockets.eventsEndpoint
        let xpub = XPubSink(socket: sockets.events, bounds: capped.bounds.subscriptions, logger: logger) {
            PeerCut.shutdown(endpoint: events, peerAddress: $0)
        }
        // With a store, a group's events wait for its commit.
        let held = durable.map { _ in HeldEventSink(xpub) }
        let sink: EventSink = held ?? xpub
        // tcp://…:* binds resolve to a real port: report that one everywhere.
        var bound = capped
        bound.rpcEndpoint = sockets.rpcEndpoint
        bound.eventsEndpoint = sockets.eventsEndpoint
        let state: EngineState
        do throws(RPCError) {
            state = try EngineState(
                config: bound, sink: sink, now: now, initial: initial, restored: durable?.restored.hosts ?? [])
        } catch {
            abandon()
            throw EngineError.initialWorld(source: config.initialWorldSource, error)
        }
        if let durable {
            state.journal = ChangeJournal()
            let restoredNames = Set(durable.restored.hosts.map(\.name))
            do { try durable.store.saveNew(state.sessions.values.filter { !restoredNames.contains($0.name) }) } catch {
                abandon()
                throw error
            }
        }
        announce(sockets.rpcEndpoint, sockets.eventsEndpoint)
        let info = Discovery.File(
            name: config.name, pid: Int(getpid()), version: EngineConfig.version,
            protocolVersion: EngineConfig.protocolVersion,
            rpc: sockets.rpcEndpoint, events: sockets.eventsEndpoint,
            startedAt: ISO8601DateFormatter().string(from: now),
            curveServerKey: sockets.serverKey?.z85)
        do { try DiscoveryFile.write(info, to: discoveryPath) } catch {
            abandon()
            throw error
        }
        logger.info(
            "engine \(config.name) listening",
            metadata: ["rpc": "\(sockets.rpcEndpoint)", "events": "\(sockets.eventsEndpoint)"])

        self.waker.withLock { $0 = waker }
        let box = UnsafeTransfer((sockets, state, lock, durable?.store, held))
        let thread = Thread { [self] in
            let (sockets, state, lock, store, held) = box.value
            let worker = OffloadWorker(limits: config.limits, waker: waker)
            let server = RequestServer(state: state, store: store, events: held, worker: worker, logger: logger)
            run(sockets: sockets, state: state, server: server, waker: waker)
            stoppedBy.withLock { $0 = server.failure }
            // Whatever is still being read was never acknowledged: abandon it.
            worker.stop()
            store?.close()
            sockets.close()
            waker.close()
            DiscoveryFile.remove(discoveryPath)
            DiscoveryFile.removeSocketFile(of: sockets.rpcEndpoint)
            DiscoveryFile.removeSocketFile(of: sockets.eventsEndpoint)
            lock.release()
            logger.info("engine \(config.name) stopped")
            finished.signal()
        }
        thread.name = "responderd-engine"
        thread.start()
    }

    /// Asks the engine thread to finish; it wakes at once (callable from any thread, before or after `start`).
    public func stop() {
        stopRequested.store(true, ordering: .sequentiallyConsistent)
        waker.withLock { $0 }?.wake()
    }

    /// Blocks until the engine thread has finished (after `stop`).
    public func wait() {
        finished.wait()
        finished.signal()
    }

    /// The engine thread's loop. It waits with one poll(2) on the sockets' descriptors, not `zmq_poll`, which
    /// reads every socket's command pipe before and after each wait (eight system calls a request more than
    /// the raw echo makes). A socket's descriptor is edge-triggered, so the loop keeps one rule: before it
    /// waits, each socket has been read until a receive would block, after the last send on it (requests:
    /// `serveReady`; ZAP: `serve`; subscriptions: `drainSubscriptions`). Events are sent on the XPUB socket
    /// in between; a send may take in a subscription without its descriptor saying so, which is why
    /// `mayDeliver` and the tick read subscriptions themselves.
    private func run(sockets: EngineSockets, state: EngineState, server: RequestServer<StateStore>, waker: PollWaker) {
        let tick = max(10, config.tickMilliseconds)
        var nextTick = Date().addingTimeInterval(Double(tick) / 1000)
        let rpc = 0, events = 1, wake = 2, zap = 3
        var poll: DescriptorPoll
        do {
            poll = DescriptorPoll([
                try sockets.rpc.fileDescriptor, try sockets.events.fileDescriptor, waker.descriptor,
                try sockets.zap.socket.fileDescriptor
            ])
        } catch {
            logger.error("cannot read a socket's descriptor: \(error)")
            return
        }
        // Start from the rule's state: everything read.
        var drained = server.serveReady(sockets.rpc)
        state.sink.drainSubscriptions()
        sockets.zap.serve()
        while !stopRequested.load(ordering: .sequentiallyConsistent), server.failure == nil {
            // Sleep until the next tick, a request, a subscription, or stop() writing to the wake-up pipe; not
            // at all while requests may still be waiting.
            let untilTick = Int((nextTick.timeIntervalSinceNow * 1000).rounded(.up))
            let ready: DescriptorPoll.ReadyMask
            do { ready = try poll.wait(timeoutMs: drained ? Int32(clamping: max(0, untilTick)) : 0) } catch {
                logger.error("poll failed: \(error)")
                return
            }
            if ready[zap] { sockets.zap.serve() }
            // Subscriptions before requests: a client that saw its welcome may have sent a request that arrived
            // with its subscription, and the event that request publishes must find the subscription in place
            // (zmq_poll read the XPUB socket's commands on every wake-up, before anything was served).
            if ready[events] { state.sink.drainSubscriptions() }
            if ready[wake] {
                waker.drain()
                server.serveRead(sockets.rpc)
            }
            // After the worker's replies too: they were sends on the rpc socket.
            if ready[rpc] || ready[wake] || !drained { drained = server.serveReady(sockets.rpc) }
            if Date() >= nextTick {
                let dropped = server.takeDroppedReplies()
                if dropped > 0 {
                    logger.warning(
                        "dropped \(dropped) replies to clients that do not read them (--reply-hwm \(config.bounds.replyHighWaterMark))"
                    )
                }
                let refused = server.takeRefusedQueued()
                if refused > 0 {
                    logger.warning(
                        "refused \(refused) requests queued behind a request being read (--max-queued-bytes \(config.bounds.queuedBytesPerClient), --max-queued-bytes-total \(config.bounds.queuedBytesTotal))"
                    )
                }
                state.sink.drainSubscriptions()
                state.forgetIdleClients(now: Date())
                state.publishTick()
                nextTick = Date().addingTimeInterval(Double(tick) / 1000)
            }
        }
    }

}

/// Moves non-Sendable values into the engine thread, which becomes their only owner: the creator hands the box to
/// the thread's closure and keeps no other reference to what it holds.
struct UnsafeTransfer<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
