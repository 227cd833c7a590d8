import ResponderJSON
import ZMQ

/// What `RequestServer` needs of the rpc socket: a receive that does not wait, handing over one message's
/// frames in place, and a send of one reply. The ROUTER socket is the one the engine serves; tests serve an
/// in-memory port instead, so that grouping, commits and reply order are checked with no socket at all.
protocol RequestPort {
    /// As `ZMQSocket.receiveFrames`: the number of frames, or nil when no message is waiting.
    func receiveFrames(
        dontWait: Bool, property: ZMQProperty?, read: (UnsafePointer<CChar>) -> Void,
        frame: (_ index: Int, _ bytes: UnsafeRawBufferPointer, _ last: Bool) -> Void
    ) throws(ZMQError) -> Int?
    /// As `ZMQSocket.send(routingID:delimiter:body:handedFrom:take:dontWait:)`: false when the reply was not
    /// queued. A reply queued may have been taken from `body` (a large one is handed over, a small one copied).
    func send(routingID: [UInt8], delimiter: Bool, body: WrittenText, dontWait: Bool) throws(ZMQError) -> Bool
}

extension ZMQSocket: RequestPort {
    /// Replies from this size are handed to libzmq as written (a hit test's is about 4 KB); smaller ones are
    /// copied, which costs libzmq less than a body it must call back to free.
    static var handedFrom: Int { 1024 }

    func send(routingID: [UInt8], delimiter: Bool, body: WrittenText, dontWait: Bool) throws(ZMQError) -> Bool {
        try body.withUnsafeBytes { bytes throws(ZMQError) in
            try send(
                routingID: routingID, delimiter: delimiter, body: bytes, handedFrom: Self.handedFrom, take: body.take,
                dontWait: dontWait)
        }
    }
}
