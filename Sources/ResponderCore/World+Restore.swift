import ResponderProtocol

extension World {
    /// Moves the world's revision forward to `revision` (never back), its nodes keeping theirs: a session restored
    /// after a loss continues above every revision it may have reached, so none is used twice.
    public mutating func continueRevision(after revision: Int) {
        if revision > self.revision { self.revision = revision }
    }

    /// A world read from a saved snapshot: the tree as `load` reads it, then each node's revision and the
    /// world's revision put back as they were saved.
    public static func restored(
        tree: NodeTree, detached: [NodeTree], nodeRevisions: [String: Int], revision: Int, limits: Limits
    ) throws(CoreError) -> World {
        try restored(
            tree: tree, treeRevisions: nil, detached: detached, nodeRevisions: nodeRevisions, revision: revision,
            limits: limits)
    }

    /// `treeRevisions`: the revisions of `tree`'s entries, in its entry order (nil: by id in `nodeRevisions`, as
    /// the detached subtrees' are); a node with none takes the world's.
    public static func restored(
        tree: NodeTree, treeRevisions: [Int?]?, detached: [NodeTree], nodeRevisions: [String: Int], revision: Int,
        limits: Limits
    ) throws(CoreError) -> World {
        var world = World()
        // Each id hashed for the map only when it holds any (a million lookups in an empty one hashed them all).
        let byID = !nodeRevisions.isEmpty
        try world.load(
            tree: tree, detached: detached, revision: revision,
            nodeRevision: { entry, id in
                if let entry, let treeRevisions, entry < treeRevisions.count, let r = treeRevisions[entry] { return r }
                return byID ? nodeRevisions[id] : nil
            }, limits: limits)
        return world
    }

    /// The world `tree` and `detached` describe, validated on its own: pure, so it may be built off the
    /// engine thread; `SessionState.load(prepared:)` then swaps it in.
    public static func prepared(tree: NodeTree, detached: [NodeTree], limits: Limits) throws(CoreError) -> World {
        var world = World()
        try world.load(tree: tree, detached: detached, limits: limits)
        return world
    }

    mutating func restamp(revision: Int) {
        self.revision = revision
        nodes.stampRevisions(revision)
    }
}
