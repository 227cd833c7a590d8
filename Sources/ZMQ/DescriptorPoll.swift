#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Waits for plain file descriptors (a socket's `fileDescriptor`, a `PollWaker`) to become readable with one
/// poll(2). `ZMQ.poll` over sockets costs a system call per socket before and after the wait (it asks each
/// socket's `ZMQ_EVENTS`, which reads its command pipe), on every wake-up: this is for a loop that follows
/// the edge-triggered rule itself — a socket is read until it would block after its last send before the
/// wait, so its descriptor signals only what arrives later.
public struct DescriptorPoll {
    private var items: [pollfd]

    public init(_ descriptors: [Int32]) {
        precondition(descriptors.count <= 64, "at most 64 descriptors")
        items = descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
    }

    /// The indices (as bits of the mask) of the descriptors readable after at most `timeoutMs` (-1 waits
    /// forever); 0 on timeout or when a signal interrupted the wait.
    public mutating func wait(timeoutMs: Int32) throws(ZMQError) -> ReadyMask {
        let count = nfds_t(items.count)
        let rc = items.withUnsafeMutableBufferPointer { poll($0.baseAddress, count, timeoutMs) }
        if rc < 0 {
            if errno == EINTR { return ReadyMask(bits: 0) }
            throw ZMQError(errno: errno, operation: "poll")
        }
        var bits: UInt64 = 0
        if rc > 0 {
            // An error or hang-up on a descriptor counts as readable: the reader then finds out what it is.
            for i in items.indices where items[i].revents != 0 { bits |= 1 << UInt64(i) }
        }
        return ReadyMask(bits: bits)
    }

    /// Which descriptors, by their index in the poll, are ready.
    public struct ReadyMask: Sendable, Equatable {
        public let bits: UInt64
        public subscript(index: Int) -> Bool { bits & (1 << UInt64(index)) != 0 }
        public var isEmpty: Bool { bits == 0 }
    }
}
