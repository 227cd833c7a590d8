import Dispatch
import Foundation
import Testing
@testable import ZMQ

/// A short, unique ipc endpoint per call (tests run in parallel).
func ipcEndpoint(_ tag: String) -> String {
    "ipc:///tmp/zt-\(getpid())-\(tag)-\(UUID().uuidString.prefix(8))"
}

/// Receives with a bounded wait so a broken test fails instead of hanging.
func receive(_ socket: ZMQSocket, timeoutMs: Int = 5000) throws -> [[UInt8]]? {
    try socket.setReceiveTimeout(timeoutMs)
    return try socket.receiveMultipart()
}

func bytes(_ s: String) -> [UInt8] { Array(s.utf8) }

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
