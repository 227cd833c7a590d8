import CZMQ

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Readiness flags for polling.
public struct PollEvents: OptionSet, Sendable, Hashable {
    public let rawValue: Int16
    public init(rawValue: Int16) { self.rawValue = rawValue }

    public static let readable = PollEvents(rawValue: Int16(ZMQ_POLLIN))
    public static let writable = PollEvents(rawValue: Int16(ZMQ_POLLOUT))
    /// Only reported for raw file descriptors.
    public static let error = PollEvents(rawValue: Int16(ZMQ_POLLERR))
}

/// One thing to wait on: a socket or a raw file descriptor.
public enum PollItem {
    case socket(ZMQSocket, PollEvents)
    case fd(Int32, PollEvents)
}

/// A ready item: its index in the `items` passed to `poll` and what it is ready for.
public struct PollResult: Sendable, Hashable {
    public let index: Int
    public let events: PollEvents
}

extension ZMQ {
    /// Blocks (`zmq_poll`) until an item is ready or `timeoutMs` passes
    /// (-1 = forever, 0 = check and return). Returns only ready items; empty
    /// on timeout or when a signal interrupted the wait (EINTR). Throws
    /// `ETERM` if a socket's context was terminated, `ENOTSOCK` for a closed socket.
    public static func poll(items: [PollItem], timeoutMs: Int) throws(ZMQError) -> [PollResult] {
        var raw: [zmq_pollitem_t] = []
        raw.reserveCapacity(items.count)
        for item in items {
            switch item {
            case .socket(let socket, let wanted):
                let handle = try socket.liveHandle("poll")
                raw.append(zmq_pollitem_t(socket: handle, fd: 0, events: wanted.rawValue, revents: 0))
            case .fd(let fd, let wanted):
                raw.append(zmq_pollitem_t(socket: nil, fd: fd, events: wanted.rawValue, revents: 0))
            }
        }
        let count = Int32(raw.count)
        let rc = raw.withUnsafeMutableBufferPointer { zmq_poll($0.baseAddress, count, timeoutMs) }
        if rc < 0 {
            let error = ZMQError.last("poll")
            if error.isInterrupted { return [] }
            throw error
        }
        if rc == 0 { return [] }
        return raw.enumerated().compactMap { index, item in
            item.revents == 0 ? nil : PollResult(index: index, events: PollEvents(rawValue: item.revents))
        }
    }
}
