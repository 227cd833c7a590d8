import CZMQ

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A libzmq socket. Not thread-safe and deliberately not `Sendable`: create
/// it, use it and close it on one owner thread.
///
/// The socket keeps its `ZMQContext` alive. Close it (or drop it) before the
/// context is terminated; `close()` is idempotent and `deinit` closes.
/// Operations on a closed socket throw `ENOTSOCK`.
public final class ZMQSocket {
    public let context: ZMQContext
    public let type: SocketType
    private(set) var handle: UnsafeMutableRawPointer?
    /// The message every receive reads into, made once: zmq_msg_t must stay at a fixed address while libzmq
    /// uses it, and an allocation per receive would put a malloc and a free on every request's path. Only
    /// the socket's owner thread receives, one frame at a time, so one is enough.
    let scratch = UnsafeMutablePointer<zmq_msg_t>.allocate(capacity: 1)
    /// The message a frame handed over (`send(routingID:delimiter:body:handedFrom:take:)`) is sent from, made once
    /// for the same reasons. libzmq empties it when it takes the frame.
    let outgoing = UnsafeMutablePointer<zmq_msg_t>.allocate(capacity: 1)

    public init(context: ZMQContext, type: SocketType) throws(ZMQError) {
        self.context = context
        self.type = type
        handle = try context.withHandle("zmq_socket \(type)") { ctx throws(ZMQError) in
            guard let socket = zmq_socket(ctx, type.rawZMQ) else {
                throw .last("zmq_socket \(type)")
            }
            return socket
        }
    }

    deinit {
        close()
        scratch.deallocate()
        outgoing.deallocate()
    }

    /// True once `close()` has been called.
    public var isClosed: Bool { handle == nil }

    /// Closes the socket (`zmq_close`). Idempotent. Pending outgoing messages
    /// are kept for the linger period (`setLinger`).
    public func close() {
        guard let socket = handle else { return }
        handle = nil
        zmq_close(socket)
    }

    public func bind(_ endpoint: String) throws(ZMQError) {
        try call("bind \(endpoint)") { zmq_bind($0, endpoint) }
    }

    public func unbind(_ endpoint: String) throws(ZMQError) {
        try call("unbind \(endpoint)") { zmq_unbind($0, endpoint) }
    }

    public func connect(_ endpoint: String) throws(ZMQError) {
        try call("connect \(endpoint)") { zmq_connect($0, endpoint) }
    }

    public func disconnect(_ endpoint: String) throws(ZMQError) {
        try call("disconnect \(endpoint)") { zmq_disconnect($0, endpoint) }
    }

    /// The open handle, or `ENOTSOCK` if closed.
    func liveHandle(_ operation: @autoclosure () -> String) throws(ZMQError) -> UnsafeMutableRawPointer {
        guard let socket = handle else { throw ZMQError(errno: ENOTSOCK, operation: operation()) }
        return socket
    }

    /// Runs a libzmq call returning 0/-1, retrying on EINTR, throwing on failure.
    func call(
        _ operation: @autoclosure () -> String,
        _ body: (UnsafeMutableRawPointer) -> Int32
    ) throws(ZMQError) {
        let socket = try liveHandle(operation())
        while body(socket) != 0 {
            let error = ZMQError.last(operation())
            if !error.isInterrupted { throw error }
        }
    }
}

@available(*, unavailable, message: "ZMQSocket is owned by one thread")
extension ZMQSocket: Sendable {}
