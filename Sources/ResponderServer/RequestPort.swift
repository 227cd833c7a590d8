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
    /// As `ZMQSocket.send(routingID:delimiter:body:dontWait:)`: false when the reply was not queued.
    func send(routingID: [UInt8], delimiter: Bool, body: [UInt8], dontWait: Bool) throws(ZMQError) -> Bool
}

extension ZMQSocket: RequestPort {}
