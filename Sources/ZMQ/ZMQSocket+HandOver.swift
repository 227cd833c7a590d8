import CZMQ

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Sending a body libzmq takes as it is (`zmq_msg_init_data`) rather than copies (`zmq_send`): a reply of a few
/// kilobytes is written once, by its writer, and sent from there.
extension ZMQSocket {
    /// A ROUTER's reply as `send(routingID:delimiter:body:dontWait:)` sends it, its body handed over: `body` is a
    /// `malloc` allocation, and `take` gives it up; libzmq frees it with `free` once it has sent it (on its own I/O
    /// thread) or dropped it. `take` is called only once the routing id is queued; when this returns false it was
    /// not called and the caller still owns the body.
    ///
    /// A body under `handedFrom` bytes is copied instead, and not taken: libzmq keeps a small message inside its
    /// own, where a body handed over costs it an allocation and a call back to free it.
    public func send(
        routingID: [UInt8], delimiter: Bool, body: UnsafeRawBufferPointer, handedFrom: Int,
        take: () -> UnsafeMutableRawPointer, dontWait: Bool = false
    ) throws(ZMQError) -> Bool {
        guard try send(routingID, more: true, dontWait: dontWait) else { return false }
        if delimiter, try !send([], more: true) { throw ZMQError(errno: EAGAIN, operation: "send frame 1 of 3") }
        let frame = delimiter ? 2 : 1, frames = delimiter ? 3 : 2
        if body.count < handedFrom {
            guard try send(body, more: false) else {
                throw ZMQError(errno: EAGAIN, operation: "send frame \(frame) of \(frames)")
            }
            return true
        }
        let socket = try liveHandle("send")
        let data = take()
        guard zmq_msg_init_data(outgoing, data, body.count, { data, _ in free(data) }, nil) == 0 else {
            free(data)
            throw .last("zmq_msg_init_data")
        }
        // From here the message owns the body: a failure below frees it with the message.
        while zmq_msg_send(outgoing, socket, 0) < 0 {
            let code = zmq_errno()
            if code == EINTR { continue }
            zmq_msg_close(outgoing)
            throw ZMQError(errno: code, operation: "send frame \(frame) of \(frames)")
        }
        return true
    }
}
