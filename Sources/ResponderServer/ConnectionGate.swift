import Foundation
import Logging
import Synchronization
import ZMQ

/// Keeps the connections on each engine socket at or below `--max-clients`.
///
/// libzmq accepts every connection it can; at the process's file limit its ipc listener aborts the whole
/// process ("Too many open files", src/ipc_listener.cpp in 4.3.4) and its tcp listener spins on accept. So the
/// file limit is raised to leave a wide margin above the cap (`FileLimit`), and this gate, on a thread of its own
/// (a busy engine thread must not delay it), reads each socket's monitor: a connection accepted beyond the cap is
/// shut down at once (`shutdown(2)`, which never frees the descriptor number under libzmq's feet; libzmq then
/// closes it). A ZeroMQ client that is refused reconnects by itself and gets in once a slot is free.
final class ConnectionGate: Sendable {
    /// A monitored socket's PAIR end, owned by the gate thread once it runs.
    private struct Watch {
        let name: String
        let pair: ZMQSocket
        /// The connections let in (the refused ones are not counted): descriptor → the socket's inode, which
        /// tells a connection from a later one that reuses its descriptor number.
        var open: [Int32: UInt64] = [:]
    }

    private let stopRequested = Atomic<Bool>(false)
    private let done = DispatchSemaphore(value: 0)
    private let counts = Mutex<[String: Int]>([:])
    private let refusedTotal = Atomic<Int>(0)

    /// Starts monitoring `sockets` (name, socket); call before they bind, on their owner thread.
    init(context: ZMQContext, sockets: [(String, ZMQSocket)], maxClients: Int, logger: Logger) throws {
        var watches: [Watch] = []
        do {
            for (index, (name, socket)) in sockets.enumerated() {
                let endpoint = "inproc://responderd-gate-\(ObjectIdentifier(self).hashValue)-\(index)"
                try socket.monitor(endpoint, events: [.accepted, .disconnected])
                let pair = try ZMQSocket(context: context, type: .pair)
                watches.append(Watch(name: name, pair: pair))
                // No high-water mark between the monitor and us: a flood of connections must not fill the pipe.
                try pair.setReceiveHWM(0)
                try pair.connect(endpoint)
            }
        } catch {
            watches.forEach { $0.pair.close() }
            throw EngineError.socket("cannot monitor the engine's connections: \(error)")
        }
        let box = UnsafeTransfer(watches)
        let thread = Thread { [self] in
            var watches = box.value
            run(&watches, maxClients: maxClients, logger: logger)
            watches.forEach { $0.pair.close() }
            done.signal()
        }
        thread.name = "responderd-gate"
        thread.start()
    }

    /// Connections let in on socket `name` ("rpc", "events").
    func connections(_ name: String) -> Int { counts.withLock { $0[name] ?? 0 } }

    /// Connections refused since start.
    var refused: Int { refusedTotal.load(ordering: .relaxed) }

    /// Stops the thread and waits for it; before the context is terminated.
    func stop() {
        stopRequested.store(true, ordering: .sequentiallyConsistent)
        done.wait()
    }

    private func run(_ watches: inout [Watch], maxClients: Int, logger: Logger) {
        let items = watches.map { PollItem.socket($0.pair, .readable) }
        var lastWarning = Date.distantPast
        var lastSweep = Date()
        while !stopRequested.load(ordering: .sequentiallyConsistent) {
            // Short timeout: stop() needs no wake-up pipe, and the events themselves wake us.
            guard let ready = try? ZMQ.poll(items: items, timeoutMs: 100) else { return }
            for item in ready {
                while let frames = try? watches[item.index].pair.receiveMultipart(dontWait: true) {
                    guard let event = MonitorEvent(frames: frames) else { continue }
                    if event.kind == .accepted {
                        if watches[item.index].open.count < maxClients {
                            // A connection already gone by now (no inode) holds no slot.
                            if let inode = Self.inode(event.value) { watches[item.index].open[event.value] = inode }
                        } else {
                            shutdown(event.value, Int32(SHUT_RDWR))
                            refusedTotal.add(1, ordering: .relaxed)
                            if Date().timeIntervalSince(lastWarning) > 10 {
                                lastWarning = Date()
                                logger.warning(
                                    "refusing connections on \(watches[item.index].name): \(maxClients) are open (--max-clients)"
                                )
                            }
                        }
                    } else if event.kind == .disconnected {
                        watches[item.index].open[event.value] = nil
                    }
                }
            }
            // The monitor's events are the fast path; a slot whose connection is closed, or whose descriptor now
            // holds another socket, is freed here too, so that no lost or misordered event can hold a slot for good.
            // (Connections that are open but silent are closed by libzmq after --handshake-timeout.)
            if Date().timeIntervalSince(lastSweep) >= 1 {
                lastSweep = Date()
                for i in watches.indices where watches[i].open.count >= maxClients {
                    watches[i].open = watches[i].open.filter { Self.inode($0.key) == $0.value }
                }
            }
            for watch in watches {
                counts.withLock { $0[watch.name] = watch.open.count }
            }
        }
    }

    /// The inode of the socket open on `fd`, nil when the descriptor is closed or is not a socket.
    private static func inode(_ fd: Int32) -> UInt64? {
        var st = stat()
        guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFSOCK else { return nil }
        return UInt64(st.st_ino)
    }
}
