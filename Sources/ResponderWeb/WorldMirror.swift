import ResponderCore
import ResponderJSON
import ResponderProtocol

/// The session's world kept on this side (Protocol/README 13.5): loaded from the snapshot, then each tree
/// event's ops replayed in seq order, exactly as the engine applied them. The pure core does the replaying, so
/// the mirror follows the engine's own rules for every op.
package struct WorldMirror {
    private var world = World()
    /// The engine already checked its own limits; the mirror takes whatever it accepted.
    private let limits = Limits(maxNodes: .max, maxDepth: .max, maxMessageBytes: .max, maxOpsPerBatch: .max)

    package mutating func load(tree: JSON, detached: JSON?) throws {
        let root = try NodeTree(document: tree, path: "tree")
        var subtrees: [NodeTree] = []
        for (i, d) in (detached?.arrayValue ?? []).enumerated() {
            subtrees.append(try NodeTree(document: d, path: "detached[\(i)]"))
        }
        try world.load(tree: root, detached: subtrees, limits: limits)
    }

    /// A tree event (13.3): `apply` replays its ops (without their revision guards: the engine has checked
    /// them), `load` replaces the world.
    package mutating func apply(event: JSON) throws {
        if event["change"]?.stringValue == "load" {
            try load(tree: event["tree"] ?? .null, detached: event["detached"])
            return
        }
        var ops: [GuardedOp] = []
        for (i, op) in (event["ops"]?.arrayValue ?? []).enumerated() {
            ops.append(GuardedOp(try GuardedOp(wire: op, index: i).op))
        }
        _ = try world.apply(ops, limits: limits)
    }

    /// The application's tree in output form (8.5), as `tree.get` gives it.
    package var tree: JSON { (try? JSONCodec.decode(world.encoded())) ?? .null }
}
