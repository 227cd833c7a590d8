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

    /// A world read from a saved snapshot's text as it is read (`PlainTree.streamSnapshot`): each node placed in
    /// the table as soon as the reader has it, no `NodeTree` of the whole between (at a million views, 160 MB of
    /// entries and the pages the kernel clears for them), and checked as `load` checks a tree. Each node keeps the
    /// revision saved with it (the world's where none was). nil when the reader leaves the text to the general
    /// reader or any check fails: the caller then reads the snapshot as a document, whose errors are worded.
    public static func restored(
        snapshot text: [UInt8], detached: [NodeTree], nodeRevisions: [String: Int], revision: Int, limits: Limits
    ) -> World? {
        var restore = StreamedBuild(
            revision: revision, nodeRevisions: nodeRevisions, expected: PlainTree.nodeBound(of: text), limits: limits)
        // The reader hands each node to the restore through a pointer: the closure capturing the restore itself
        // would have every access to it checked for exclusivity at run time, and its table copied to be read.
        let read = withUnsafeMutablePointer(to: &restore) { restore in
            PlainTree.streamSnapshot(text) { spec, parent, saved in restore.pointee.add(&spec, parent, saved) }
        }
        guard read else { return nil }
        return restore.finish(detached: detached)
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

/// A tree.load's world built as its tree's text is read (`PlainTree.streamTree`), with no `NodeTree` of the whole
/// between: each node is placed when the reader hands it on, checked as `World.prepared` checks a tree, and the
/// world comes out as `World.prepared` would have made it. Any refusal is nil, with no reason: the caller then
/// reads the request the general way, which words it.
public struct StreamedLoad {
    var build: StreamedBuild

    /// `expected`: at least as many nodes as the text holds (`PlainTree.nodeBound`), to reserve room for.
    public init(expected: Int, limits: Limits) {
        // The revision `World.prepared` gives a world (a fresh world's, plus one).
        build = StreamedBuild(revision: World().revision + 1, nodeRevisions: [:], expected: expected, limits: limits)
    }

    /// Takes the reader's next node (its spec moved out of `spec`), `parent` its parent's place in document order
    /// (-1 for the root); false when it cannot be placed.
    public mutating func add(_ spec: inout NodeSpec, parent: Int) -> Bool { build.add(&spec, parent, nil) }

    /// The world, with the detached subtrees after the tree; nil when any check fails.
    public mutating func world(detached: [NodeTree]) -> World? { build.finish(detached: detached) }

    /// A request of one of `methods` whose `params.tree` is placed in a load as it is read: its method, the
    /// request with the tree's text replaced by `standIn` (as `PlainTree.split` gives it), and the load, whose
    /// world the detached subtrees then complete. nil when the split or the stream leaves the request;
    /// `reached` then tells whether the tree was reached.
    public static func split(
        request body: [UInt8], methods: [String], standIn: [UInt8], limits: Limits, reached: inout Bool
    ) -> (method: String, request: [UInt8], load: StreamedLoad)? {
        var load: StreamedLoad?
        // Handed to the reader through a pointer: captured, each node's access to the load would be checked for
        // exclusivity at run time.
        let split = withUnsafeMutablePointer(to: &load) { load in
            PlainTree.split(request: body, methods: methods, standIn: standIn) { b, start -> (tree: Void, end: Int)? in
                reached = true
                load.pointee = StreamedLoad(expected: PlainTree.nodeBound(b, from: start), limits: limits)
                return PlainTree.streamTree(b, from: start, maxDepth: limits.maxDepth) { spec, parent in
                    load.pointee!.add(&spec, parent: parent)
                }.map { ((), $0) }
            }
        }
        guard let split, let load else { return nil }
        return (split.method, split.request, load)
    }
}

/// Nodes placed in a fresh world as a reader hands them on (a snapshot's in `World.restored(snapshot:)`, a
/// load's in `StreamedLoad`), each `LoadPlaces.ahead` nodes after its id's index entry was asked for.
struct StreamedBuild {
    var tx: Transaction
    var places: LoadPlaces?
    let revision: Int
    let nodeRevisions: [String: Int]
    let expected: Int
    /// The nodes handed on and not yet placed, oldest at `head`.
    var ring: [(spec: NodeSpec, parent: Int, revision: Int?, hash: UInt32)]
    var head = 0
    var waiting = 0

    static let placeholder = NodeSpec(id: "", kind: .view)

    init(revision: Int, nodeRevisions: [String: Int], expected: Int, limits: Limits) {
        tx = Transaction(world: World(), limits: limits)
        tx.world.revision = revision
        tx.stamp = revision
        tx.world.nodes.reserveCapacity(expected)
        self.revision = revision
        self.nodeRevisions = nodeRevisions
        self.expected = expected
        ring = Array(repeating: (Self.placeholder, 0, nil, 0), count: LoadPlaces.ahead)
    }

    /// Takes the reader's next node (its spec moved out of `spec`); false when it cannot be placed.
    mutating func add(_ spec: inout NodeSpec, _ parent: Int, _ saved: Int?) -> Bool {
        let own = saved ?? (nodeRevisions.isEmpty ? nil : nodeRevisions[spec.id])
        guard parent >= 0 else {
            guard places == nil, spec.kind == .application, spec.id == World.rootID else { return false }
            var root = Node(spec: spec)
            root.revision = own ?? revision
            tx.world.nodes[World.rootID] = root
            places = LoadPlaces(
                rootSlot: Int32(tx.world.nodes.slot(of: World.rootID)!), capacity: expected, listedAtEnd: true)
            return true
        }
        guard places != nil else { return false }
        let hash = tx.world.nodes.hash(of: spec.id)
        tx.world.nodes.prefetch(hash: hash)
        if waiting == ring.count { guard placeOldest() else { return false } }
        let i = (head + waiting) % ring.count
        swap(&ring[i].spec, &spec)
        ring[i].parent = parent
        ring[i].revision = own
        ring[i].hash = hash
        waiting += 1
        return true
    }

    /// The world, once every node was handed on: the nodes still waiting placed, the children listed, the
    /// detached subtrees inserted and the whole checked as a load checks it. nil when any of that fails.
    mutating func finish(detached: [NodeTree]) -> World? {
        guard places != nil, placeAll() else { return nil }
        // Taken out of the build, not copied: a copy would share the table, and the first change copy it.
        var tx = Transaction(world: World(), limits: tx.limits)
        swap(&tx, &self.tx)
        tx.giveChildren(places!)
        places = nil
        do throws(CoreError) {
            tx.toCheck[World.rootID] = tx.opIndex
            let byID = !nodeRevisions.isEmpty, nodeRevisions = nodeRevisions
            tx.nodeRevision = { _, id in byID ? nodeRevisions[id] : nil }
            try tx.completeLoad(detached: detached)
        } catch { return nil }
        var world = World()
        swap(&world, &tx.world)
        return world
    }

    /// Places the nodes still waiting.
    mutating func placeAll() -> Bool {
        while waiting > 0 { guard placeOldest() else { return false } }
        return true
    }

    private mutating func placeOldest() -> Bool {
        var spec = Self.placeholder
        swap(&spec, &ring[head].spec)
        let (parent, own, hash) = (ring[head].parent, ring[head].revision, ring[head].hash)
        head = (head + 1) % ring.count
        waiting -= 1
        do throws(CoreError) {
            try tx.place(
                spec, parent: parent, hash: hash, childCapacity: nil, revision: own, places: &places!,
                path: { "tree." })
        } catch { return false }
        return true
    }
}
