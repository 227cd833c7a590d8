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

/// Waits until the thread of this process named `name` (set with `Thread.current.name`) is asleep in the
/// kernel (state S in /proc/self/task/<tid>/stat), e.g. blocked in a receive. False on timeout.
func waitUntilAsleep(threadNamed name: String, timeoutSeconds: Double) -> Bool {
    let deadline = Date().addingTimeInterval(timeoutSeconds)
    while Date() < deadline {
        for task in (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? [] {
            let comm = (try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8)) ?? ""
            guard comm.trimmingCharacters(in: .whitespacesAndNewlines) == String(name.prefix(15)),
                  let stat = try? String(contentsOfFile: "/proc/self/task/\(task)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { continue }
            // "tid (comm) S ...": the state follows the command name.
            if stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).hasPrefix("S") { return true }
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
