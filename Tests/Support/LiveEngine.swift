import Foundation
import ResponderClient
import ResponderJSON
import ResponderProtocol
import ResponderServer
import Synchronization

/// An in-process engine on its own short ipc directory (parallel tests never share endpoints), for the tests of
/// the client library and the front doors: they talk to it over real libzmq, as they talk to `responderd`.
package final class LiveEngine: Sendable {
    package let engine: Engine
    package let directory: String
    package let name = "t"

    package init(world: JSON? = LiveEngine.world, tickMilliseconds: Int = 200) throws {
        directory = "/tmp/re-" + String(UInt32.random(in: 0 ... .max), radix: 36)
        engine = Engine(
            config: EngineConfig(
                name: name, directory: directory, tickMilliseconds: tickMilliseconds, initialWorld: world))
        try engine.start()
    }

    /// Where it is, from its discovery file.
    package func address() throws(ClientError) -> EngineAddress {
        try EngineAddress.locate(name: name, directory: directory)
    }

    /// A connector for an EngineThread: the engine found by its discovery file.
    package func connector(clientName: String? = "tests", kind: String? = nil, followsEngine: Bool = false)
        -> EngineThread.Connector
    {
        let name = self.name
        let directory = self.directory
        return EngineThread.Connector(
            timeoutSeconds: patienceSeconds, clientName: clientName, kind: kind, followsEngine: followsEngine
        ) {
            () throws(ClientError) in try EngineAddress.locate(name: name, directory: directory)
        }
    }

    package func connect() throws -> ResponderConnection {
        try ResponderConnection(address: address(), timeoutSeconds: patienceSeconds)
    }

    package func stop() {
        engine.stop()
        engine.wait()
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// A key window W whose root view R holds A and a button B.
    package static let world: JSON = [
        "tree": [
            "id": "app", "kind": "application",
            "children": [
                [
                    "id": "W", "kind": "window", "frame": [0, 0, 400, 800], "key": true,
                    "children": [
                        [
                            "id": "R", "kind": "view", "frame": [0, 0, 400, 800],
                            "children": [
                                ["id": "A", "kind": "view", "frame": [0, 0, 300, 300]],
                                ["id": "B", "kind": "control", "class": "UIButton", "frame": [10, 400, 100, 44]]
                            ]
                        ]
                    ]
                ]
            ]
        ]
    ]
}

/// How long a test waits for something that should happen before it fails: only a broken engine takes this
/// long; a busy machine can take seconds.
package let patienceSeconds: Double = 60

/// Waits until `condition` holds, checking every few milliseconds, or fails after `patienceSeconds`.
package func eventually(_ what: String, _ condition: () throws -> Bool) throws {
    let deadline = Date().addingTimeInterval(patienceSeconds)
    while try !condition() {
        guard Date() < deadline else { throw Timeout(what: what) }
        usleep(2_000)
    }
}

package struct Timeout: Error, CustomStringConvertible {
    package let what: String
    package var description: String { "not within \(Int(patienceSeconds)) s: \(what)" }
}

/// A value tests share between threads and tasks.
package final class Shared<Value: Sendable>: Sendable {
    private let value: Mutex<Value>
    package init(_ value: Value) { self.value = Mutex(value) }
    package func get() -> Value { value.withLock { $0 } }
    package func update<T: Sendable>(_ body: @Sendable (inout Value) -> T) -> T { value.withLock { body(&$0) } }
}

extension SessionFollower {
    /// Reads items until a `$sys/tick` comes through: from then on the follower's subscriptions are live at the
    /// engine, so the events of requests made next arrive live rather than only by replay.
    package func untilLive() throws {
        let deadline = Date().addingTimeInterval(patienceSeconds)
        while Date() < deadline {
            if case .system(let e)? = try next(timeoutMs: 1000), e.topic == "$sys/tick" { return }
        }
        throw Timeout(what: "a $sys/tick through the follower")
    }

    /// The next trace event's body, skipping the rest.
    package func nextTrace() throws -> JSON? {
        let deadline = Date().addingTimeInterval(patienceSeconds)
        while Date() < deadline {
            guard let item = try next(timeoutMs: 1000) else { continue }
            if case .event(let e) = item, e.topic.hasSuffix("/trace") { return e.body }
        }
        return nil
    }
}
