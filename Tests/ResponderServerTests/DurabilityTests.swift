import Foundation
import ResponderCore
import ResponderProtocol
@testable import ResponderServer
import Testing

/// The state store on its own (the engine's restarts are tested against the real binary in
/// Tests/python/test_durability.py and test_kill9.py).
@Suite struct DurabilityTests {
    static func world() throws -> World {
        let text = try String(contentsOfFile: #filePath.replacingOccurrences(of: "Tests/ResponderServerTests/DurabilityTests.swift", with: "Protocol/examples/demo-world.json"), encoding: .utf8)
        let file = try WireDecoder.decode(WorldFile.self, from: try JSONCodec.decode(text))
        var world = World()
        try world.load(tree: file.tree, detached: file.detached ?? [])
        return world
    }

    static func op(_ json: JSON) throws -> GuardedOp { try GuardedOp(wire: json, index: 0) }

    @Test func aSnapshotReadsBackAsTheSameWorldNodeRevisionsIncluded() throws {
        var world = try Self.world()
        _ = try world.apply([try Self.op(["op": "update", "id": "title", "set": ["alpha": 0.5]])])
        _ = try world.apply([try Self.op(["op": "insert", "parent": .null, "node": ["id": "loose", "kind": "view", "frame": [0, 0, 1, 1],
                                                                   "children": [["id": "inner", "kind": "textField", "frame": [0, 0, 1, 1]]]]])])
        _ = try world.apply([try Self.op(["op": "move", "id": "button", "parent": "header", "index": 0])])
        let (tree, detached) = WorldSnapshot.encode(world)
        let back = try WorldSnapshot.decode(tree: tree, detached: detached, revision: world.revision)
        // As a client sees it (K1: whether userInteractionEnabled was set or is the class default is not
        // kept; the effective value is, README "Durability").
        #expect(back.encoded() == world.encoded() && back.encodedDetached() == world.encodedDetached())
        #expect(back["card"]?.revision == 2 && back["title"]?.revision == 3 && back["button"]?.revision == 5 && back.revision == 5)
        #expect(back.recognizer("cardHold")?.view == "card")
    }

    @Test func aLoggedBatchReplaysToTheSameWorld() throws {
        var world = try Self.world()
        var replayed = world
        let ops = [try Self.op(["op": "update", "id": "card", "set": ["hidden": true]]),
                   try Self.op(["op": "remove", "id": "title"])]
        _ = try world.apply(ops)
        _ = try replayed.apply(try WorldSnapshot.ops(WorldSnapshot.encode(ops: ops)))
        #expect(replayed == world)
    }

    @Test func theStoreKeepsSessionsAcrossOpeningsAndFoldsItsLogIntoSnapshots() throws {
        let dir = "/tmp/re-" + String(UInt32.random(in: 0 ... .max), radix: 36)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var store = try StateStore(directory: dir, durability: .normal)
        let host = SessionHost(name: "s", state: SessionState(world: try Self.world()), replayBuffer: 10)
        try store.saveSnapshot(host)
        try store.commit()
        var batches = 0
        for i in 0..<400 {
            let ops = [try Self.op(["op": "update", "id": "title", "set": ["annotations": ["n": .string(String(repeating: "x", count: 1000) + "\(i)")]]])]
            let change = try host.state.apply(ops, ifRevision: nil, limits: .default)
            try store.save(host, records: [.apply(revision: change.batch.revision, ops: WorldSnapshot.encode(ops: ops))])
            try store.commit()
            batches = try store.batches("s", after: 0).count
        }
        // The log never outgrows the snapshot by much: it was folded into a newer one along the way.
        #expect(batches < 400)
        store.close()
        store = try StateStore(directory: dir, durability: .normal)
        defer { store.close() }
        let restored = try store.restore(replayBuffer: 10, recover: false)
        #expect(restored.dropped.isEmpty)
        #expect(restored.hosts.map(\.name) == ["s"])
        #expect(restored.hosts[0].state.world.encoded() == host.state.world.encoded())
        #expect(restored.hosts[0].revision == host.revision && host.revision == 402)
    }

    /// The progress row's text is written by hand after every dispatch, the profile's text kept from the first:
    /// it must read back as what it was written from, and be what the Codable encoding writes.
    @Test func progressWrittenByHandIsTheCodableText() throws {
        var world = try Self.world()
        _ = try world.apply([try Self.op(["op": "insert", "parent": "app", "node": ["id": "second", "kind": "window", "frame": [0, 0, 100, 100],
                                                                                 "children": [["id": "field2", "kind": "textField", "frame": [0, 0, 50, 20]]]]])])
        var profile = Profile.uikit
        profile.controlSlop = 12.5
        profile.alphaBoundary = .exclusive
        let plain = SessionHost(name: "plain", state: SessionState(world: try Self.world()), replayBuffer: 10)
        let busy = SessionHost(name: "busy", state: SessionState(world: world, profile: profile), replayBuffer: 10)
        _ = try busy.state.become("textField")
        _ = try busy.state.become("field2")
        _ = try busy.state.advanceClock(to: 0.1 + 0.2, by: nil)
        _ = try busy.state.tap(at: Point(5, 5), client: "c")
        busy.worldBeforeFirstEvent = true
        busy.ownerToken = "tok\u{1}en"
        #expect(busy.state.durableParts.firstResponders.count == 2)
        let one = SessionHost(name: "one", state: SessionState(world: try Self.world()), replayBuffer: 10)
        _ = try one.state.become("textField")
        for host in [plain, one, busy] {
            let codable = WireEncoder.encodeBytes(SavedSessionState(host))
            let byHand = SavedSessionState.text(host, profile: WireEncoder.encodeBytes(host.state.profile))
            let read = try WireDecoder.decode(SavedSessionState.self, from: try JSONCodec.decode(byHand))
            #expect(read.profile == host.state.profile && read.parts == host.state.durableParts)
            #expect(read.worldBeforeFirstEvent == host.worldBeforeFirstEvent && read.owner == host.ownerToken)
            // Byte for byte where the encoder's order is known: it writes a dictionary in its hash order.
            if host.state.durableParts.firstResponders.count <= 1 {
                #expect(byHand == codable, "\(String(decoding: byHand, as: UTF8.self))\n!= \(String(decoding: codable, as: UTF8.self))")
            }
        }
    }

    @Test func aSecondStoreOnTheSameDirectoryIsRefused() throws {
        let dir = "/tmp/re-" + String(UInt32.random(in: 0 ... .max), radix: 36)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let first = try StateStore(directory: dir, durability: .full)
        defer { first.close() }
        #expect(throws: EngineError.self) { _ = try StateStore(directory: dir, durability: .normal) }
        #expect(StateDirectory.defaultPath(name: "x", environment: ["XDG_STATE_HOME": "/s", "HOME": "/h"]) == "/s/responder/x")
        #expect(StateDirectory.defaultPath(name: "x", environment: ["XDG_STATE_HOME": "relative", "HOME": "/h"]) == "/h/.local/state/responder/x")
    }
}
