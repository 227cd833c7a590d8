import Foundation
import ResponderClient
import ResponderJSON
import ResponderProtocol
import ResponderServer

/// The engine the binaries talk to: in this process, on its own short ipc directory and name, so that tests
/// running in parallel never share endpoints. (ResponderServerTests has a richer `TestEngine` for the engine's
/// own tests; the binaries need only an engine to find.)
final class TestEngine {
    let engine: Engine
    let directory: String
    let name: String

    init(name: String, world: JSON) throws {
        directory = "/tmp/re-" + String(UInt32.random(in: 0 ... .max), radix: 36)
        self.name = name
        engine = Engine(config: EngineConfig(name: name, directory: directory, initialWorld: world))
        try engine.start()
    }

    func connect() throws -> ResponderConnection {
        try ResponderConnection(
            address: try EngineAddress.locate(name: name, directory: directory), timeoutSeconds: patienceSeconds)
    }

    func stop() {
        engine.stop()
        engine.wait()
        try? FileManager.default.removeItem(atPath: directory)
    }
}

/// How long a test waits for something that should happen (a reply, a line of output, a process to exit)
/// before it fails. Only a broken binary takes this long; a busy machine can take seconds.
let patienceSeconds: Double = 60

/// A small world: key window W with RVC whose root view R holds A and a button B (as ResponderServerTests'
/// `Fixtures.world`, whose output the CLI tests check line by line).
enum Fixtures {
    static let world: JSON = [
        "tree": [
            "id": "app", "kind": "application",
            "children": [
                ["id": "AD", "kind": "appDelegate"],
                [
                    "id": "W", "kind": "window", "frame": [0, 0, 400, 800], "key": true,
                    "children": [
                        [
                            "id": "RVC", "kind": "viewController",
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
        ]
    ]
}
