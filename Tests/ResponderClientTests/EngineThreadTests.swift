import Foundation
import ResponderClient
import ResponderProtocol
import ResponderTestSupport
import Synchronization
import Testing

/// EngineThread against a real engine: the connection lives on one thread, jobs queued together run in order, the name is the
/// connection's in what it causes, and a stopped thread fails what it was left.
@Suite struct EngineThreadTests {
    @Test func jobsFromManyTasksAllRunOnTheThreadThatOwnsTheConnection() async throws {
        let t = try LiveEngine()
        defer { t.stop() }
        let thread = try EngineThread(name: "owner-thread", connector: t.connector())
        defer { thread.stopAndWait() }

        // Each job records the thread it ran on and its turn; tasks queue them from the cooperative pool.
        let order = Shared<[Int]>([])
        let threads = Shared<Set<UInt>>([])
        try await withThrowingTaskGroup(of: Void.self) { group in
            for i in 0..<20 {
                group.addTask {
                    try await thread.perform { connection throws(ClientError) in
                        order.update { $0.append(i) }
                        let info = try connection.call("engine.info")
                        #expect(info["name"] == .string(t.name))
                        let current = UInt(pthread_self())
                        threads.update { _ = $0.insert(current) }
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(order.get().sorted() == Array(0..<20))
        #expect(threads.get().count == 1, "every job ran on the one thread that owns the connection")
    }

    @Test func aBlockingCallerAndSubmittedJobsShareTheOneQueue() throws {
        let t = try LiveEngine()
        defer { t.stop() }
        let thread = try EngineThread(name: "queue", connector: t.connector())
        defer { thread.stopAndWait() }
        let seen = Shared<[String]>([])
        for id in ["A", "B"] {
            thread.submit { connection in
                let kind = (try? connection.get().call("tree.get", ["id": .string(id)]))?["tree"]?["kind"]?.stringValue
                seen.update { $0.append("\(id):\(kind ?? "error")") }
            }
        }
        // Queued after the two submissions, so it runs after them.
        let revision = try thread.performAndWait { connection throws(ClientError) in
            try connection.call("tree.get")["revision"]?.intValue
        }
        #expect(revision != nil)
        #expect(seen.get() == ["A:view", "B:control"])
    }

    @Test func theConnectionIsNamedByItsHelloAndRenamedForWhatItCausesNext() async throws {
        let t = try LiveEngine()
        defer { t.stop() }
        let thread = try EngineThread(name: "named", connector: t.connector(clientName: "first-name", kind: "tests"))
        defer { thread.stopAndWait() }
        let watcher = try t.connect()
        let follower = try SessionFollower(connection: watcher, session: "default")
        try follower.untilLive()

        _ = try await thread.perform { connection throws(ClientError) in
            try connection.call("event.tap", ["point": [50, 420]])
        }
        #expect(try follower.nextTrace()?["cause"]?["client"] == "first-name")

        await thread.rename("second-name")
        _ = try await thread.perform { connection throws(ClientError) in
            try connection.call("event.tap", ["point": [50, 420]])
        }
        #expect(try follower.nextTrace()?["cause"]?["client"] == "second-name")
    }

    @Test func aConnectorThatFollowsTheEngineConnectsAnewWhenItMoves() async throws {
        let first = try LiveEngine()
        defer { first.stop() }
        let second = try LiveEngine()
        defer { second.stop() }
        let current = Shared(first)
        let connector = EngineThread.Connector(
            timeoutSeconds: patienceSeconds, clientName: "tests", kind: nil, followsEngine: true
        ) {
            () throws(ClientError) in try current.get().address()
        }
        let thread = try EngineThread(name: "follows", connector: connector)
        defer { thread.stopAndWait() }
        let endpoint = { @Sendable () async throws -> String in
            try await thread.perform { connection throws(ClientError) in
                _ = try connection.call("engine.info")
                return connection.address.rpc
            }
        }
        #expect(try await endpoint() == first.address().rpc)
        current.update { $0 = second }
        #expect(try await endpoint() == second.address().rpc)
    }

    @Test func anEngineThatCannotBeFoundIsTheJobsErrorAndTheThreadGoesOn() async throws {
        let directory = "/tmp/re-none-" + String(UInt32.random(in: 0 ... .max), radix: 36)
        let connector = EngineThread.Connector(timeoutSeconds: 5, clientName: "tests", kind: nil, followsEngine: true) {
            () throws(ClientError) in
            try EngineAddress.locate(name: "absent", directory: directory)
        }
        let thread = try EngineThread(name: "absent", connector: connector)
        defer { thread.stopAndWait() }
        for _ in 0..<2 {
            await #expect(throws: ClientError.self) {
                try await thread.perform { connection throws(ClientError) in try connection.call("engine.info") }
            }
        }
    }

    @Test func aStoppedThreadFailsTheJobsItWasLeftAndAnyAfter() async throws {
        let t = try LiveEngine()
        defer { t.stop() }
        // A body that never runs jobs: whatever is queued is left when it stops.
        let started = Shared(false)
        let thread = try EngineThread(name: "stopping", connector: t.connector()) { context in
            started.update { $0 = true }
            while !context.isStopping { context.wait(seconds: 0.05) }
        }
        try eventually("the body started") { started.get() }
        let outcome = Shared<String?>(nil)
        thread.submit { result in
            let said = (try? result.get()) == nil ? "failed" : "connected"
            outcome.update { $0 = said }
        }
        thread.stopAndWait()
        #expect(outcome.get() == "failed")
        await #expect(throws: ClientError.self) {
            try await thread.perform { connection throws(ClientError) in try connection.call("engine.info") }
        }
    }
}
