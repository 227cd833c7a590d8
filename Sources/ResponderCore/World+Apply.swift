import ResponderJSON
import ResponderProtocol

/// What an applied batch changed.
public struct AppliedBatch: Sendable {
    public var revision: Int
    /// Ids removed from the world (whole subtrees).
    public var removed: [String]

    public init(revision: Int, removed: [String]) {
        self.revision = revision
        self.removed = removed
    }
}

extension World {
    /// Applies a batch atomically: either every op succeeds and the revision goes up by one, or the world
    /// is left exactly as it was and the error names the op index.
    public mutating func apply(_ ops: [GuardedOp], ifRevision: Int? = nil, limits: Limits = .default) throws(CoreError)
        -> AppliedBatch
    {
        if let expected = ifRevision, expected != revision {
            throw .revisionConflict(revision: revision, expected: expected)
        }
        guard ops.count <= limits.maxOpsPerBatch else {
            throw .tooManyOps(max: limits.maxOpsPerBatch)
        }
        // The transaction takes the world over (a swap, not a copy, so a batch costs what its ops touch,
        // not the size of the world) and journals every node before it first changes it. On any error
        // the journal puts those nodes back and the world returns exactly as it was.
        var tx = Transaction(world: World(), limits: limits)
        tx.inBatch = true
        swap(&self, &tx.world)
        defer { swap(&self, &tx.world) }
        for (index, guarded) in ops.enumerated() {
            tx.opIndex = index
            do throws(CoreError) { try tx.perform(guarded) } catch {
                tx.rollback()
                throw .inOp(index, error)
            }
        }
        do throws(CoreError) {
            try tx.checkInvariants()
            try tx.indexRecognizers()
        } catch {
            tx.rollback()
            throw error
        }
        tx.indexPresentations()
        let next = tx.world.revision + 1
        tx.world.revision = next
        for id in tx.changed where tx.world.nodes[id] != nil { tx.world.nodes[id]!.revision = next }
        return AppliedBatch(revision: next, removed: tx.removed)
    }

    /// Replaces the whole world with `tree` (an application node with id "app") and `detached` subtrees. The
    /// world takes `revision` (nil: this world's revision + 1), and so does every node unless `nodeRevision`
    /// gives it another (from its entry's index in `tree`, nil in a detached subtree, and its id). Each node is
    /// given its revision as it is made: a pass over a million nodes afterwards reads each from memory again
    /// (≈ 0.1 s), and one through the table's subscript makes each node's `HitRecord` again too.
    public mutating func load(
        tree: NodeTree, detached: [NodeTree] = [], revision stamp: Int? = nil,
        nodeRevision: ((_ entry: Int?, _ id: String) -> Int?)? = nil, limits: Limits = .default
    ) throws(CoreError) {
        let stamp = stamp ?? revision + 1
        var fresh = World()
        fresh.revision = stamp
        let root = tree.root
        guard root.kind == .application else {
            throw .rootNotApplication(root.id, kind: root.kind, field: "\(tree.path).kind")
        }
        guard root.id == World.rootID else {
            throw .applicationID(root.id, field: "\(tree.path).id")
        }
        var rootNode = Node(spec: root)
        rootNode.revision = nodeRevision?(0, root.id) ?? stamp
        fresh.nodes[World.rootID] = rootNode
        var tx = Transaction(world: fresh, limits: limits)
        tx.stamp = stamp
        tx.nodeRevision = nodeRevision
        // Everything below the application is inserted as ops would insert it; errors keep the document's paths
        // and name no op.
        do throws(CoreError) {
            try tx.insertDescendants(of: tree)
            try tx.completeLoad(detached: detached)
        } catch {
            if case .afterOp(_, let unlocated) = error { throw unlocated }
            throw error
        }
        // Taken out of the transaction, not copied.
        fresh = World()
        swap(&fresh, &tx.world)
        self = fresh
    }
}

/// Where a load's nodes went, by their index among the load's nodes (the application's 0): each child finds its
/// parent's slot without hashing the parent's id.
struct LoadPlaces {
    /// How many nodes ahead a load asks for the index entry of the id it will insert (`NodeTable.prefetch`).
    static let ahead = 8
    var slots: [Int32]
    var depths: [Int32]
    /// Each node's number of children, counted as they are placed when they are listed at the end.
    var childCounts: [Int32]

    /// `listedAtEnd`: the load's nodes come without their number of children (`Transaction.giveChildren`).
    init(rootSlot: Int32, capacity: Int, listedAtEnd: Bool = false) {
        slots = [rootSlot]
        depths = [0]
        childCounts = [0]
        slots.reserveCapacity(capacity)
        depths.reserveCapacity(capacity)
        if listedAtEnd { childCounts.reserveCapacity(capacity) }
    }
}

/// A batch in progress on a private copy of the world.
struct Transaction {
    var world: World
    let limits: Limits
    var opIndex = 0
    var removed: [String] = []
    var changed: Set<String> = []
    /// The changed ids in op order, for errors that name the first op's node (`indexRecognizers`).
    var changedOrder: [String] = []
    /// Nodes whose sibling/child invariants must hold at the end, with the last op that touched them.
    var toCheck: [String: Int] = [:]
    /// Whether the batch may have changed which windows are key, and the last op that did.
    var keyTouched = false
    var keyOpIndex = 0
    /// Whether this is a tree.apply batch (field paths start with "ops[i].") rather than a tree.load.
    var inBatch = false
    /// The revision a load gives each node it makes; nil in a batch, whose changed nodes are stamped at its end.
    var stamp: Int?
    /// A node's own revision in a load, where it is not `stamp` (`World.load`'s `nodeRevision`).
    var nodeRevision: ((_ entry: Int?, _ id: String) -> Int?)?
    /// Nodes whose gestureRecognizers this batch wrote, with the op and the field path that wrote them.
    var recognizerPaths: [String: (opIndex: Int, field: String)] = [:]

    init(world: World, limits: Limits) {
        self.world = world
        self.limits = limits
    }

    /// Each node's value before the batch first changed it (nil: it did not exist).
    private(set) var journal: [String: Node?] = [:]
    private var detachedBefore: [String]?

    private mutating func save(_ id: String) {
        if journal.index(forKey: id) == nil { journal.updateValue(world.nodes[id], forKey: id) }
    }

    private mutating func saveDetached() {
        if detachedBefore == nil { detachedBefore = world.detachedRoots }
    }

    /// Puts back every node the batch changed. They come back in no particular order, so a node may name
    /// another before that one names it back: the structure by slot is derived again around them at the end.
    mutating func rollback() {
        world.nodes.restore(journal)
        if let detachedBefore { world.detachedRoots = detachedBefore }
        journal = [:]
        detachedBefore = nil
    }

    private mutating func touchKey() {
        keyTouched = true
        keyOpIndex = opIndex
    }

    private mutating func markChanged(_ id: String) {
        if changed.insert(id).inserted { changedOrder.append(id) }
        toCheck[id] = opIndex
    }

    private func existing(_ id: String, field: String) throws(CoreError) -> Node {
        guard let node = world.nodes[id] else {
            throw .noNode(id, field: field)
        }
        return node
    }

    mutating func perform(_ guarded: GuardedOp) throws(CoreError) {
        if let expected = guarded.ifNodeRevision {
            if let target = guarded.op.guardedNode {
                let node = try existing(target, field: "ifNodeRevision")
                if node.revision != expected {
                    throw .nodeRevisionConflict(target, revision: node.revision, expected: expected)
                }
            }
        }
        switch guarded.op {
        case .insert(let parent, let index, let node): try insert(node, from: 0, parent: parent, index: index)
        case .remove(let id): try remove(id)
        case .move(let id, let parent, let index): try move(id, parent: parent, index: index)
        case .update(let id, let set): try update(id, set: set)
        }
    }

    private func checkIndex(_ index: Int?, count: Int) throws(CoreError) -> Int {
        guard let index else { return count }
        guard index >= 0, index <= count else {
            throw .indexOutOfRange(index, count: count)
        }
        return index
    }

    private func parentNode(_ parent: String?) throws(CoreError) -> Node? {
        guard let parent else { return nil }
        return try existing(parent, field: "parent")
    }

    /// Everything below a document's root, which is already in the world (tree.load's application), checked as
    /// an insert op checks it. A load builds a fresh world that is dropped on any error, so nothing is
    /// journalled for undo, and each node is put straight into place in document order (parents come first):
    /// at a million nodes the batch path's journal, its change sets and the second pass over built nodes would
    /// be most of the load's time and its peak memory.
    mutating func insertDescendants(of tree: NodeTree) throws(CoreError) {
        let entries = tree.entries
        world.nodes.reserveCapacity(world.nodes.count + entries.count)
        var places = LoadPlaces(rootSlot: Int32(world.nodes.slot(of: tree.root.id)!), capacity: entries.count)
        // Each entry's number of children, so that its children's ids and slots are stored at their size: grown
        // one append at a time, a view's ten children would take room for sixteen twice over.
        var childCounts = [Int32](repeating: 0, count: entries.count)
        // Each id's hash in the id index, made ahead so the index entry of the node `ahead` places later is asked
        // for now: a million-node index is far larger than the cache, and each insertion at its random position
        // otherwise waits on memory in turn (most of a large load's insertion time).
        let ahead = LoadPlaces.ahead
        var hashes = [UInt32](repeating: 0, count: entries.count)
        for i in 1..<max(entries.count, 1) {
            childCounts[entries[i].parent!] += 1
            hashes[i] = world.nodes.hash(of: entries[i].spec.id)
        }
        for i in 1..<min(entries.count, ahead + 1) { world.nodes.prefetch(hash: hashes[i]) }
        for i in 1..<max(entries.count, 1) {
            if i + ahead < entries.count { world.nodes.prefetch(hash: hashes[i + ahead]) }
            let revision = stamp == nil ? nil : nodeRevision?(i, entries[i].spec.id)
            try place(
                entries[i].spec, parent: entries[i].parent!, hash: hashes[i], childCapacity: Int(childCounts[i]),
                revision: revision, places: &places, path: { tree.path(of: i) })
        }
        toCheck[tree.root.id] = opIndex
    }

    /// Places a load's next node below its parent (placed before it: `parent` is its index among the load's
    /// nodes, the application's 0), checked as an insert op checks it: a new id, a kind allowed there, the
    /// limits. `hash` is its id's in the index; `childCapacity` its number of children when known, each child
    /// then listed by its parent as it is placed (nil: `giveChildren` lists them all at the end). `revision`: its
    /// own, when not the load's. `path` makes its field path, for an error.
    mutating func place(
        _ spec: NodeSpec, parent p: Int, hash: UInt32, childCapacity: Int?, revision: Int?,
        places: inout LoadPlaces, path: () -> String
    ) throws(CoreError) {
        let parentSlot = Int(places.slots[p])
        // The parent's kind and id read in place: a node copied whole is a retain and release of every
        // reference it holds, for each node of the load.
        let (parentKind, parentID) = world.nodes.read(slot: parentSlot) { ($0.pointee.spec.kind, $0.pointee.spec.id) }
        let kind = spec.kind, id = spec.id
        let depth = Int(places.depths[p]) + 1
        // A duplicate id is reported first, as the insert op does; it is looked up only when another check
        // fails (insertNew below finds it otherwise, with the one hash it makes anyway).
        func duplicate() -> CoreError { .duplicateID(id, field: path() + "id") }
        func refused(_ error: CoreError) -> CoreError { world.nodes[id] != nil ? duplicate() : error }
        if let rule = Placement.kindError(child: kind, parent: parentKind) {
            throw refused(.misplaced(id, parent: parentID, rule: rule))
        }
        guard world.nodes.count + 1 <= limits.maxNodes else {
            throw refused(.tooManyNodes(max: limits.maxNodes))
        }
        guard depth <= limits.maxDepth else {
            throw refused(.tooDeep(id, max: limits.maxDepth))
        }
        var node = Node(spec: spec)
        if let stamp { node.revision = revision ?? stamp }
        node.parent = parentID
        node.depth = depth
        if let childCapacity, childCapacity > 0 { node.children.reserveCapacity(childCapacity) }
        guard
            let slot = world.nodes.insertNew(
                node, hash: hash, parentSlot: Int32(parentSlot), childCapacity: childCapacity ?? 0)
        else {
            throw duplicate()
        }
        places.slots.append(Int32(slot))
        places.depths.append(Int32(depth))
        if childCapacity != nil {
            world.nodes.appendChild(id, childSlot: slot, toSlot: parentSlot)
        } else {
            places.childCounts[p] += 1
            places.childCounts.append(0)
        }
        // Only what the end-of-load checks read: the kinds with sibling rules, and the nodes the recognizer
        // and presentation indexes are built from (as "did not exist before", which is what the journal
        // would have said).
        switch kind {
        case .application, .window, .viewController: toCheck[id] = opIndex
        default: if parentKind == .viewController { toCheck[id] = opIndex }
        }
        if kind == .window { touchKey() }
        if !node.spec.gestureRecognizers.isEmpty {
            recognizerPaths[id] = (opIndex, path() + "gestureRecognizers")
            changedOrder.append(id)
            journal[id] = .some(nil)
        }
        if node.spec.presentedBy != nil { journal[id] = .some(nil) }
    }

    /// The rest of a load once the tree is placed: the detached subtrees inserted, then the whole checked as a
    /// batch's end checks it and its recognizers and presentations indexed.
    mutating func completeLoad(detached: [NodeTree]) throws(CoreError) {
        for subtree in detached { try insert(subtree, from: 0, parent: nil, index: nil) }
        try checkInvariants()
        try indexRecognizers()
        indexPresentations()
    }

    /// Lists every node of a load placed with `childCapacity` nil among its parent's children, in the order they
    /// were placed, each parent's list made once at its size.
    mutating func giveChildren(_ places: LoadPlaces) {
        world.nodes.giveChildren(slots: places.slots, counts: places.childCounts)
    }

    private func duplicate(_ id: String, _ tree: NodeTree, _ i: Int) -> CoreError {
        .duplicateID(id, field: tree.path(of: i) + "id")
    }

    /// Inserts the subtree of `tree` rooted at entry `from` under `parent` at `index`.
    mutating func insert(_ tree: NodeTree, from start: Int, parent: String?, index: Int?) throws(CoreError) {
        let parentNode = try parentNode(parent)
        let position = try checkIndex(index, count: parentNode?.children.count ?? world.detachedRoots.count)
        let created = try build(tree, from: start, placed: [:], root: (parent, (parentNode?.depth ?? -1) + 1))
        let rootID = created[0].id
        save(rootID)
        world.nodes[rootID] = created[0]
        markChanged(rootID)
        if created[0].kind == .window { touchKey() }
        attach(created.dropFirst())
        place(rootID, under: parent, at: position)
    }

    /// Puts `id` among `parent`'s children (or the detached roots) at `position`.
    private mutating func place(_ id: String, under parent: String?, at position: Int) {
        if let parent {
            save(parent)
            world.nodes.insertChild(id, at: position, into: parent)
            toCheck[parent] = opIndex
        } else {
            saveDetached()
            world.detachedRoots.insert(id, at: position)
        }
    }

    /// Checks and builds the nodes of `tree` from entry `start` on whose parent entry is in `placed` (entries
    /// are parents-first, so one pass finds a whole subtree): a new id, a kind allowed under its parent, the
    /// limits. `root` gives the parent and depth of entry `start` when it starts a subtree of its own.
    private mutating func build(
        _ tree: NodeTree, from start: Int, placed: [Int: (id: String, depth: Int)],
        root: (parent: String?, depth: Int)?
    ) throws(CoreError) -> [Node] {
        var placed = placed
        var created: [Node] = []
        var newKinds: [String: NodeKind] = [:]
        for i in start..<tree.entries.count {
            let entry = tree.entries[i]
            let parentID: String?
            let depth: Int
            if let p = entry.parent, let up = placed[p] {
                (parentID, depth) = (up.id, up.depth + 1)
            } else if i == start, let root {
                (parentID, depth) = (root.parent, root.depth)
            } else {
                continue
            }
            let id = entry.spec.id
            if world.nodes[id] != nil || newKinds[id] != nil {
                throw duplicate(id, tree, i)
            }
            newKinds[id] = entry.spec.kind
            let parentKind = parentID.flatMap { p in world.nodes[p]?.kind ?? newKinds[p] }
            if let rule = Placement.kindError(child: entry.spec.kind, parent: parentID == nil ? nil : parentKind) {
                throw .misplaced(id, parent: parentID, rule: rule)
            }
            guard world.nodes.count + created.count + 1 <= limits.maxNodes else {
                throw .tooManyNodes(max: limits.maxNodes)
            }
            guard depth <= limits.maxDepth else {
                throw .tooDeep(id, max: limits.maxDepth)
            }
            if !entry.spec.gestureRecognizers.isEmpty {
                recognizerPaths[id] = (opIndex, tree.path(of: i) + "gestureRecognizers")
            }
            var node = Node(spec: entry.spec)
            if let stamp { node.revision = nodeRevision?(nil, id) ?? stamp }
            node.parent = parentID
            node.depth = depth
            placed[i] = (id, depth)
            created.append(node)
        }
        return created
    }

    /// Puts built nodes into the world, each appended to its parent's children (in document order).
    private mutating func attach<Nodes: Sequence<Node>>(_ nodes: Nodes) {
        for node in nodes {
            save(node.id)
            world.nodes[node.id] = node
            if let p = node.parent {
                save(p)
                world.nodes.insertChild(node.id, into: p)
            }
            markChanged(node.id)
            if node.kind == .window { touchKey() }
        }
    }

    mutating func remove(_ id: String) throws(CoreError) {
        let node = try existing(id, field: "id")
        guard id != World.rootID else { throw .applicationFixed(id, removal: true) }
        if let p = node.parent {
            save(p)
            toCheck[p] = opIndex
        } else {
            saveDetached()
            world.detachedRoots.removeAll { $0 == id }
        }
        // Taken out whole (the parent's entry with it), each node journalled as it was.
        for g in world.nodes.removeSubtree(id) {
            if g.kind == .window { touchKey() }
            if journal.index(forKey: g.id) == nil { journal[g.id] = .some(g) }
            toCheck[g.id] = nil
            removed.append(g.id)
        }
    }

    mutating func move(_ id: String, parent: String?, index: Int?) throws(CoreError) {
        let node = try existing(id, field: "id")
        guard id != World.rootID else { throw .applicationFixed(id, removal: false) }
        let newParent = try parentNode(parent)
        if let parent, world.isAncestor(id, of: parent) {
            throw .cycle(id, parent: parent)
        }
        if let rule = Placement.kindError(child: node.kind, parent: newParent?.kind) {
            throw .misplaced(id, parent: parent, rule: rule)
        }
        // Detach from the old place.
        if let old = node.parent {
            save(old)
            world.nodes.removeChild(id, from: old)
            toCheck[old] = opIndex
        } else {
            saveDetached()
            world.detachedRoots.removeAll { $0 == id }
        }
        let count = parent.map { world.nodes[$0]!.children.count } ?? world.detachedRoots.count
        let position = try checkIndex(index, count: count)
        place(id, under: parent, at: position)
        save(id)
        world.nodes.setParent(parent, of: id)
        // Re-derive depths below the moved node.
        let delta = ((newParent?.depth ?? -1) + 1) - node.depth
        if delta != 0 {
            for d in world.subtree(id) {
                save(d)
                world.nodes[d]!.depth += delta
                if world.nodes[d]!.depth > limits.maxDepth {
                    throw .tooDeep(d, max: limits.maxDepth)
                }
            }
        }
        if node.kind == .window { touchKey() }
        markChanged(id)
    }

    mutating func update(_ id: String, set: NodeUpdate) throws(CoreError) {
        var node = try existing(id, field: "id")
        let fresh = NodeSpec(id: id, kind: node.kind)
        for assignment in set.assignments {
            let field = NodeField.named(assignment.name)!
            guard field.applies(to: node.kind) else {
                throw .fieldNotApplicable(id, field: assignment.name, kind: node.kind)
            }
            field.copy(from: assignment.reset ? fresh : set.values, into: &node.spec)
        }
        // 8.6: the class and its fields must agree once the whole update is in.
        if let (field, message) = node.spec.classFieldError() {
            throw .classMismatch(id, field: field, reason: message)
        }
        save(id)
        world.nodes[id] = node
        if set.assignments.contains(where: { $0.name == "key" }) { touchKey() }
        if set.assignments.contains(where: { $0.name == "gestureRecognizers" }), !node.gestureRecognizers.isEmpty {
            recognizerPaths[id] = (opIndex, "ops[\(opIndex)].set.gestureRecognizers")
        }
        markChanged(id)
    }

    /// Rules about siblings and counts hold only for the finished batch (a viewController and its root view
    /// may arrive in separate ops); errors name the last op that touched the offending node.
    func checkInvariants() throws(CoreError) {
        for (id, index) in toCheck.sorted(by: { $0.value < $1.value }) {
            if let error = Placement.invariantError(id, in: world) { throw .afterOp(index, error) }
        }
        if keyTouched {
            let keys = world.windows.filter { world.nodes[$0]!.key }
            if keys.count > 1 {
                throw .afterOp(keyOpIndex, .severalKeyWindows(keys: keys))
            }
        }
    }
}
