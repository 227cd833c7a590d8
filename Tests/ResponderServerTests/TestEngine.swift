import Foundation
import ResponderClient
import ResponderCore
import ResponderProtocol
@testable import ResponderServer

/// An in-process engine on its own short ipc directory, so parallel tests never share endpoints.
final class TestEngine {
    let engine: Engine
    let directory: String
    let name: String

    init(name: String = "t", world: JSON? = nil, replayBuffer: Int = 10_000, limits: Limits = .default, tickMilliseconds: Int = 1000,
         publishHighWaterMark: Int = 100_000) throws {
        directory = "/tmp/re-" + String(UInt32.random(in: 0 ... .max), radix: 36)
        self.name = name
        engine = Engine(config: EngineConfig(name: name, directory: directory, limits: limits, replayBuffer: replayBuffer,
                                             tickMilliseconds: tickMilliseconds, initialWorld: world,
                                             publishHighWaterMark: publishHighWaterMark))
        try engine.start()
    }

    var address: EngineAddress {
        get throws { try EngineAddress.locate(name: name, directory: directory) }
    }

    /// A client; `timeoutSeconds` is generous because a busy machine (other builds, `stress`) slows everything.
    func connect(timeoutSeconds: Double = 60) throws -> ResponderConnection { try ResponderConnection(address: address, timeoutSeconds: timeoutSeconds) }

    func subscribe(_ topics: [String]) throws -> EventSubscriber { try EventSubscriber(address: address, topics: topics) }

    func stop() {
        engine.stop()
        engine.wait()
        try? FileManager.default.removeItem(atPath: directory)
    }
}

/// A small world: key window W with RVC whose root view R holds A and a button B.
enum Fixtures {
    static let world: JSON = ["tree": [
        "id": "app", "kind": "application",
        "children": [
            ["id": "AD", "kind": "appDelegate"],
            ["id": "W", "kind": "window", "frame": [0, 0, 400, 800], "key": true, "children": [
                ["id": "RVC", "kind": "viewController", "children": [
                    ["id": "R", "kind": "view", "frame": [0, 0, 400, 800], "children": [
                        ["id": "A", "kind": "view", "frame": [0, 0, 300, 300]],
                        ["id": "B", "kind": "control", "class": "UIButton", "frame": [10, 400, 100, 44]],
                    ]],
                ]],
            ]],
        ],
    ]]
}

extension ClientError {
    var rpcName: ErrorName? {
        if case .rpc(let e) = self { return e.name }
        return nil
    }
    var rpcError: RPCError? {
        if case .rpc(let e) = self { return e }
        return nil
    }
}
