import Foundation
import Logging
import ResponderCore
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

    public init(config: EngineConfig, logger: Logger = Logger(label: "responderd")) {
        self.config = config
        self.logger = logger
    }

    public var discoveryPath: String { DiscoveryFile.path(directory: config.directory, name: config.name) }

    /// Binds, writes the discovery file and starts the engine thread. Throws if another engine holds the name
    /// or a socket cannot be bound; nothing is left running then.
    public func start() throws {
        guard EngineConfig.isValidName(config.name) else { throw EngineError.io("engine names match [A-Za-z0-9_-]{1,64}: \"\(config.name)\"") }
        try RuntimeDirectory.prepare(config.directory)
        let lock = try InstanceLock(directory: config.directory, name: config.name)
        // The world first: a bad one stops the start before anything is bound or replaced.
        let initial: SessionState
        do throws(RPCError) { initial = try EngineState.initialSession(config) } catch {
            throw EngineError.initialWorld(source: config.initialWorldSource, error)
        }
        // We hold the lock, so whatever is there was left by a dead engine: take it over.
        DiscoveryFile.remove(discoveryPath)
        DiscoveryFile.removeSocketFile(of: config.rpcEndpoint)
        DiscoveryFile.removeSocketFile(of: config.eventsEndpoint)

        let waker: PollWaker
        do { waker = try PollWaker() } catch { throw EngineError.io("cannot create the engine's wake-up pipe: \(error)") }
        let sockets: EngineSockets
        do { sockets = try EngineSockets(config: config) } catch {
            waker.close()
            // One socket may have been bound before the other failed: remove its file.
            DiscoveryFile.removeSocketFile(of: config.rpcEndpoint)
            throw error
        }
        /// A failure from here on closes the sockets and removes the files they made.
        func abandon() {
            sockets.close()
            waker.close()
            DiscoveryFile.removeSocketFile(of: sockets.rpcEndpoint)
            DiscoveryFile.removeSocketFile(of: sockets.eventsEndpoint)
        }
        let now = Date()
        let sink = XPubSink(socket: sockets.events)
        // tcp://…:* binds resolve to a real port: report that one everywhere.
        var bound = config
        bound.rpcEndpoint = sockets.rpcEndpoint
        bound.eventsEndpoint = sockets.eventsEndpoint
        let state: EngineState
        do throws(RPCError) { state = try EngineState(config: bound, sink: sink, now: now, initial: initial) } catch {
            abandon()
            throw EngineError.initialWorld(source: config.initialWorldSource, error)
        }
        let info = Discovery.File(
            name: config.name, pid: Int(getpid()), version: EngineConfig.version, protocolVersion: EngineConfig.protocolVersion,
            rpc: sockets.rpcEndpoint, events: sockets.eventsEndpoint, startedAt: ISO8601DateFormatter().string(from: now))
        do { try DiscoveryFile.write(info, to: discoveryPath) } catch {
            abandon()
            throw error
        }
        logger.info("engine \(config.name) listening", metadata: ["rpc": "\(sockets.rpcEndpoint)", "events": "\(sockets.eventsEndpoint)"])

        self.waker.withLock { $0 = waker }
        let box = UnsafeTransfer((sockets, state, lock))
        let thread = Thread { [self] in
            let (sockets, state, lock) = box.value
            run(sockets: sockets, state: state, waker: waker)
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

    private func run(sockets: EngineSockets, state: EngineState, waker: PollWaker) {
        let processor = RequestProcessor(state: state)
        let tick = max(10, config.tickMilliseconds)
        var nextTick = Date().addingTimeInterval(Double(tick) / 1000)
        let items: [PollItem] = [.socket(sockets.rpc, .readable), .socket(sockets.events, .readable), waker.pollItem]
        while !stopRequested.load(ordering: .sequentiallyConsistent) {
            // Sleep until the next tick, a request, a subscription, or stop() writing to the wake-up pipe.
            let untilTick = Int((nextTick.timeIntervalSinceNow * 1000).rounded(.up))
            let ready: [PollResult]
            do { ready = try ZMQ.poll(items: items, timeoutMs: max(0, untilTick)) } catch {
                logger.error("poll failed: \(error)")
                return
            }
            for item in ready {
                switch item.index {
                case 0: serveRequests(sockets.rpc, processor)
                case 1: drainSubscriptions(sockets.events)
                default: waker.drain()
                }
            }
            if Date() >= nextTick {
                state.publishTick()
                nextTick = Date().addingTimeInterval(Double(tick) / 1000)
            }
        }
    }

    /// Answers every request waiting on the ROUTER (bounded, so a flood cannot starve the events socket).
    private func serveRequests(_ rpc: ZMQSocket, _ processor: RequestProcessor) {
        for _ in 0..<256 {
            let frames: [[UInt8]]
            do {
                guard let f = try rpc.receiveMultipart(dontWait: true) else { return }
                frames = f
            } catch {
                logger.error("receive failed: \(error)")
                return
            }
            // [routing id][empty delimiter]?[body]
            guard frames.count >= 2 else { continue }
            let routingID = frames[0]
            let hasDelimiter = frames.count >= 3 && frames[1].isEmpty
            let body = frames[frames.count - 1]
            guard frames.count == (hasDelimiter ? 3 : 2) else {
                logger.debug("dropping a request with \(frames.count) frames")
                continue
            }
            guard let reply = processor.process(body, from: routingID, now: Date()) else { continue }
            let out = hasDelimiter ? [routingID, [], reply] : [routingID, reply]
            do { _ = try rpc.send(out, dontWait: true) } catch {
                logger.debug("reply not delivered: \(error)")
            }
        }
    }

    /// XPUB hands us subscribe/unsubscribe messages; the welcome message is sent by libzmq itself.
    private func drainSubscriptions(_ events: ZMQSocket) {
        while let frames = try? events.receiveMultipart(dontWait: true) {
            if let first = frames.first, let flag = first.first {
                let topic = String(decoding: first.dropFirst(), as: UTF8.self)
                logger.debug("\(flag == 1 ? "subscribe" : "unsubscribe") \"\(topic)\"")
            }
        }
    }
}

/// Moves non-Sendable values into the engine thread, which becomes their only owner.
struct UnsafeTransfer<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}

/// Sends events on the XPUB socket without ever blocking: a subscriber past its high-water mark loses
/// messages (and recovers them by seq and trace.replay) rather than slowing the engine down.
final class XPubSink: EventSink {
    let socket: ZMQSocket
    init(socket: ZMQSocket) { self.socket = socket }
    func send(topic: [UInt8], body: [UInt8]) {
        _ = try? socket.send([topic, body], dontWait: true)
    }
}
