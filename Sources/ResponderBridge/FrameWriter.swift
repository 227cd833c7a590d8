import Foundation
import Synchronization

/// Writes LSP-framed messages to stdout from any thread: replies come from the relay's thread, events from
/// each subscription's, and a frame must never interleave with another. A client that closed its end is gone:
/// the bridge exits (SIGPIPE is ignored so that this shows up here as EPIPE).
package final class FrameWriter: Sendable {
    /// Guards stdout, and with it every decision to write (`locked`).
    private let lock = Mutex<Void>(())
    private let fd: Int32

    package init(fd: Int32 = STDOUT_FILENO) { self.fd = fd }

    /// Writes one framed body.
    package func write(_ body: [UInt8]) {
        lock.withLock { _ in writeLocked(body) }
    }

    /// Runs `body` holding the writer, so that what it decides (stop a subscription) and what is written cannot
    /// cross: `write` is passed to write while holding it.
    package func locked<T>(_ body: (_ write: ([UInt8]) -> Void) -> T) -> T {
        lock.withLock { _ in body(writeLocked) }
    }

    private func writeLocked(_ body: [UInt8]) {
        let frame = Array("Content-Length: \(body.count)\r\n\r\n".utf8) + body
        var offset = 0
        while offset < frame.count {
            let n = frame.withUnsafeBytes { Foundation.write(fd, $0.baseAddress! + offset, frame.count - offset) }
            if n > 0 {
                offset += n
            } else if n < 0, errno == EINTR {
                continue
            } else if n < 0, errno == EAGAIN {
                // A non-blocking stdout that is full: wait until the client reads.
                var item = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                _ = poll(&item, 1, -1)
            } else {
                // The client closed stdout: nobody is left to answer.
                exit(0)
            }
        }
    }
}
