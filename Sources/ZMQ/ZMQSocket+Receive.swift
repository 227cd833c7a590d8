import CZMQ

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Receiving whole multipart messages (`zmq_msg_recv`, no size limit).
extension ZMQSocket {
    /// Receives every frame of the next message.
    ///
    /// Returns nil when no message is available: `dontWait` and the queue is
    /// empty, or the receive timeout (`setReceiveTimeout`) expired. Retries
    /// on EINTR. Throws on other errors (e.g. `ETERM`).
    public func receiveMultipart(dontWait: Bool = false) throws(ZMQError) -> [[UInt8]]? {
        var frames: [[UInt8]] = []
        let received = try receiveFrames(dontWait: dontWait, property: nil, read: { _ in }) { _, bytes, _ in
            // A request is two or three frames (routing id, delimiter, body): room made once, not grown twice;
            // none made for a receive that finds nothing (every drain ends with one).
            if frames.isEmpty { frames.reserveCapacity(3) }
            frames.append(Array(bytes))
        }
        return received == nil ? nil : frames
    }

    /// Receives every frame of the next message and hands each to `frame` where libzmq keeps it (`index`, its
    /// bytes, whether it is the last), valid during the call only: the caller copies what it keeps, and nothing
    /// else is allocated: copying a request's frames into an array of arrays would be three allocations a
    /// request, and its routing id, the same from one request to the next, a fourth. `property` ("User-Id" as
    /// the ZAP handler set it, "Peer-Address", a ZMTP property) is read from the last frame when it has it and
    /// handed to `read`, also in place. Returns the number of frames, or nil when no message is available
    /// (`dontWait` and the queue is empty, or the receive timeout expired). Retries on EINTR.
    public func receiveFrames(
        dontWait: Bool = false, property: ZMQProperty?, read: (UnsafePointer<CChar>) -> Void,
        frame: (_ index: Int, _ bytes: UnsafeRawBufferPointer, _ last: Bool) -> Void
    ) throws(ZMQError) -> Int? {
        let socket = try liveHandle("receive")
        let msg = scratch
        var index = 0
        while true {
            // Only the first frame may be absent; the rest arrive atomically.
            let flags = index == 0 && dontWait ? ZMQ_DONTWAIT : 0
            zmq_msg_init(msg)
            defer { zmq_msg_close(msg) }
            while zmq_msg_recv(msg, socket, flags) < 0 {
                let code = zmq_errno()
                if code == EINTR { continue }
                if code == EAGAIN {
                    if index == 0 { return nil }
                    throw ZMQError(errno: EAGAIN, operation: "receive frame \(index)")
                }
                throw ZMQError(errno: code, operation: "receive")
            }
            let last = zmq_msg_more(msg) == 0
            frame(index, UnsafeRawBufferPointer(start: zmq_msg_data(msg), count: zmq_msg_size(msg)), last)
            index += 1
            if last {
                // Read before the message is closed: the value belongs to it.
                if let property, let raw = property.name.withUnsafeBufferPointer({ zmq_msg_gets(msg, $0.baseAddress!) })
                {
                    read(raw)
                }
                return index
            }
        }
    }
}

/// A message property's name as libzmq reads it (a C string), made once.
public struct ZMQProperty: Sendable {
    let name: ContiguousArray<CChar>
    public init(_ name: String) { self.name = name.utf8CString }
}
