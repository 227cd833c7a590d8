import Foundation
import Testing

@testable import ZMQ

@Suite struct ErrorAndLifecycleTests {
    @Test func bindToBadEndpointCarriesErrnoAndOperation() throws {
        let ctx = try ZMQContext()
        let s = try ZMQSocket(context: ctx, type: .rep)
        defer { s.close(); ctx.terminate() }
        do {
            try s.bind("bogus://nowhere")
            Issue.record("bind to a bogus transport succeeded")
        } catch {
            #expect(error.errno == EPROTONOSUPPORT)
            #expect(error.operation == "bind bogus://nowhere")
            #expect(!error.message.isEmpty)
            #expect(error.description.contains("bind bogus://nowhere"))
            #expect(error.description.contains(error.message))
            #expect(!error.isAgain && !error.isTerminated && !error.isInterrupted)
        }
        let error = #expect(throws: ZMQError.self) { try s.connect("tcp://no-port-here") }
        #expect(error?.errno == EINVAL)
        #expect(error?.operation == "connect tcp://no-port-here")
    }

    @Test func routerMandatoryRejectsUnknownPeer() throws {
        let ctx = try ZMQContext()
        let router = try ZMQSocket(context: ctx, type: .router)
        let endpoint = ipcEndpoint("rm")
        defer { router.close(); ctx.terminate(); removeIPC(endpoint) }
        try router.setRouterMandatory(true)
        try router.bind(endpoint)
        let error = #expect(throws: ZMQError.self) {
            try router.send([bytes("nobody"), bytes("x")], dontWait: true)
        }
        #expect(error?.errno == EHOSTUNREACH)
    }

    @Test func errorHelpersMatchErrno() {
        #expect(ZMQError(errno: EAGAIN, operation: "x").isAgain)
        #expect(ZMQError(errno: 156_384_712 + 53, operation: "x").isTerminated)  // ZMQ_HAUSNUMERO + 53 = ETERM
        #expect(ZMQError(errno: EINTR, operation: "x").isInterrupted)
        #expect(!ZMQError(errno: EINVAL, operation: "x").isAgain)
    }

    @Test func optionsRejectBadValues() throws {
        let ctx = try ZMQContext()
        let s = try ZMQSocket(context: ctx, type: .dealer)
        defer { s.close(); ctx.terminate() }
        // Routing ids may not be empty.
        let error = #expect(throws: ZMQError.self) { try s.setRoutingID([]) }
        #expect(error?.errno == EINVAL)
        #expect(error?.operation == "setsockopt ROUTING_ID")
        try s.setMaxMessageSize(1 << 20)
        try s.setImmediate(true)
        try s.setReconnectInterval(50)
        try s.setSendHWM(10)
        try s.setReceiveHWM(10)
        #expect(try s.fileDescriptor >= 0)
        #expect(throws: ZMQError.self) { try s.subscribe("not-a-sub-socket") }
    }

    @Test func maxMessageSizeDropsOversizedMessages() throws {
        let ctx = try ZMQContext()
        let endpoint = ipcEndpoint("mms")
        let pull = try ZMQSocket(context: ctx, type: .pull)
        let push = try ZMQSocket(context: ctx, type: .push)
        defer { pull.close(); push.close(); ctx.terminate(); removeIPC(endpoint) }
        try pull.setLinger(0)
        try push.setLinger(0)
        try pull.setMaxMessageSize(100)
        try pull.bind(endpoint)
        try push.connect(endpoint)
        try push.send([[UInt8](repeating: 1, count: 1000)])
        #expect(try receive(pull, timeoutMs: 300) == nil)
    }

    @Test func closedSocketThrowsNotSocket() throws {
        let ctx = try ZMQContext()
        let s = try ZMQSocket(context: ctx, type: .pair)
        s.close()
        s.close()  // idempotent
        #expect(s.isClosed)
        let error = #expect(throws: ZMQError.self) { try s.send([bytes("x")]) }
        #expect(error?.errno == ENOTSOCK)
        #expect(throws: ZMQError.self) { try s.receiveMultipart(dontWait: true) }
        ctx.terminate()
    }

    @Test func closeThenTerminateDoesNotHang() throws {
        let ctx = try ZMQContext()
        let dealer = try ZMQSocket(context: ctx, type: .dealer)
        try dealer.setLinger(0)
        // Peer never appears: the message stays queued.
        try dealer.connect(ipcEndpoint("gone"))
        #expect(try dealer.send([bytes("undeliverable")], dontWait: true))
        dealer.close()
        #expect(finishes(within: patienceSeconds) { ctx.terminate() })
        ctx.terminate()  // idempotent
        #expect(ctx.isTerminated)
        let error = #expect(throws: ZMQError.self) { _ = try ZMQSocket(context: ctx, type: .pub) }
        #expect(error?.isTerminated == true)
    }

    @Test func terminateWakesBlockedReceiverWithETERM() throws {
        let ctx = try ZMQContext()
        let endpoint = ipcEndpoint("term")
        defer { removeIPC(endpoint) }
        let started = DispatchSemaphore(value: 0)
        let result = ErrorBox()
        let receiverDone = DispatchSemaphore(value: 0)
        let receiverID = IntBox()
        Thread {
            receiverID.set(currentThreadID())
            do {
                let s = try ZMQSocket(context: ctx, type: .pull)
                defer { s.close() }
                try s.bind(endpoint)
                started.signal()
                _ = try s.receiveMultipart()
            } catch {
                result.set(error as? ZMQError)
            }
            receiverDone.signal()
        }.start()
        #expect(started.wait(timeout: .now() + patienceSeconds) == .success)
        // Terminate only once the receiver is really blocked in receive (not merely about to call it).
        let tid = try #require(receiverID.get(), "the receiver's thread id is readable from /proc/thread-self")
        #expect(waitUntilAsleep(threadID: tid, timeoutSeconds: patienceSeconds))
        #expect(finishes(within: patienceSeconds) { ctx.terminate() })
        #expect(receiverDone.wait(timeout: .now() + patienceSeconds) == .success)
        #expect(result.get()?.isTerminated == true)
    }
}

/// Thread-safe holder for a number produced on another thread.
final class IntBox: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Int?
    func set(_ v: Int?) { lock.lock(); value = v; lock.unlock() }
    func get() -> Int? { lock.lock(); defer { lock.unlock() }; return value }
}

/// Thread-safe holder for an error produced on another thread.
final class ErrorBox: @unchecked Sendable {
    private let lock = NSLock()
    private var value: ZMQError?
    func set(_ error: ZMQError?) { lock.lock(); value = error; lock.unlock() }
    func get() -> ZMQError? { lock.lock(); defer { lock.unlock() }; return value }
}
