import Testing

@testable import ZMQ

@Suite struct PubSubTests {
    /// Reads subscription messages from an XPUB until `wanted` have all been seen.
    private func collectSubscriptions(_ xpub: ZMQSocket, until wanted: Set<[UInt8]>) throws -> [[UInt8]] {
        var seen: [[UInt8]] = []
        while !wanted.isSubset(of: Set(seen)) {
            let message = try #require(try receive(xpub), "missing subscription; saw \(seen)")
            #expect(message.count == 1)
            seen.append(message[0])
        }
        return seen
    }

    @Test func xpubSeesSubscriptionsAndSubGetsWelcome() throws {
        let ctx = try ZMQContext()
        let endpoint = ipcEndpoint("xp")
        let xpub = try ZMQSocket(context: ctx, type: .xpub)
        let sub = try ZMQSocket(context: ctx, type: .sub)
        defer { xpub.close(); sub.close(); ctx.terminate(); removeIPC(endpoint) }
        try xpub.setLinger(0)
        try sub.setLinger(0)
        try xpub.setXPubVerbose(true)
        try xpub.setXPubWelcomeMessage("$sys/welcome")
        try xpub.bind(endpoint)
        try sub.subscribe("$sys/welcome")
        try sub.subscribe(bytes("topic.a"))
        try sub.subscribe("topic.b")
        try sub.connect(endpoint)

        let subs = try collectSubscriptions(
            xpub,
            until: [
                [1] + bytes("$sys/welcome"), [1] + bytes("topic.a"), [1] + bytes("topic.b")
            ])
        #expect(subs.allSatisfy { $0.first == 1 })

        // The welcome message arrives first, before any publication.
        #expect(try receive(sub) == [bytes("$sys/welcome")])

        // Filtering: "other" is not subscribed.
        try xpub.send([bytes("topic.a"), bytes("A")])
        try xpub.send([bytes("other"), bytes("X")])
        try xpub.send([bytes("topic.b"), bytes("B")])
        #expect(try receive(sub) == [bytes("topic.a"), bytes("A")])
        #expect(try receive(sub) == [bytes("topic.b"), bytes("B")])

        // Unsubscribe is reported with a leading 0 byte.
        try sub.unsubscribe("topic.a")
        #expect(try receive(xpub) == [[0] + bytes("topic.a")])
    }

    @Test func xpubVerboseReportsDuplicateSubscriptions() throws {
        let ctx = try ZMQContext()
        let endpoint = ipcEndpoint("xv")
        let xpub = try ZMQSocket(context: ctx, type: .xpub)
        let sub1 = try ZMQSocket(context: ctx, type: .sub)
        let sub2 = try ZMQSocket(context: ctx, type: .sub)
        defer { xpub.close(); sub1.close(); sub2.close(); ctx.terminate(); removeIPC(endpoint) }
        for s in [xpub, sub1, sub2] { try s.setLinger(0) }
        try xpub.setXPubVerbose(true)
        try xpub.bind(endpoint)
        try sub1.subscribe("dup")
        try sub1.connect(endpoint)
        #expect(try receive(xpub) == [[1] + bytes("dup")])
        try sub2.subscribe("dup")
        try sub2.connect(endpoint)
        // Without XPUB_VERBOSE the second identical subscription would be swallowed.
        #expect(try receive(xpub) == [[1] + bytes("dup")])
    }

    @Test func pubWithSmallHWMDropsInsteadOfBlocking() throws {
        let ctx = try ZMQContext()
        let endpoint = ipcEndpoint("hwm")
        let pub = try ZMQSocket(context: ctx, type: .pub)
        let sub = try ZMQSocket(context: ctx, type: .sub)
        defer { pub.close(); sub.close(); ctx.terminate(); removeIPC(endpoint) }
        try pub.setLinger(0)
        try sub.setLinger(0)
        try pub.setSendHWM(5)
        try sub.setReceiveHWM(5)
        try pub.bind(endpoint)
        try sub.subscribe("")
        try sub.connect(endpoint)

        // Wait until the subscription is live: probe until one arrives (on a busy machine that can take seconds).
        var connected = false
        let deadline = ContinuousClock.now + .milliseconds(patienceMs)
        while !connected, ContinuousClock.now < deadline {
            try pub.send([bytes("probe")], dontWait: true)
            connected = try receive(sub, timeoutMs: 50) != nil
        }
        try #require(connected)
        while try sub.receiveMultipart(dontWait: true) != nil {}

        // The subscriber never reads; PUB must neither block nor fail.
        let total = 20_000
        let payload = [UInt8](repeating: 7, count: 1024)
        let start = ContinuousClock.now
        for i in 0..<total {
            let ok = try pub.send([bytes("m\(i)"), payload], dontWait: true)
            #expect(ok)
        }
        #expect(ContinuousClock.now - start < .seconds(10))

        // What the queues held arrives; then nothing more does (the rest was dropped, not delayed).
        var received = 0
        if try receive(sub) != nil { received += 1 }
        while try receive(sub, timeoutMs: 500) != nil { received += 1 }
        #expect(received > 0)
        #expect(received < total)
    }

    @Test func dontWaitWithoutPeerReturnsFalse() throws {
        let ctx = try ZMQContext()
        let push = try ZMQSocket(context: ctx, type: .push)
        let endpoint = ipcEndpoint("np")
        defer { push.close(); ctx.terminate(); removeIPC(endpoint) }
        try push.setLinger(0)
        try push.bind(endpoint)
        // No peer: PUSH has nowhere to queue, so a non-blocking send is refused.
        #expect(try push.send([bytes("a"), bytes("b")], dontWait: true) == false)
        // A blocking send with a timeout also reports false once it expires.
        try push.setSendTimeout(50)
        let start = ContinuousClock.now
        #expect(try push.send([bytes("a")]) == false)
        #expect(ContinuousClock.now - start >= .milliseconds(40))
    }
}
