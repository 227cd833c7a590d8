import Foundation
import Testing

@testable import ZMQ

@Suite struct PollTests {
    @Test func pollReportsPendingMessageAndTimesOutOtherwise() throws {
        let ctx = try ZMQContext()
        let endpoint = ipcEndpoint("poll")
        let pull = try ZMQSocket(context: ctx, type: .pull)
        let idle = try ZMQSocket(context: ctx, type: .pull)
        let push = try ZMQSocket(context: ctx, type: .push)
        let idleEndpoint = ipcEndpoint("idle")
        defer { pull.close(); idle.close(); push.close(); ctx.terminate(); removeIPC(endpoint, idleEndpoint) }
        for s in [pull, idle, push] { try s.setLinger(0) }
        try pull.bind(endpoint)
        try idle.bind(idleEndpoint)
        try push.connect(endpoint)

        // Nothing pending: times out with no results, after actually waiting.
        let start = ContinuousClock.now
        let none = try ZMQ.poll(items: [.socket(pull, .readable), .socket(idle, .readable)], timeoutMs: 100)
        #expect(none.isEmpty)
        #expect(ContinuousClock.now - start >= .milliseconds(80))

        try push.send([bytes("ping")])
        let ready = try ZMQ.poll(items: [.socket(idle, .readable), .socket(pull, .readable)], timeoutMs: 5000)
        #expect(ready == [PollResult(index: 1, events: .readable)])
        #expect(try pull.hasEvents(.readable))
        #expect(try pull.receiveMultipart(dontWait: true) == [bytes("ping")])
        #expect(try !pull.hasEvents(.readable))
        #expect(try ZMQ.poll(items: [.socket(pull, .readable)], timeoutMs: 0).isEmpty)
    }

    @Test func pollReportsWritableAndRawFileDescriptors() throws {
        let ctx = try ZMQContext()
        let endpoint = ipcEndpoint("pw")
        let pull = try ZMQSocket(context: ctx, type: .pull)
        let push = try ZMQSocket(context: ctx, type: .push)
        defer { pull.close(); push.close(); ctx.terminate(); removeIPC(endpoint) }
        try pull.setLinger(0)
        try push.setLinger(0)
        try pull.bind(endpoint)
        try push.connect(endpoint)

        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { Foundation.close(fds[0]); Foundation.close(fds[1]) }

        let before = try ZMQ.poll(items: [.fd(fds[0], .readable)], timeoutMs: 50)
        #expect(before.isEmpty)
        var byte: UInt8 = 42
        #expect(write(fds[1], &byte, 1) == 1)
        let results = try ZMQ.poll(
            items: [.fd(fds[0], .readable), .socket(push, .writable)], timeoutMs: 5000)
        #expect(results.contains(PollResult(index: 0, events: .readable)))
        // PUSH becomes writable once connected; poll again if the fd won the race.
        var writable = results.contains { $0.index == 1 && $0.events.contains(.writable) }
        if !writable {
            writable =
                try ZMQ.poll(items: [.socket(push, .writable)], timeoutMs: 5000)
                == [PollResult(index: 0, events: .writable)]
        }
        #expect(writable)
    }

    @Test func pollOnClosedSocketThrows() throws {
        let ctx = try ZMQContext()
        let s = try ZMQSocket(context: ctx, type: .pull)
        s.close()
        defer { ctx.terminate() }
        #expect(throws: ZMQError.self) { try ZMQ.poll(items: [.socket(s, .readable)], timeoutMs: 0) }
    }
}
