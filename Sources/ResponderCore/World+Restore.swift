import ResponderProtocol

extension World {
    /// A world read from a saved snapshot: the tree as `load` reads it, then each node's revision and the
    /// world's revision put back as they were saved.
    public static func restored(tree: NodeTree, detached: [NodeTree], nodeRevisions: [String: Int], revision: Int, limits: Limits) throws(RPCError) -> World {
        var world = World()
        try world.load(tree: tree, detached: detached, limits: limits)
        world.revision = revision
        world.nodes.updateEach { $0.revision = nodeRevisions[$0.id] ?? revision }
        return world
    }

    /// The world `tree` and `detached` describe, validated on its own: pure, so it may be built off the
    /// engine thread; `SessionState.load(prepared:)` then swaps it in.
    public static func prepared(tree: NodeTree, detached: [NodeTree], limits: Limits) throws(RPCError) -> World {
        var world = World()
        try world.load(tree: tree, detached: detached, limits: limits)
        return world
    }

    mutating func restamp(revision: Int) {
        self.revision = revision
        nodes.updateEach { $0.revision = revision }
    }
}
