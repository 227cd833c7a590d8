import Foundation
import ResponderCore
import ResponderJSON
import ResponderProtocol
import Testing

@testable import ResponderServer

/// The state store on its own (the engine's restarts are tested against the real binary in
/// Tests/python/test_durability.py and test_kill9.py).
@Suite struct DurabilityTests {
    static func world() throws -> World {
        let text = try String(
            contentsOfFile: #filePath.replacingOccurrences(
                of: "Tests/ResponderServerTests/DurabilityTests.swift", with: "Protocol/examples/demo-world.json"),
            encoding: .utf8)
        let file = try WireDecoder.decode(WorldFile.self, from: try JSONCodec.decode(text))
        var world = World()
        try world.load(tree: file.tree, detached: file.detached ?? [])
        return world
    }

    static func op(_ json: JSON) throws -> GuardedOp { try GuardedOp(wire: json, index: 0) }

    @Test func aSnapshotReadsBackAsTheSameWorldNodeRevisionsIncluded() throws {
        var world = try Self.world()
        _ = try world.apply([try Self.op(["op": "update", "id": "title", "set": ["alpha": 0.5]])])
        _ = try world.apply([
            try Self.op([
                "op": "insert", "parent": .null,
                "node": [
                    "id": "loose", "kind": "view", "frame": [0, 0, 1, 1],
                    "children": [["id": "inner", "kind": "textField", "frame": [0, 0, 1, 1]]]
                ]
            ])
        ])
        _ = try world.apply([try Self.op(["op": "move", "id": "button", "parent": "header", "index": 0])])
        let (tree, detached) = WorldSnapshot.encode(world)
        let back = try WorldSnapshot.decode(tree: tree, detached: detached, revision: world.revision)
        // As a client sees it (K1: whether userInteractionEnabled was set or is the class default is not
        // promised through logged batches; the effective value is, README "Durability").
        #expect(back.encoded() == world.encoded() && back.encodedDetached() == world.encodedDetached())
        #expect(
            back["card"]?.revision == 2 && back["title"]?.revision == 3 && back["button"]?.revision == 5
                && back.revision == 5)
        #expect(back.recognizer("cardHold")?.view == "card")
    }

    @Test func aLoggedBatchReplaysToTheSameWorld() throws {
        var world = try Self.world()
        var replayed = world
        let ops = [
            try Self.op(["op": "update", "id": "card", "set": ["hidden": true]]),
            try Self.op(["op": "remove", "id": "title"])
        ]
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
            let ops = [
                try Self.op([
                    "op": "update", "id": "title",
                    "set": ["annotations": ["n": .string(String(repeating: "x", count: 1000) + "\(i)")]]
                ])
            ]
            let change = try host.state.apply(ops, ifRevision: nil, limits: .default)
            try store.save(
                host, records: [.apply(revision: change.batch.revision, ops: WorldSnapshot.encode(ops: ops))])
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
        _ = try world.apply([
            try Self.op([
                "op": "insert", "parent": "app",
                "node": [
                    "id": "second", "kind": "window", "frame": [0, 0, 100, 100],
                    "children": [["id": "field2", "kind": "textField", "frame": [0, 0, 50, 20]]]
                ]
            ])
        ])
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
                #expect(
                    byHand == codable,
                    "\(String(decoding: byHand, as: UTF8.self))\n!= \(String(decoding: codable, as: UTF8.self))")
            }
        }
    }

    @Test func aSecondStoreOnTheSameDirectoryIsRefused() throws {
        let dir = "/tmp/re-" + String(UInt32.random(in: 0 ... .max), radix: 36)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let first = try StateStore(directory: dir, durability: .full)
        defer { first.close() }
        #expect(throws: EngineError.self) { _ = try StateStore(directory: dir, durability: .normal) }
        #expect(
            StateDirectory.defaultPath(name: "x", environment: ["XDG_STATE_HOME": "/s", "HOME": "/h"])
                == "/s/responder/x")
        #expect(
            StateDirectory.defaultPath(name: "x", environment: ["XDG_STATE_HOME": "relative", "HOME": "/h"])
                == "/h/.local/state/responder/x")
    }
}

/// A snapshot keeps each node's id, kind, revision and only the members reading it back needs
/// (`World.encodedChanges`): every member of every kind and UIKit class must come back as it was written.
@Suite struct CompactSnapshotTests {
    /// The values each field takes in the example worlds (as `tree.get` writes them), and both booleans.
    static func candidateValues() throws -> [String: [JSON]] {
        var values: [String: [JSON]] = [:]
        func note(_ name: String, _ v: JSON) {
            if !(values[name]?.contains(v) ?? false) { values[name, default: []].append(v) }
        }
        for name in ["demo-world.json", "p13-world.json"] {
            let text = try String(
                contentsOfFile: #filePath.replacingOccurrences(
                    of: "Tests/ResponderServerTests/DurabilityTests.swift", with: "Protocol/examples/\(name)"),
                encoding: .utf8)
            let file = try WireDecoder.decode(WorldFile.self, from: try JSONCodec.decode(text))
            var world = World()
            try world.load(tree: file.tree, detached: file.detached ?? [])
            var stack = [try JSONCodec.decode(world.encoded())]
            while let node = stack.popLast() {
                for (key, value) in node.objectMembers ?? [] {
                    if key == "children" {
                        stack.append(contentsOf: value.arrayValue ?? [])
                    } else if !NodeField.isStructural(key) {
                        note(key, value)
                    }
                }
            }
        }
        for field in NodeField.all where values[field.name]?.contains(where: { $0.boolValue != nil }) ?? false {
            note(field.name, true)
            note(field.name, false)
        }
        return values
    }

    /// One node of `kind` and `className` with `field` set to `value`, as a document; nil where that node is refused.
    static func node(_ id: String, _ kind: NodeKind, _ className: String, _ member: (String, JSON)?) -> JSON? {
        var members: [(key: String, value: JSON)] = [
            ("id", .string(id)), ("kind", .string(kind.rawValue)), ("class", .string(className))
        ]
        if kind.isView { members.append(("frame", [0, 0, 10, 10])) }
        if var member {
            // Recognizer ids are unique in a session, and the ones they name must exist: each node gets its own.
            if member.0 == "gestureRecognizers", let list = member.1.arrayValue {
                member.1 = .array(
                    list.enumerated().map { k, r in
                        var r = r.setting("id", .string("\(id)-g\(k)"))
                        for name in ["requireToFail", "simultaneousWith"] where r[name] != nil {
                            r = r.setting(name, [])
                        }
                        return r
                    })
            }
            members.append(member)
        }
        // A view controller holds exactly its root view (8.3).
        if kind == .viewController {
            members.append(("children", [["id": .string(id + "root"), "kind": "view", "frame": [0, 0, 10, 10]]]))
        }
        let document = JSON.object(members)
        guard (try? NodeTree(document: document, path: "tree")) != nil else { return nil }
        return document
    }

    /// A window for each node (a view, a control, a text input or a view controller), each node of each class its
    /// kind may have, with each field set to each value it takes somewhere.
    static func everyMember() throws -> (World, Int) {
        let values = try candidateValues()
        var windows: [JSON] = []
        var count = 0
        for kind in [NodeKind.viewController, .view, .control, .textField, .textView] {
            let classes =
                UIKitClass.allCases.filter { $0.kind == kind }.map(\.rawValue) + [
                    "MyCustom\(kind.rawValue.capitalized)"
                ]
            for className in classes {
                var members: [(String, JSON)?] = [nil]
                for field in NodeField.all(for: kind) where field.name != "class" && field.name != "frame" {
                    for v in values[field.name] ?? [] { members.append((field.name, v)) }
                }
                for member in members {
                    count += 1
                    guard let node = node("n\(count)", kind, className, member) else { continue }
                    windows.append([
                        "id": .string("w\(count)"), "kind": "window", "frame": [0, 0, 100, 100], "children": [node]
                    ])
                }
            }
        }
        let tree = try NodeTree(
            document: ["id": "app", "kind": "application", "children": .array(windows)], path: "tree")
        var world = World()
        try world.load(tree: tree, detached: [])
        return (world, windows.count)
    }

    /// The nodes whose members differ between two worlds' texts, with the members (for a readable failure).
    static func differences(_ a: World, _ b: World) throws -> [String] {
        func nodes(_ w: World) throws -> [String: [(key: String, value: JSON)]] {
            var out: [String: [(key: String, value: JSON)]] = [:]
            var stack = [try JSONCodec.decode(w.encoded())]
            while let n = stack.popLast() {
                stack.append(contentsOf: n["children"]?.arrayValue ?? [])
                out[n["id"]?.stringValue ?? "?"] = (n.objectMembers ?? []).filter { $0.key != "children" }
            }
            return out
        }
        let x = try nodes(a), y = try nodes(b)
        var found: [String] = []
        for (id, members) in x.sorted(by: { $0.key < $1.key }) {
            guard let other = y[id] else { found.append("\(id): missing"); continue }
            for (key, value) in members where other.first(where: { $0.key == key })?.value != value {
                found.append(
                    "\(id).\(key): \(JSONCodec.encodeString(value)) → \(other.first(where: { $0.key == key }).map { JSONCodec.encodeString($0.value) } ?? "absent")"
                )
            }
        }
        return found
    }

    @Test func everyMemberOfEveryKindAndClassComesBack() throws {
        var (world, nodes) = try Self.everyMember()
        #expect(nodes > 500, "\(nodes) nodes: the candidate values did not reach most fields")
        // Revisions other than the world's, as batches leave them.
        let ids =
            (try JSONCodec.decode(world.encoded()))["children"]?.arrayValue?.prefix(40).compactMap {
                $0["children"]?[0]?["id"]?.stringValue
            } ?? []
        for id in ids {
            _ = try world.apply([
                try DurabilityTests.op(["op": "update", "id": .string(id), "set": ["canResignFirstResponder": false]])
            ])
        }
        let (tree, detached) = WorldSnapshot.encode(world)
        #expect(
            PlainTree.readSnapshot(tree, path: "tree") != nil, "the plain reader left the snapshot to the general one")
        let back = try WorldSnapshot.decode(tree: tree, detached: detached, revision: world.revision)
        let changed = try Self.differences(world, back)
        #expect(changed.isEmpty, "\(changed.count) members differ: \(changed.prefix(12).joined(separator: "; "))")
        // Stored as it was, not only written alike: a field set to its default stays set (K1, 8.6).
        var every: [String] = []
        var stack = [try JSONCodec.decode(world.encoded())]
        while let n = stack.popLast() {
            stack.append(contentsOf: n["children"]?.arrayValue ?? [])
            every.append(n["id"]?.stringValue ?? "?")
        }
        let unequal = every.filter { back[$0] == nil || back[$0] != world[$0] }
        #expect(unequal.isEmpty, "\(unequal.count) nodes stored otherwise: \(unequal.prefix(10))")
        // The same text read as documents (the general reader) comes back the same too.
        let general = try WorldSnapshot.decodeAsDocuments(tree: tree, detached: detached, revision: world.revision)
        #expect(general.encoded() == back.encoded())
        // Streamed into the table as it is read, not left to the entry-list reader: the same world, node for node.
        let streamed = try #require(try Self.streamed(tree, detached, world.revision))
        #expect(streamed == general)
        let listed = try #require(PlainTree.readSnapshot(tree, path: "tree"))
        let fromList = try World.restored(
            tree: listed.tree, treeRevisions: listed.revisions, detached: Self.subtrees(detached),
            nodeRevisions: [:], revision: world.revision, limits: WorldSnapshot.unbounded)
        #expect(streamed == fromList)
        #expect(
            tree.count * 2 < world.encoded().count,
            "the snapshot (\(tree.count) B) is not much shorter than the world's text (\(world.encoded().count) B)")
    }

    static func subtrees(_ detached: [UInt8]) throws -> [NodeTree] {
        try (JSONCodec.decode(detached).arrayValue ?? []).enumerated().map { i, d in
            try NodeTree(document: d, path: "detached[\(i)]")
        }
    }

    /// The snapshot streamed into a world (`World.restored(snapshot:)`); nil where that leaves it to the others.
    static func streamed(_ tree: [UInt8], _ detached: [UInt8], _ revision: Int) throws -> World? {
        World.restored(
            snapshot: tree, detached: try subtrees(detached), nodeRevisions: [:], revision: revision,
            limits: WorldSnapshot.unbounded)
    }

    /// Each node's children come last in a snapshot: one with a member after them, or a node the world refuses,
    /// is not streamed, and the snapshot reads back as the other readers read it (or is refused in their words).
    @Test func whatTheStreamLeavesIsReadOrRefusedAsBefore() throws {
        let world = try DurabilityTests.world()
        let (tree, detached) = WorldSnapshot.encode(world)
        let text = String(decoding: tree, as: UTF8.self)
        #expect(try Self.streamed(tree, detached, world.revision) == world)
        // A member after `children` (the title label's, set to what it is).
        let title = try #require(text.range(of: #""id":"title""#))
        let end = try #require(text.range(of: #""children":[]}"#, range: title.upperBound..<text.endIndex))
        let after = Array(text.replacingCharacters(in: end, with: #""children":[],"hidden":false}"#).utf8)
        #expect(try Self.streamed(after, detached, world.revision) == nil)
        let back = try WorldSnapshot.decode(tree: after, detached: detached, revision: world.revision)
        #expect(back.encoded() == world.encoded())
        // Two nodes with one id: refused by the world, worded by the general path.
        let twice = Array(text.replacingOccurrences(of: #""id":"title""#, with: #""id":"card""#).utf8)
        #expect(twice != tree)
        #expect(try Self.streamed(twice, detached, world.revision) == nil)
        var streamedError: RPCError?, generalError: RPCError?
        do { _ = try WorldSnapshot.decode(tree: twice, detached: detached, revision: world.revision) } catch {
            streamedError = error
        }
        do {
            _ = try WorldSnapshot.decodeAsDocuments(tree: twice, detached: detached, revision: world.revision)
        } catch { generalError = error }
        #expect(streamedError != nil && streamedError?.message == generalError?.message)
        // A root other than the application.
        let notRoot = Array(text.replacingOccurrences(of: #""kind":"application""#, with: #""kind":"view""#).utf8)
        #expect(try Self.streamed(notRoot, detached, world.revision) == nil)
    }

    @Test func aSnapshotWrittenWholeStillReadsBack() throws {
        var world = try DurabilityTests.world()
        _ = try world.apply([try DurabilityTests.op(["op": "update", "id": "title", "set": ["alpha": 0.5]])])
        let back = try WorldSnapshot.decode(
            tree: world.encoded(), detached: world.encodedDetached(), revision: world.revision)
        #expect(back.encoded() == world.encoded() && back["title"]?.revision == world["title"]?.revision)
    }
}
