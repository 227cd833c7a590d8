import Foundation
import ResponderClient
import ResponderCore
import ResponderJSON
import ResponderProtocol
import ResponderTestBasics
import Testing

@testable import ResponderServer

/// The engine end to end over real ipc sockets (libzmq), in process.
@Suite struct EngineTests {
    @Test func answersInfoAndWritesAPrivateDiscoveryFile() throws {
        let t = try TestEngine(world: Fixtures.world)
        defer { t.stop() }
        let c = try t.connect()
        let info = try c.call("engine.info")
        #expect(info["name"] == .string(t.name))
        #expect(info["protocol"] == 1)
        let attributes = try FileManager.default.attributesOfItem(atPath: t.engine.discoveryPath)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let dir = try FileManager.default.attributesOfItem(atPath: t.directory)
        #expect((dir[.posixPermissions] as? NSNumber)?.intValue == 0o700)
    }

    @Test func removesTheDiscoveryFileOnStop() throws {
        let t = try TestEngine()
        defer { t.stop() }  // again: removes the test's directory (the engine may leave its lock file)
        let path = t.engine.discoveryPath
        #expect(FileManager.default.fileExists(atPath: path))
        t.engine.stop()
        t.engine.wait()
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test func refusesASecondEngineWithTheSameName() throws {
        let t = try TestEngine()
        defer { t.stop() }
        let second = Engine(config: EngineConfig(name: t.name, directory: t.directory))
        #expect { try second.start() } throws: { error in
            if case EngineError.alreadyRunning = error { return true }
            return false
        }
        // The first still answers.
        #expect(try t.connect().call("engine.info")["name"] == .string(t.name))
    }

    @Test func takesOverWhatACrashedEngineLeftBehind() throws {
        let dir = "/tmp/re-" + String(UInt32.random(in: 0 ... .max), radix: 36)
        try RuntimeDirectory.prepare(dir)
        // A dead engine's leftovers: a stale discovery file naming a gone pid, a socket file, an unlocked lock file.
        try #"{"name":"x","pid":999999,"rpc":"ipc:///nowhere","events":"ipc:///nowhere"}"#.write(
            toFile: "\(dir)/x.json", atomically: true, encoding: .utf8)
        _ = FileManager.default.createFile(atPath: "\(dir)/x.rpc", contents: Data())
        _ = FileManager.default.createFile(atPath: "\(dir)/x.lock", contents: Data("999999\n".utf8))
        let engine = Engine(config: EngineConfig(name: "x", directory: dir))
        try engine.start()
        defer { engine.stop(); engine.wait(); try? FileManager.default.removeItem(atPath: dir) }
        let c = try ResponderConnection(address: try EngineAddress.locate(name: "x", directory: dir))
        #expect(try c.call("engine.info")["pid"] == JSON(Int(getpid())))
    }

    @Test func appliesBatchesAtomicallyAndPublishesOneTreeEventEach() throws {
        let t = try TestEngine(world: Fixtures.world)
        defer { t.stop() }
        let c = try t.connect()
        let sub = try t.subscribe(["default/"])
        let before = try c.call("tree.get")
        do {
            _ = try c.call(
                "tree.apply",
                [
                    "ops": [
                        ["op": "update", "id": "A", "set": ["hidden": true]],
                        ["op": "move", "id": "R", "parent": "A"]
                    ]
                ])
            Issue.record("expected CYCLE")
        } catch {
            #expect(error.rpcName == .cycle)
            #expect(error.rpcError?.detail("opIndex") == 1)
        }
        #expect(try c.call("tree.get") == before)
        let reply = try c.call("tree.apply", ["ops": [["op": "update", "id": "A", "set": ["hidden": true]]]])
        #expect(reply["revision"] == JSON((before["revision"]?.intValue ?? 0) + 1))
        let event = try #require(try sub.nextSessionEvent())
        #expect(event.topic == "default/tree")
        #expect(event.seq == reply["seq"]?.intValue)
        #expect(event.body["ops"]?.arrayValue?.count == 1)
        #expect(reply["seqRange"] == [JSON(event.seq!), JSON(event.seq!)])
    }

    @Test func twoClientsSeeEachOthersChangesWithCause() throws {
        let t = try TestEngine(world: Fixtures.world)
        defer { t.stop() }
        let alice = try t.connect()
        let bob = try t.connect()
        _ = try alice.call("client.hello", ["name": "alice", "kind": "cli"])
        _ = try bob.call("client.hello", ["name": "bob", "kind": "editor"])
        let aliceSees = try t.subscribe(["default/tree"])
        let bobSees = try t.subscribe(["default/tree"])
        _ = try alice.call(
            "tree.apply", ["ops": [["op": "insert", "parent": "R", "node": ["id": "fromAlice", "kind": "view"]]]])
        _ = try bob.call("tree.apply", ["ops": [["op": "remove", "id": "fromAlice"]]])
        for sub in [aliceSees, bobSees] {
            // The next two session events: a $sys/tick may come before or between them.
            let first = try #require(try sub.nextSessionEvent())
            let second = try #require(try sub.nextSessionEvent())
            #expect(first.topic == "default/tree" && second.topic == "default/tree")
            #expect(first.body["cause"]?["client"] == "alice")
            #expect(second.body["cause"]?["client"] == "bob")
            #expect(second.seq == first.seq.map { $0 + 1 })
        }
        let clients = try alice.call("session.clients")["clients"]?.arrayValue?.compactMap { $0["name"]?.stringValue }
        #expect(Set(clients ?? []) == ["alice", "bob"])
    }

    @Test func sessionsAreCreatedListedSnapshottedAndDeleted() throws {
        let t = try TestEngine()
        defer { t.stop() }
        let c = try t.connect()
        _ = try c.call("session.create", ["session": "s-1", "tree": Fixtures.world["tree"]!])
        do { _ = try c.call("session.create", ["session": "s-1"]); Issue.record("expected SESSION_EXISTS") } catch {
            #expect(error.rpcName == .sessionExists)
        }
        do { _ = try c.call("session.create", ["session": "bad name"]); Issue.record("expected INVALID_PARAMS") } catch
        {
            #expect(error.rpcName == .invalidParams)
        }
        let names = try c.call("session.list")["sessions"]?.arrayValue?.compactMap { $0["session"]?.stringValue }
        #expect(names == ["default", "s-1"])
        let snapshot = try c.call("session.snapshot", ["session": "s-1"])
        #expect(snapshot["tree"]?["children"]?.arrayValue?.count == 2)
        #expect(snapshot["seq"] == 1)
        _ = try c.call("session.delete", ["session": "s-1"])
        do { _ = try c.call("tree.get", ["session": "s-1"]); Issue.record("expected SESSION_NOT_FOUND") } catch {
            #expect(error.rpcName == .sessionNotFound)
        }
    }

    @Test func aNotificationGetsNoReplyAndBadInputGetsAnError() throws {
        let t = try TestEngine()
        defer { t.stop() }
        let c = try t.connect()
        try c.notify("tree.apply", ["ops": [["op": "insert", "parent": "app", "node": ["id": "W", "kind": "window"]]]])
        // The next reply is the one to this request, and the notification's effect is visible.
        let tree = try c.call("tree.get", ["id": "W"])
        #expect(tree["tree"]?["kind"] == "window")
        do { _ = try c.call("no.such.method"); Issue.record("expected METHOD_NOT_FOUND") } catch {
            #expect(error.rpcName == .methodNotFound)
        }
        do { _ = try c.call("tree.get", ["idd": "W"]); Issue.record("expected INVALID_PARAMS") } catch {
            #expect(error.rpcError?.detail("field") == "idd")
        }
    }

    @Test func replaysRecentEventsAndSaysWhenTheyExpired() throws {
        let t = try TestEngine(world: Fixtures.world, replayBuffer: 5)
        defer { t.stop() }
        let c = try t.connect()
        for i in 0..<8 {
            _ = try c.call("tree.apply", ["ops": [["op": "update", "id": "A", "set": ["alpha": JSON(Double(i) / 10)]]]])
        }
        let replay = try c.call("trace.replay", ["after": 5])
        #expect(replay["events"]?.arrayValue?.compactMap { $0["event"]?["seq"]?.intValue } == [6, 7, 8])
        do { _ = try c.call("trace.replay", ["after": 1]); Issue.record("expected REPLAY_EXPIRED") } catch {
            #expect(error.rpcName == .replayExpired)
            #expect(error.rpcError?.detail("oldest") == 4)
        }
    }

    @Test(.tags(.slow)) func slowAHundredThousandDeepTreeLoadsAndSerializes() throws {
        let t = try TestEngine()
        defer { t.stop() }
        // Loading, serializing and walking 100,000 levels takes a debug engine about 20 s on an idle 2-core
        // machine and well over a minute under load: these requests get ten times the usual patience.
        let heavyMs = 10 * patienceMs
        let c = try ResponderConnection(address: try t.address, timeoutSeconds: Double(heavyMs) / 1000)
        let depth = 100_000
        // Built as text so the test itself holds no deeply nested value.
        var text =
            #"{"id":"app","kind":"application","children":[{"id":"W","kind":"window","frame":[0,0,100,100],"children":["#
        for i in 0..<depth { text += #"{"id":"v\#(i)","kind":"view","frame":[0,0,100,100],"children":["# }
        text += String(repeating: "]}", count: depth) + "]}]}"
        let raw = try RawRequest.send(
            address: t.address, body: #"{"jsonrpc":"2.0","id":1,"method":"tree.load","params":{"tree":"# + text + "}}",
            timeoutMs: heavyMs)
        #expect(raw.contains("\"revision\""), "\(raw.prefix(300))")
        let list = try c.call("session.list")["sessions"]?.arrayValue?.first
        #expect(list?["nodes"] == JSON(depth + 2))
        let reply = try RawRequest.send(
            address: t.address, body: #"{"jsonrpc":"2.0","id":2,"method":"tree.get","params":{"id":"v99990"}}"#,
            timeoutMs: heavyMs)
        #expect(reply.contains("\"v99999\""))
        // Hit-testing and the responder chain walk the whole depth without recursion (H2, N1).
        let hit = try c.call("hitTest", ["point": [1, 1]])
        #expect(hit["view"] == "v99999")
        #expect(hit["visited"]?.arrayValue?.count == depth + 1)
        let chain = try c.call("responderChain", ["id": "v99999"])["chain"]?.arrayValue
        #expect(chain?.count == depth + 2)
        #expect(chain?.last == "app")
    }

    @Test func everyReplyArrivesWhenAClientPipelinesThousandsOfRequests() throws {
        let t = try TestEngine(world: Fixtures.world)
        defer { t.stop() }
        let dealer = try RawDealer(address: try t.address, receiveTimeoutMs: patienceMs)
        let count = 5_000  // well past libzmq's default high-water mark of 1,000
        for i in 0..<count {
            let body =
                #"{"jsonrpc":"2.0","id":\#(i),"method":"tree.apply","params":{"ops":[{"op":"update","id":"A","set":{"alpha":0.5}}]}}"#
            try dealer.send(body)
        }
        var ids: [Int] = []
        while ids.count < count, let last = try dealer.receive() {
            ids.append(try JSONCodec.decode(last)["id"]?.intValue ?? -1)
        }
        #expect(ids == Array(0..<count))
    }
}
