import Foundation
import ResponderClient
import ResponderJSON
import ResponderProtocol
import ResponderTestBasics
import Synchronization
import Testing

@testable import ResponderServer

/// The engine loop waits on the sockets' descriptors, which only announce what arrives after the socket was last
/// read to the end. With the tick ten minutes away nothing else would wake it: a request whose arrival
/// a send took in without the loop reading on would wait out the patience and fail these tests.
@Suite struct EngineLoopTests {
    @Test func everyPipelinedRequestIsAnsweredBeyondWhatOneWakeUpServes() throws {
        let t = try TestEngine(tickMilliseconds: 600_000)
        defer { t.stop() }
        let dealer = try RawDealer(address: try t.address)
        // More than the four groups of 256 one wake-up serves before it looks at the other sockets.
        let count = 1_500
        for i in 0..<count { try dealer.send(#"{"jsonrpc":"2.0","id":\#(i),"method":"responder.first","params":{}}"#) }
        var ids: [Int] = []
        for _ in 0..<count {
            let reply = try #require(try dealer.receive(), "reply \(ids.count + 1) of \(count) did not come")
            ids.append(try #require(try JSONCodec.decode(reply)["id"]?.intValue))
        }
        #expect(ids == Array(0..<count))
    }

    @Test func clientsTakingTurnsWithASubscriberJoiningAreAllAnswered() throws {
        let t = try TestEngine(world: Fixtures.world, tickMilliseconds: 600_000)
        defer { t.stop() }
        let address = try t.address
        let failures = Mutex<[String]>([])
        let clients = 6, calls = 150
        DispatchQueue.concurrentPerform(iterations: clients + 1) { i in
            do {
                if i == clients {
                    // Subscriptions arriving while replies are being sent: their descriptor's news is the same kind.
                    for _ in 0..<5 {
                        let sub = try EventSubscriber(
                            address: address, topics: ["default/"], welcomeTimeoutSeconds: patienceSeconds)
                        withExtendedLifetime(sub) {}
                    }
                    return
                }
                let c = try ResponderConnection(address: address, timeoutSeconds: patienceSeconds)
                for _ in 0..<calls {
                    // A tap publishes: events and replies both go out between reads.
                    _ = try c.call("event.tap", ["point": [20, 410]])
                }
            } catch {
                failures.withLock { $0.append("client \(i): \(error)") }
            }
        }
        #expect(failures.withLock { $0 } == [])
    }

    @Test func anIdleEngineWelcomesSubscribersWithoutWaitingForItsTick() throws {
        // libzmq takes a subscriber in (and sends the welcome) only when the XPUB socket is used: the loop must
        // wake on the events socket's descriptor, not only on requests or the tick.
        let t = try TestEngine(tickMilliseconds: 600_000)
        defer { t.stop() }
        let address = try t.address
        for _ in 0..<3 {
            // Throws when no welcome comes within the patience (the tick is ten minutes away).
            let sub = try EventSubscriber(
                address: address, topics: ["default/"], welcomeTimeoutSeconds: patienceSeconds)
            withExtendedLifetime(sub) {}
        }
    }
}
