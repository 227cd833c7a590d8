import ResponderCore
import ResponderJSON
import ResponderProtocol

/// A session's durable parts besides its world, as one JSON value (`progress.state`, beside its seq and revision).
struct SavedSessionState: Codable {
    var profile: Profile
    var clock: Double
    var tapCounter: Int
    /// Window id → its first responder.
    var firstResponders: [String: String]
    var worldBeforeFirstEvent: Bool
    /// The session's owner token (7.1), so that an owned session stays owned across a restart. Kept as given, like
    /// the engine's own key: the state directory is the engine user's alone (0700, database 0600).
    var owner: String?

    init(_ host: SessionHost) {
        let parts = host.state.durableParts
        profile = host.state.profile
        clock = parts.clock
        tapCounter = parts.tapCounter
        firstResponders = parts.firstResponders
        worldBeforeFirstEvent = host.worldBeforeFirstEvent
        owner = host.ownerToken
    }

    var parts: DurableSessionParts {
        DurableSessionParts(firstResponders: firstResponders, clock: clock, tapCounter: tapCounter)
    }

    /// What `WireEncoder.encodeBytes(SavedSessionState(host))` writes, the members in the same order, with the
    /// profile as `profile` (its text, written once per session by the store): a commit follows every dispatch,
    /// and the profile's fields through Codable would be most of what a tap's commit costs. First
    /// responders in window order, where the encoder writes them in the dictionary's (hash) order.
    static func text(_ host: SessionHost, profile: [UInt8]) -> [UInt8] {
        let parts = host.state.durableParts
        var w = JSONWriter(reservingCapacity: profile.count + 128 + 64 * parts.firstResponders.count)
        w.beginObject()
        w.key(static: "profile"); w.raw(profile)
        w.key(static: "clock"); w.number(parts.clock)
        w.key(static: "tapCounter"); w.number(Double(parts.tapCounter))
        w.key(static: "firstResponders")
        w.beginObject()
        for (window, responder) in parts.firstResponders.sorted(by: { $0.key < $1.key }) {
            w.key(window)
            w.string(responder)
        }
        w.endObject()
        w.key(static: "worldBeforeFirstEvent"); w.bool(host.worldBeforeFirstEvent)
        w.key(static: "owner"); w.string(orNull: host.ownerToken)
        w.endObject()
        return w.takeBytes()
    }
}

/// A tree change waiting to be written with the request that made it.
enum TreeRecord {
    /// A batch (as `op.write` writes it) that took the world to `revision`.
    case apply(revision: Int, ops: [UInt8])
    /// The whole world was replaced (encoded as `WorldSnapshot.encode` does): the next write is a snapshot.
    case load(tree: [UInt8], detached: [UInt8])
}

/// The world as a snapshot row holds it: the tree and detached subtrees with each node's id, kind, revision and
/// the members reading it back needs (`World.encodedChanges`), and read back with them. A snapshot written
/// whole, as `tree.get` writes a world (as older engines wrote snapshots), reads back the same.
enum WorldSnapshot {
    static func encode(_ world: World) -> (tree: [UInt8], detached: [UInt8]) {
        (world.encodedChanges(), world.encodedDetached(changedOnly: true))
    }

    /// Saved rows were valid when written: they are read back without the configured limits, which may have
    /// been lowered since.
    static let unbounded = Limits(maxNodes: .max, maxDepth: .max, maxMessageBytes: .max, maxOpsPerBatch: .max)

    /// The tree is read from its text when the plain reader reads it (a snapshot of plain nodes: a million views
    /// in seconds less, and without the document the general reader builds first); otherwise, and for the
    /// detached subtrees, as any document.
    static func decode(tree: [UInt8], detached: [UInt8], revision: Int) throws(RPCError) -> World {
        var detachedJSON: JSON
        do { detachedJSON = try JSONCodec.decode(detached, strings: KnownStrings.table) } catch {
            throw RPCError(.parseError, "the saved world is not JSON: \(error)")
        }
        defer { JSON.release(&detachedJSON) }
        var revisions: [String: Int] = [:]
        collectRevisions(detachedJSON, into: &revisions)
        var subtrees: [NodeTree] = []
        for (i, d) in (detachedJSON.arrayValue ?? []).enumerated() {
            subtrees.append(try NodeTree(document: d, path: "detached[\(i)]"))
        }
        if let world = World.restored(
            snapshot: tree, detached: subtrees, nodeRevisions: revisions, revision: revision, limits: unbounded)
        {
            return world
        }
        guard let plain = PlainTree.readSnapshot(tree, path: "tree") else {
            return try decodeAsDocuments(tree: tree, detached: detached, revision: revision)
        }
        return try core { () throws(CoreError) in
            try World.restored(
                tree: plain.tree, treeRevisions: plain.revisions, detached: subtrees, nodeRevisions: revisions,
                revision: revision, limits: unbounded)
        }
    }

    /// Both parts read as documents (the general reader): what the plain reader leaves, and its reference.
    static func decodeAsDocuments(tree: [UInt8], detached: [UInt8], revision: Int) throws(RPCError) -> World {
        var treeJSON: JSON
        var detachedJSON: JSON
        do {
            treeJSON = try JSONCodec.decode(tree, strings: KnownStrings.table)
            detachedJSON = try JSONCodec.decode(detached, strings: KnownStrings.table)
        } catch {
            throw RPCError(.parseError, "the saved world is not JSON: \(error)")
        }
        defer {
            JSON.release(&treeJSON)
            JSON.release(&detachedJSON)
        }
        var revisions: [String: Int] = [:]
        collectRevisions(treeJSON, into: &revisions)
        collectRevisions(detachedJSON, into: &revisions)
        let root = try NodeTree(document: treeJSON, path: "tree")
        var subtrees: [NodeTree] = []
        for (i, d) in (detachedJSON.arrayValue ?? []).enumerated() {
            subtrees.append(try NodeTree(document: d, path: "detached[\(i)]"))
        }
        return try core { () throws(CoreError) in
            try World.restored(
                tree: root, detached: subtrees, nodeRevisions: revisions, revision: revision, limits: unbounded)
        }
    }

    /// Every node's `revision` by id, walking without recursion.
    private static func collectRevisions(_ document: JSON, into revisions: inout [String: Int]) {
        var stack = [document]
        while let value = stack.popLast() {
            if let nodes = value.arrayValue {
                stack.append(contentsOf: nodes)
                continue
            }
            guard let id = value["id"]?.stringValue else { continue }
            if let r = value["revision"]?.intValue { revisions[id] = r }
            if let children = value["children"]?.arrayValue { stack.append(contentsOf: children) }
        }
    }

    /// One logged batch, read back as the typed ops `tree.apply` would have read.
    static func ops(_ bytes: [UInt8]) throws(RPCError) -> [GuardedOp] {
        let value: JSON
        do { value = try JSONCodec.decode(bytes, strings: KnownStrings.table) } catch {
            throw RPCError(.parseError, "a saved batch is not JSON: \(error)")
        }
        return try WireOps(wire: value, path: "ops").read()
    }

    static func encode(ops: [GuardedOp]) -> [UInt8] {
        var w = JSONWriter()
        w.beginArray()
        for op in ops { op.write(to: &w) }
        w.endArray()
        return w.takeBytes()
    }
}
