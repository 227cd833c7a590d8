import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A file descriptor that `ZMQ.poll` waits on beside sockets (`pollItem`) and that any thread can make readable
/// (`wake`): how a thread blocked in `poll` is told to look at something — to stop — without polling on a
/// timeout. A non-blocking self-pipe; both ends are closed by `close` (or when the waker goes away), after
/// which `wake` does nothing, so a late wake can never write into a descriptor number reused since.
public final class PollWaker: Sendable {
    /// The pipe's (read, write) ends; nil once closed.
    private let ends: Mutex<(read: Int32, write: Int32)?>
    /// The read end, for `pollItem`; meaningful only until `close`.
    private let readEnd: Int32

    public init() throws(ZMQError) {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { throw ZMQError(errno: errno, operation: "pipe") }
        for fd in fds {
            let flags = fcntl(fd, F_GETFL)
            guard flags >= 0, fcntl(fd, F_SETFL, flags | O_NONBLOCK) == 0, fcntl(fd, F_SETFD, FD_CLOEXEC) == 0 else {
                let error = ZMQError(errno: errno, operation: "fcntl on a pipe")
                _ = Self.closeDescriptor(fds[0])
                _ = Self.closeDescriptor(fds[1])
                throw error
            }
        }
        ends = Mutex((fds[0], fds[1]))
        readEnd = fds[0]
    }

    deinit { close() }

    /// The item to pass to `ZMQ.poll`: readable once `wake` has been called and until `drain`.
    public var pollItem: PollItem { .fd(readEnd, .readable) }

    /// The read end, for `DescriptorPoll`: readable once `wake` has been called and until `drain`.
    public var descriptor: Int32 { readEnd }

    /// Makes `pollItem` readable, waking a `poll` that waits on it. Callable from any thread, any number of
    /// times (a full pipe already means "woken"); does nothing after `close`.
    public func wake() {
        ends.withLock { state in
            guard let ends = state else { return }
            var byte: UInt8 = 1
            while write(ends.write, &byte, 1) < 0, errno == EINTR {}
        }
    }

    /// Reads every pending wake-up, so that `pollItem` is no longer readable; true if there was any.
    @discardableResult
    public func drain() -> Bool {
        ends.withLock { state in
            guard let ends = state else { return false }
            var buffer = [UInt8](repeating: 0, count: 64)
            var woken = false
            while true {
                let n = buffer.withUnsafeMutableBytes { read(ends.read, $0.baseAddress, $0.count) }
                if n > 0 {
                    woken = true
                } else if n < 0, errno == EINTR {
                    continue
                } else {
                    return woken  // empty (EAGAIN), or the write end is closed
                }
            }
        }
    }

    /// Closes both ends; later calls, and `wake`, do nothing.
    public func close() {
        ends.withLock { state in
            guard let open = state else { return }
            state = nil
            _ = Self.closeDescriptor(open.read)
            _ = Self.closeDescriptor(open.write)
        }
    }

    /// Whether `close` has run.
    public var isClosed: Bool { ends.withLock { $0 == nil } }

    private static func closeDescriptor(_ fd: Int32) -> Int32 {
        #if canImport(Glibc)
        Glibc.close(fd)
        #elseif canImport(Musl)
        Musl.close(fd)
        #else
        Darwin.close(fd)
        #endif
    }
}
