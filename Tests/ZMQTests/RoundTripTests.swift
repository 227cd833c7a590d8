import Testing

@testable import ZMQ

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite struct RoundTripTests {
    /// A ROUTER bound on its own ipc endpoint and a DEALER connected to it under `routingID`; `body` gets both
    /// and everything is closed after it.
    private func withRouterAndDealer(
        _ tag: String, routingID: String, _ body: (_ router: ZMQSocket, _ dealer: ZMQSocket) throws -> Void
    ) throws {
        let ctx = try ZMQContext()
        let endpoint = ipcEndpoint(tag)
        let router = try ZMQSocket(context: ctx, type: .router)
        let dealer = try ZMQSocket(context: ctx, type: .dealer)
        defer { router.close(); dealer.close(); ctx.terminate(); removeIPC(endpoint) }
        try router.setLinger(0)
        try dealer.setLinger(0)
        try router.bind(endpoint)
        try dealer.setRoutingID(bytes(routingID))
        try dealer.connect(endpoint)
        try body(router, dealer)
    }

    @Test func dealerRouterMultipartWithRoutingID() throws {
        try withRouterAndDealer("dr", routingID: "client-1") { router, dealer in
            #expect(try dealer.send([bytes("hello"), [], bytes("world")]))
            let request = try #require(try receive(router))
            #expect(request == [bytes("client-1"), bytes("hello"), [], bytes("world")])

            #expect(try router.send([bytes("client-1"), bytes("re"), bytes("ply")]))
            let reply = try #require(try receive(dealer))
            #expect(reply == [bytes("re"), bytes("ply")])
        }
    }

    /// The engine's receive and reply: frames handed over in place with their index and whether each
    /// is the last, a property read from the last frame, and a reply sent as routing id, delimiter and body.
    @Test func framesReadInPlaceAndAnEnvelopeSentBack() throws {
        try withRouterAndDealer("env", routingID: "client-2") { router, dealer in
            // Nothing queued: nil, and no frame handed over.
            var seen: [(Int, [UInt8], Bool)] = []
            #expect(
                try router.receiveFrames(dontWait: true, property: nil, read: { _ in }) {
                    seen.append(($0, Array($1), $2))
                } == nil)
            #expect(seen.isEmpty)

            for (delimiter, body) in [(true, bytes("with a delimiter")), (false, bytes("bare")), (true, [UInt8]())] {
                #expect(try dealer.send(delimiter ? [[], body] : [body]))
                seen = []
                var socketType: String?
                try router.setReceiveTimeout(patienceMs)
                let count = try router.receiveFrames(
                    property: ZMQProperty("Socket-Type"), read: { socketType = String(cString: $0) }
                ) {
                    seen.append(($0, Array($1), $2))
                }
                let frames: [[UInt8]] = [bytes("client-2")] + (delimiter ? [[]] : []) + [body]
                #expect(count == frames.count)
                #expect(seen.map(\.0) == Array(frames.indices))
                #expect(seen.map(\.1) == frames)
                #expect(seen.map(\.2) == frames.indices.map { $0 == frames.count - 1 })
                #expect(socketType == "DEALER")

                #expect(
                    try router.send(
                        routingID: bytes("client-2"), delimiter: delimiter, body: bytes("re: ") + body, dontWait: true))
                #expect(try receive(dealer) == (delimiter ? [[]] : []) + [bytes("re: ") + body])
            }
            // A peer that is gone: with ROUTER_MANDATORY the first frame is refused, nothing is sent.
            try router.setRouterMandatory(true)
            #expect(throws: ZMQError.self) {
                try router.send(routingID: bytes("nobody"), delimiter: false, body: bytes("x"), dontWait: true)
            }
        }
    }

    /// A reply's body handed to libzmq as written: it arrives byte for byte (a large one too, sent after the
    /// sender let go of it), and a reply whose routing id is refused leaves the body with its owner, untaken.
    @Test func handedOverBodyArrivesAndARefusedOneStaysWithItsOwner() throws {
        try withRouterAndDealer("hand", routingID: "client-3") { router, dealer in
            // The engine sees a client once it has sent something.
            #expect(try dealer.send([bytes("hello")]))
            try router.setReceiveTimeout(patienceMs)
            #expect(try receive(router) == [bytes("client-3"), bytes("hello")])
            for (delimiter, size) in [(true, 37), (false, 4246), (true, 300_000)] {
                let text = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ size) }
                let room = malloc(size)!
                text.withUnsafeBytes { room.copyMemory(from: $0.baseAddress!, byteCount: size) }
                var taken = false
                #expect(
                    try router.send(
                        routingID: bytes("client-3"), delimiter: delimiter,
                        body: UnsafeRawBufferPointer(start: room, count: size), handedFrom: 1024,
                        take: {
                            taken = true
                            return room
                        }, dontWait: true))
                // Under the size a body is handed from it is copied, and stays its owner's.
                #expect(taken == (size >= 1024))
                if !taken { free(room) }
                #expect(try receive(dealer) == (delimiter ? [[]] : []) + [text])
            }
            try router.setRouterMandatory(true)
            var taken = false
            let room = malloc(2048)!
            defer { free(room) }
            #expect(throws: ZMQError.self) {
                try router.send(
                    routingID: bytes("nobody"), delimiter: false,
                    body: UnsafeRawBufferPointer(start: room, count: 2048), handedFrom: 1024,
                    take: {
                        taken = true
                        return room
                    }, dontWait: true)
            }
            #expect(!taken)
        }
    }

    @Test func tcpWildcardBindReportsResolvedEndpoint() throws {
        let ctx = try ZMQContext()
        let pull = try ZMQSocket(context: ctx, type: .pull)
        let push = try ZMQSocket(context: ctx, type: .push)
        defer { pull.close(); push.close(); ctx.terminate() }
        try pull.setLinger(0)
        try push.setLinger(0)
        try pull.bind("tcp://127.0.0.1:*")
        let endpoint = try pull.lastEndpoint
        #expect(endpoint.hasPrefix("tcp://127.0.0.1:"))
        let port = try #require(Int(endpoint.dropFirst("tcp://127.0.0.1:".count)))
        #expect(port > 0)

        try push.connect(endpoint)
        #expect(try push.send([bytes("over tcp")]))
        #expect(try receive(pull) == [bytes("over tcp")])
    }

    @Test func fiveMegabyteFrameArrivesIntact() throws {
        let ctx = try ZMQContext()
        let pull = try ZMQSocket(context: ctx, type: .pull)
        let push = try ZMQSocket(context: ctx, type: .push)
        defer { pull.close(); push.close(); ctx.terminate() }
        try pull.setLinger(0)
        try push.setLinger(0)
        try pull.bind("tcp://127.0.0.1:*")
        try push.connect(try pull.lastEndpoint)

        let big = (0..<(5 * 1024 * 1024)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 / 251) }
        #expect(try push.send([bytes("head"), big, bytes("tail")]))
        let message = try #require(try receive(pull))
        #expect(message.count == 3)
        #expect(message[0] == bytes("head"))
        #expect(message[1].count == big.count)
        #expect(message[1] == big)
        #expect(message[2] == bytes("tail"))
    }

    @Test func singleFrameSendWithMoreFlag() throws {
        let ctx = try ZMQContext()
        let endpoint = ipcEndpoint("pair")
        let a = try ZMQSocket(context: ctx, type: .pair)
        let b = try ZMQSocket(context: ctx, type: .pair)
        defer { a.close(); b.close(); ctx.terminate(); removeIPC(endpoint) }
        try a.setLinger(0)
        try b.setLinger(0)
        try a.bind(endpoint)
        try b.connect(endpoint)
        #expect(try b.send(bytes("one"), more: true))
        #expect(try b.send(bytes("two"), more: false))
        #expect(try receive(a) == [bytes("one"), bytes("two")])
        // Nothing else queued.
        #expect(try a.receiveMultipart(dontWait: true) == nil)
    }

    @Test func receiveTimeoutReturnsNil() throws {
        let ctx = try ZMQContext()
        let pull = try ZMQSocket(context: ctx, type: .pull)
        let endpoint = ipcEndpoint("rto")
        defer { pull.close(); ctx.terminate(); removeIPC(endpoint) }
        try pull.bind(endpoint)
        let start = ContinuousClock.now
        #expect(try receive(pull, timeoutMs: 100) == nil)
        #expect(ContinuousClock.now - start >= .milliseconds(80))
    }

    @Test func versionIsAtLeastFour() {
        let v = ZMQ.version
        #expect(v.major >= 4)
        #expect(v.minor >= 0 && v.patch >= 0)
    }
}
