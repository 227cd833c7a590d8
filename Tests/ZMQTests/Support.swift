import Dispatch
import Foundation
import Testing

@testable import ZMQ

/// A short, unique ipc endpoint per call (tests run in parallel). libzmq leaves the socket file behind when
/// the bound socket closes: a test removes what it made with `removeIPC`.
func ipcEndpoint(_ tag: String) -> String {
    "ipc:///tmp/zt-\(getpid())-\(tag)-\(UUID().uuidString.prefix(8))"
}

/// Removes the socket files of ipc endpoints made by `ipcEndpoint` (call it after closing the sockets).
func removeIPC(_ endpoints: String...) {
    for endpoint in endpoints where endpoint.hasPrefix("ipc://") {
        unlink(String(endpoint.dropFirst("ipc://".count)))
    }
}

/// How long a test waits for something that should happen (a message, a thread) before it fails. Only a
/// broken test takes this long; a busy machine (2 cores, other builds, `stress`) can take seconds.
let patienceMs = 60_000
let patienceSeconds = Double(patienceMs) / 1000

/// Receives with a bounded wait so a broken test fails instead of hanging.
func receive(_ socket: ZMQSocket, timeoutMs: Int = patienceMs) throws -> [[UInt8]]? {
    try socket.setReceiveTimeout(timeoutMs)
    return try socket.receiveMultipart()
}

func bytes(_ s: String) -> [UInt8] { Array(s.utf8) }

/// The calling thread's kernel id, read from /proc/thread-self (a link to "<pid>/task/<tid>"). A thread's
/// name is no reliable key: it is set through Foundation after the thread starts, and a busy test process holds
/// hundreds of threads.
func currentThreadID() -> Int? {
    guard let link = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/thread-self") else { return nil }
    return link.split(separator: "/").last.flatMap { Int($0) }
}

/// Waits until thread `tid` of this process is asleep in the kernel (state S in /proc/self/task/<tid>/stat),
/// e.g. blocked in a receive. False on timeout.
func waitUntilAsleep(threadID tid: Int, timeoutSeconds: Double) -> Bool {
    let deadline = Date().addingTimeInterval(timeoutSeconds)
    while Date() < deadline {
        if let stat = try? String(contentsOfFile: "/proc/self/task/\(tid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")"),
            // "tid (comm) S ...": the state follows the command name.
            stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).hasPrefix("S")
        {
            return true
        }
        usleep(1_000)
    }
    return false
}

/// Runs `body` on a new thread; returns false if it does not finish within `seconds`.
func finishes(within seconds: Double, _ body: @escaping @Sendable () -> Void) -> Bool {
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
        body()
        done.signal()
    }
    thread.start()
    return done.wait(timeout: .now() + seconds) == .success
}
