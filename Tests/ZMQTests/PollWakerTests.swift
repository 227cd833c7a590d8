import Foundation
import Synchronization
import Testing

@testable import ZMQ

@Suite struct PollWakerTests {
    @Test func aWakeFromAnotherThreadEndsAPollThatWouldWaitForever() throws {
        let ctx = try ZMQContext()
        let idle = try ZMQSocket(context: ctx, type: .pull)
        defer { idle.close(); ctx.terminate() }
        try idle.setLinger(0)
        try idle.bind(ipcEndpoint("waker"))
        let waker = try PollWaker()
        defer { waker.close() }
        let items: [PollItem] = [.socket(idle, .readable), waker.pollItem]
        // Nothing pending: the waker's item is not ready.
        #expect(try ZMQ.poll(items: items, timeoutMs: 0).isEmpty)

        let result = Mutex<[PollResult]?>(nil)
        let done = DispatchSemaphore(value: 0)
        let box = UncheckedSendable(items)
        let poller = Thread {
            let ready = try? ZMQ.poll(items: box.value, timeoutMs: -1)
            result.withLock { $0 = ready }
            done.signal()
        }
        poller.start()
        usleep(100_000)  // let it block (a wake before the poll starts is kept by the pipe: same outcome)
        let start = ContinuousClock.now
        waker.wake()
        #expect(done.wait(timeout: .now() + 10) == .success, "the poll did not end")
        #expect(ContinuousClock.now - start < .seconds(5))
        #expect(result.withLock { $0 } == [PollResult(index: 1, events: .readable)])
    }

    @Test func wakesAreKeptUntilDrainedAndDoNothingAfterClose() throws {
        let waker = try PollWaker()
        // More wakes than the pipe holds: a full pipe already means "woken", and wake never blocks.
        for _ in 0..<100_000 { waker.wake() }
        #expect(try ZMQ.poll(items: [waker.pollItem], timeoutMs: 0) == [PollResult(index: 0, events: .readable)])
        #expect(try ZMQ.poll(items: [waker.pollItem], timeoutMs: 0).count == 1, "polling does not consume the wake")
        #expect(waker.drain())
        #expect(try ZMQ.poll(items: [waker.pollItem], timeoutMs: 0).isEmpty)
        #expect(!waker.drain())
        waker.wake()
        #expect(waker.drain())

        #expect(!waker.isClosed)
        waker.close()
        #expect(waker.isClosed)
        waker.close()  // again: nothing happens
        waker.wake()  // after close: nothing is written anywhere
        #expect(!waker.drain())
    }

    @Test func itsDescriptorsAreNonBlockingNotInheritedAndClosed() throws {
        let waker = try PollWaker()
        guard case .fd(let fd, let events) = waker.pollItem else {
            Issue.record("a waker polls a file descriptor")
            return
        }
        #expect(events == .readable)
        #expect(fcntl(fd, F_GETFL) & O_NONBLOCK != 0)
        #expect(fcntl(fd, F_GETFD) & FD_CLOEXEC != 0)
        var before = stat()
        #expect(fstat(fd, &before) == 0)
        waker.close()
        // Closed: the number is free (or already reused by a parallel test for something else).
        var after = stat()
        #expect(fstat(fd, &after) != 0 || after.st_ino != before.st_ino || after.st_dev != before.st_dev)
    }
}

/// Hands a non-Sendable value to a thread that becomes its only user.
private struct UncheckedSendable<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}

/// The engine loop's wait: one poll(2) over plain descriptors.
@Suite struct DescriptorPollTests {
    @Test func reportsExactlyTheReadableDescriptorsByIndex() throws {
        let quiet = try PollWaker(), woken = try PollWaker()
        defer {
            quiet.close()
            woken.close()
        }
        var poll = DescriptorPoll([quiet.descriptor, woken.descriptor])
        #expect(try poll.wait(timeoutMs: 0).isEmpty)
        woken.wake()
        let ready = try poll.wait(timeoutMs: 60_000)
        #expect(!ready[0])
        #expect(ready[1])
        woken.drain()
        #expect(try poll.wait(timeoutMs: 0).isEmpty)
    }

    @Test func aTimeoutReturnsNothingReady() throws {
        let quiet = try PollWaker()
        defer { quiet.close() }
        var poll = DescriptorPoll([quiet.descriptor])
        let start = ContinuousClock.now
        #expect(try poll.wait(timeoutMs: 30).isEmpty)
        #expect(ContinuousClock.now - start >= .milliseconds(25))
    }
}
