/// The world's nodes by id: the nodes themselves in fixed-size chunks of slots, and an index from id to slot.
///
/// A `[String: Node]` keeps a whole node in every hash bucket, and a dictionary holds between 1⅓ and 2⅔ buckets
/// per entry, so every node's whole size would be paid once or twice over in empty buckets. Here an
/// index entry holds a hash and a slot number (`SlotIndex`), and each node, with its id, is stored once. Chunks
/// make a copy of the world cheap to keep: a copy shares every chunk, and a change to either copies only the
/// chunk it touches (the replay ring keeps a loaded world that way rather than as its text). A node keeps its
/// slot for as long as it is in the table: a removal frees the slot, which goes on a free list for the next
/// node added, and moves no other node — so nothing that names a slot needs finding and changing but the
/// removed node's own referrers. Slots say nothing about order (neither did the dictionary).
///
/// Beside the ids, the table keeps the structure by slot: each slot's parent slot and its children's slots, in
/// the children's order (-1 where the id names no node in the table). A walk over them (the hit test) reads
/// node after node with no hashing of ids and no strings or arrays retained per node. The table keeps them
/// equal to what the nodes' `parent` and `children` say through every change, whichever way it is made: the
/// structural changes below (`insertChild`, `removeChild`, `setParent`, `removeSubtree`) update both sides at
/// once; a node written whole has its own slots derived again when its structure differs; its children learn
/// its slot when it arrives, and the slots naming it become -1 when it leaves; a batch put back (`restore`) has
/// them derived again around what it put back. A free slot holds no node, -1 as its parent and no children.
///
/// Beside each node the table keeps its `HitRecord`, the hit test's point-free answers about it, made again
/// wherever a node is written: added, replaced, changed through the subscript, or put back.
/// The structural changes leave it be: it says nothing of parent or children. A free slot's record is empty.
public struct NodeTable: Sendable {
    private static let chunkShift = 10
    private static let chunkSize = 1 << chunkShift
    private static let chunkMask = chunkSize - 1

    private var chunks: [[Node?]] = []
    /// Per slot, chunked as `chunks`: the parent's slot, and the children's slots.
    private var parentSlots: [[Int32]] = []
    private var childSlots: [[[Int32]]] = []
    /// Per slot, chunked as `chunks`: the node's `HitRecord`.
    private var hitRecords: [[HitRecord]] = []
    /// The slots that hold no node, the most recently freed last: the next node added takes the last one.
    private var freeSlots: [Int32] = []
    private var index = SlotIndex()

    init() {}

    public var count: Int { index.count }
    public var isEmpty: Bool { index.count == 0 }

    /// Room for `count` nodes without growing, so a load sizes the index once.
    mutating func reserveCapacity(_ count: Int) {
        let chunkCount = count >> Self.chunkShift + 1
        chunks.reserveCapacity(chunkCount)
        parentSlots.reserveCapacity(chunkCount)
        childSlots.reserveCapacity(chunkCount)
        hitRecords.reserveCapacity(chunkCount)
        index.reserveCapacity(count)
    }

    /// The node `id`. Mutations through the subscript (`nodes[id]!.revision = …`) happen in place: the node is
    /// not copied out and back. A change to `parent` or `children` this way has the node's slots derived again
    /// (hashing each id); the structural methods below change both sides directly.
    public subscript(id: String) -> Node? {
        get {
            guard let slot = slot(of: id) else { return nil }
            return chunks[slot >> Self.chunkShift][slot & Self.chunkMask]
        }
        _modify {
            if let slot = slot(of: id) {
                let c = slot >> Self.chunkShift, j = slot & Self.chunkMask
                let parent = chunks[c][j]!.parent
                let children = chunks[c][j]!.children
                yield &chunks[c][j]
                if chunks[c][j] == nil {
                    removeSlot(slot, id: id)
                } else {
                    hitRecords[c][j] = HitRecord(chunks[c][j]!.spec)
                    relinkIfChanged(slot, parent: parent, children: children)
                }
            } else {
                var added: Node? = nil
                yield &added
                if let added { _ = insertNew(added) }
            }
        }
        set {
            if let slot = slot(of: id) {
                if let newValue {
                    let c = slot >> Self.chunkShift, j = slot & Self.chunkMask
                    let parent = chunks[c][j]!.parent
                    let children = chunks[c][j]!.children
                    chunks[c][j] = newValue
                    hitRecords[c][j] = HitRecord(newValue.spec)
                    relinkIfChanged(slot, parent: parent, children: children)
                } else {
                    removeSlot(slot, id: id)
                }
            } else if let newValue {
                _ = insertNew(newValue)
            }
        }
    }

    /// The slot of node `id` (its own until it is removed).
    @inline(__always)
    func slot(of id: String) -> Int? { slot(of: id, hash: index.hash(id)) }

    /// The slot of node `id`, tried first at `guess` (a slot it was seen in before): a node keeps its slot while
    /// it is in the table, so the guess is usually right and is checked by comparing one id, with no hash. A
    /// wrong guess (the node removed, the slot free or reused) is looked up the general way.
    @inline(__always)
    func slot(of id: String, guess: Int) -> Int? {
        if holdsNode(guess), read(slot: guess, { $0.pointee.spec.id == id }) { return guess }
        return slot(of: id)
    }

    @inline(__always)
    private func slot(of id: String, hash: UInt32) -> Int? {
        index.find(hash) { slot in
            chunks.withUnsafeBufferPointer { outer in
                outer[slot >> Self.chunkShift].withUnsafeBufferPointer {
                    Self.borrow($0.baseAddress! + (slot & Self.chunkMask)) { $0.pointee.spec.id == id }
                }
            }
        }
    }

    /// The slot of `id` as the structure stores it: -1 for no id or one that names no node.
    private func storedSlot(of id: String?) -> Int32 {
        guard let id, let slot = slot(of: id) else { return -1 }
        return Int32(truncatingIfNeeded: slot)
    }

    /// Adds `node` unless a node with its id exists: its new slot, or nil for a duplicate id. Its parent's and
    /// children's slots are found by their ids, and its children that name it as their parent learn its slot.
    /// Its parent is not searched for it: a node arrives before its parent lists it (`insertChild`), except when
    /// a batch is put back (`restore`, which derives the slots around what it put back).
    mutating func insertNew(_ node: Node) -> Int? {
        guard let slot = append(node, parentSlot: -1) else { return nil }
        relinkOwn(slot)
        linkReferrers(of: slot)
        return slot
    }

    /// `insertNew` for a load, which puts nodes in parents first: `node` has no children yet, its parent is in
    /// `parentSlot` (-1: none), and the parent does not list it yet (`appendChild` does next). One hash of the
    /// id for the lookup and the insertion, and none of the parent's (a million-node load does this per node).
    /// `childCapacity`: the children it will have, for room made once.
    /// `hash`: the id's `hash(of:)`, when the caller has it already.
    mutating func insertNew(_ node: Node, hash: UInt32? = nil, parentSlot: Int32, childCapacity: Int = 0) -> Int? {
        precondition(node.children.isEmpty, "NodeTable: a node put in by its parent's slot has no children yet")
        return append(node, hash: hash, parentSlot: parentSlot, childCapacity: childCapacity)
    }

    /// The index's hash of `id`, for `prefetch(hash:)` and `insertNew(_:hash:parentSlot:childCapacity:)`.
    func hash(of id: String) -> UInt32 { index.hash(id) }

    /// Asks for the index entry of an id with `hash` to be brought into the cache: a load that inserts a
    /// million ids knows the next ones, and asking a few ahead overlaps their cache misses (a hint only).
    func prefetch(hash: UInt32) { index.prefetch(hash) }

    private mutating func append(_ node: Node, hash: UInt32? = nil, parentSlot: Int32, childCapacity: Int = 0)
        -> Int?
    {
        let hash = hash ?? index.hash(node.spec.id)
        guard slot(of: node.spec.id, hash: hash) == nil else { return nil }
        var children: [Int32] = []
        if childCapacity > 0 { children.reserveCapacity(childCapacity) }
        if let free = freeSlots.popLast() {
            let slot = Int(free)
            index.insert(hash, slot: slot)
            let c = slot >> Self.chunkShift, j = slot & Self.chunkMask
            chunks[c][j] = node
            parentSlots[c][j] = parentSlot
            childSlots[c][j] = children
            hitRecords[c][j] = HitRecord(node.spec)
            return slot
        }
        let slot = slotCount
        precondition(slot < Int(Int32.max), "NodeTable: too many nodes")
        index.insert(hash, slot: slot)
        if slot & Self.chunkMask == 0 {
            var chunk: [Node?] = []
            chunk.reserveCapacity(Self.chunkSize)
            chunks.append(chunk)
            var parents: [Int32] = []
            parents.reserveCapacity(Self.chunkSize)
            parentSlots.append(parents)
            var children: [[Int32]] = []
            children.reserveCapacity(Self.chunkSize)
            childSlots.append(children)
            var records: [HitRecord] = []
            records.reserveCapacity(Self.chunkSize)
            hitRecords.append(records)
        }
        chunks[chunks.count - 1].append(node)
        parentSlots[parentSlots.count - 1].append(parentSlot)
        childSlots[childSlots.count - 1].append(children)
        hitRecords[hitRecords.count - 1].append(HitRecord(node.spec))
        return slot
    }

    /// The slots made so far, holding a node or free: every slot is below it.
    var slotCount: Int { chunks.isEmpty ? 0 : (chunks.count - 1) << Self.chunkShift + chunks[chunks.count - 1].count }

    /// Whether `slot` holds a node.
    func holdsNode(_ slot: Int) -> Bool {
        guard slot >= 0 && slot < slotCount else { return false }
        // Its case asked where it is stored: `chunks[c][j] != nil` would copy the node out to compare it.
        return chunks.withUnsafeBufferPointer { outer in
            outer[slot >> Self.chunkShift].withUnsafeBufferPointer { inner in
                if case .none = (inner.baseAddress! + (slot & Self.chunkMask)).pointee { return false }
                return true
            }
        }
    }

    /// Lists the nodes in `slots` (placed parents first, each without its children) among their parents'
    /// children, in that order, each parent's lists first made room for at its number of children in `counts`
    /// (one per slot of `slots`): appended as they came, a view's ten children would take room for sixteen.
    mutating func giveChildren(slots: [Int32], counts: [Int32]) {
        for (slot, n) in zip(slots, counts) where n > 0 {
            let c = Int(slot) >> Self.chunkShift, j = Int(slot) & Self.chunkMask
            chunks[c][j]!.children.reserveCapacity(chunks[c][j]!.children.count + Int(n))
            childSlots[c][j].reserveCapacity(childSlots[c][j].count + Int(n))
        }
        for slot in slots {
            let parent = Int(parentSlot(ofSlot: Int(slot)))
            guard parent >= 0 else { continue }
            let id = read(slot: Int(slot)) { $0.pointee.spec.id }
            appendChild(id, childSlot: Int(slot), toSlot: parent)
        }
    }

    /// Appends `child`, stored in `childSlot`, to the children of the node in `slot`, in place.
    mutating func appendChild(_ child: String, childSlot: Int, toSlot slot: Int) {
        let c = slot >> Self.chunkShift, j = slot & Self.chunkMask
        chunks[c][j]!.children.append(child)
        childSlots[c][j].append(Int32(truncatingIfNeeded: childSlot))
    }

    // MARK: - Structural changes, both sides at once

    /// Puts `child` among the children of `parent` at `position` (nil: last).
    mutating func insertChild(_ child: String, at position: Int? = nil, into parent: String) {
        let slot = slot(of: parent)!
        let c = slot >> Self.chunkShift, j = slot & Self.chunkMask
        let stored = storedSlot(of: child)
        let at = position ?? chunks[c][j]!.children.count
        chunks[c][j]!.children.insert(child, at: at)
        childSlots[c][j].insert(stored, at: at)
    }

    /// Takes `child` out of the children of `parent`.
    mutating func removeChild(_ child: String, from parent: String) {
        let slot = slot(of: parent)!
        let c = slot >> Self.chunkShift, j = slot & Self.chunkMask
        var i = chunks[c][j]!.children.count - 1
        while i >= 0 {
            if chunks[c][j]!.children[i] == child {
                chunks[c][j]!.children.remove(at: i)
                childSlots[c][j].remove(at: i)
            }
            i -= 1
        }
    }

    /// Sets the parent of node `id`.
    mutating func setParent(_ parent: String?, of id: String) {
        let slot = slot(of: id)!
        let c = slot >> Self.chunkShift, j = slot & Self.chunkMask
        chunks[c][j]!.parent = parent
        parentSlots[c][j] = storedSlot(of: parent)
    }

    /// Removes node `id` and everything below it: the nodes taken out, parents first and children in their
    /// order (as `World.subtree` lists them). The parent's entry for `id` is taken out of its children, found
    /// by slot; a node with no parent is the caller's to take off its list. Each slot is freed where it is,
    /// with no other node moved, and below the root every referrer of a removed node is removed too, so the
    /// only slot list searched is the parent's, up to the root's position.
    mutating func removeSubtree(_ id: String) -> [Node] {
        guard let root = slot(of: id) else { return [] }
        let p = Int(parentSlots[root >> Self.chunkShift][root & Self.chunkMask])
        if p >= 0 {
            let pc = p >> Self.chunkShift, pj = p & Self.chunkMask
            let stored = Int32(truncatingIfNeeded: root)
            if let i = childSlots[pc][pj].firstIndex(of: stored), chunks[pc][pj]!.children[i] == id {
                childSlots[pc][pj].remove(at: i)
                chunks[pc][pj]!.children.remove(at: i)
            } else {
                removeChild(id, from: chunks[pc][pj]!.spec.id)
            }
        }
        var gone: [Node] = []
        var stack = [Int32(truncatingIfNeeded: root)]
        while let top = stack.popLast() {
            let slot = Int(top)
            let c = slot >> Self.chunkShift, j = slot & Self.chunkMask
            let node = chunks[c][j]!
            for child in childSlots[c][j].reversed() where child >= 0 { stack.append(child) }
            index.remove(index.hash(node.spec.id), slot: slot)
            free(slot)
            gone.append(node)
        }
        return gone
    }

    // MARK: - Reading by slot

    /// `body` of the node in `slot`, read in place (as `read(_:_:)`). The slot must hold a node.
    @inline(__always)
    func read<R>(slot: Int, _ body: (UnsafePointer<Node>) -> R) -> R {
        chunks.withUnsafeBufferPointer { outer in
            outer[slot >> Self.chunkShift].withUnsafeBufferPointer {
                Self.borrow($0.baseAddress! + (slot & Self.chunkMask), body)
            }
        }
    }

    /// The slot of the application: the first node of every world, which is never removed, and a load replaces
    /// it in place, so it keeps slot 0. Looked up by id in a table made otherwise (-1 without one).
    var applicationSlot: Int {
        if holdsNode(0), read(slot: 0, { $0.pointee.spec.id == World.rootID }) { return 0 }
        return slot(of: World.rootID) ?? -1
    }

    /// The address of the node in `slot`, for a walk over a table that does not change while it reads many
    /// nodes (the hit tester's world): valid only while this table is neither changed nor freed, as the
    /// storage of an array is. The slot must hold a node.
    @inline(__always)
    func unsafeNode(atSlot slot: Int) -> UnsafePointer<Node> {
        precondition(Self.hasNoTag, "NodeTable: a stored node is not at its slot's address")
        return chunks.withUnsafeBufferPointer { outer in
            outer[slot >> Self.chunkShift].withUnsafeBufferPointer {
                UnsafeRawPointer($0.baseAddress! + (slot & Self.chunkMask)).assumingMemoryBound(to: Node.self)
            }
        }
    }

    /// The hit test's record of the node in `slot` (`HitRecord`), read where it is stored.
    @inline(__always)
    func hitRecord(atSlot slot: Int) -> HitRecord {
        hitRecords.withUnsafeBufferPointer { outer in
            outer[slot >> Self.chunkShift].withUnsafeBufferPointer { $0[slot & Self.chunkMask] }
        }
    }

    /// The slot of the parent of the node in `slot` (-1: none).
    @inline(__always)
    func parentSlot(ofSlot slot: Int) -> Int32 { parentSlots[slot >> Self.chunkShift][slot & Self.chunkMask] }

    /// The slots of the children of the node in `slot`, in their order (-1 for an id that names no node).
    @inline(__always)
    func childSlots(ofSlot slot: Int) -> [Int32] { childSlots[slot >> Self.chunkShift][slot & Self.chunkMask] }

    /// The children's slots of the node in `slot`, where they are stored: valid, as `unsafeNode(atSlot:)`'s
    /// address is, only while this table is neither changed nor freed. The slot must hold a node.
    @inline(__always)
    func unsafeChildSlots(ofSlot slot: Int) -> UnsafeBufferPointer<Int32> {
        childSlots.withUnsafeBufferPointer { outer in
            outer[slot >> Self.chunkShift].withUnsafeBufferPointer { inner in
                inner[slot & Self.chunkMask].withUnsafeBufferPointer { $0 }
            }
        }
    }

    /// `body` of the children's slots of the node in `slot`, read where they are stored.
    @inline(__always)
    func withChildSlots<R>(ofSlot slot: Int, _ body: (UnsafeBufferPointer<Int32>) -> R) -> R {
        childSlots.withUnsafeBufferPointer { outer in
            outer[slot >> Self.chunkShift].withUnsafeBufferPointer { inner in
                inner[slot & Self.chunkMask].withUnsafeBufferPointer(body)
            }
        }
    }

    /// `body` of node `id`, read in place: `body` gets a pointer to the stored node, valid only during the call,
    /// and reads the fields it needs through it (`$0.pointee.spec.kind`) — each a load, and a retain only for the
    /// references it keeps.
    ///
    /// Why a pointer and not the node: a `Node` handed to a closure, even a `borrowing` one, is copied first (a
    /// `memcpy` of the whole node and a retain of each of its references, then the releases): the closure is
    /// opaque to the caller, which cannot otherwise promise the memory stays as it is. That copy would be most of
    /// what a read costs, and hit testing and touch delivery make dozens of reads.
    @inline(__always)
    func read<R>(_ id: String, _ body: (UnsafePointer<Node>) -> R) -> R? {
        guard let slot = slot(of: id) else { return nil }
        return read(slot: slot, body)
    }

    /// Hands `body` a pointer to the node stored at `slot`. A present `Node?` is the node itself at the same
    /// address — the optional keeps its nil in the node's spare bits, which `hasNoTag` checks — so the pointer
    /// is the slot's, rebound; otherwise (a layout this code does not expect) `body` reads a copy.
    @inline(__always)
    private static func borrow<R>(_ slot: UnsafePointer<Node?>, _ body: (UnsafePointer<Node>) -> R) -> R {
        guard hasNoTag else {
            let copy = slot.pointee!
            return withUnsafePointer(to: copy) { body($0) }
        }
        return UnsafeRawPointer(slot).withMemoryRebound(to: Node.self, capacity: 1) { body($0) }
    }

    /// Whether `Node?` stores nil without a tag byte of its own (checked by NodeTableTests too).
    /// Computed, so that it folds to a constant where it is asked (a stored static is a `swift_once` per read).
    static var hasNoTag: Bool { MemoryLayout<Node?>.size == MemoryLayout<Node>.size }

    /// Every id, in no particular order.
    public var keys: [String] {
        var out: [String] = []
        out.reserveCapacity(count)
        forEach { out.append($0.pointee.spec.id) }
        return out
    }

    /// Sets every node's revision in place, in no particular order (a world prepared at one revision and taken
    /// at another). No `HitRecord` reads the revision, so none is made again: making them again would be most of
    /// a million-view stamp (≈ 0.2 s).
    mutating func stampRevisions(_ revision: Int) {
        for c in chunks.indices {
            chunks[c].withUnsafeMutableBufferPointer { b in
                for j in b.indices where b[j] != nil { Self.modify(b.baseAddress! + j) { $0.revision = revision } }
            }
        }
    }

    /// `body` on the node in `slot` where it is stored (`slot` holds one): `slot.pointee!.revision = …` would copy
    /// the node out and back, a retain and a release for each of its strings and lists.
    @inline(__always)
    private static func modify(_ slot: UnsafeMutablePointer<Node?>, _ body: (inout Node) -> Void) {
        guard hasNoTag else { return body(&slot.pointee!) }
        UnsafeMutableRawPointer(slot).withMemoryRebound(to: Node.self, capacity: 1) { body(&$0.pointee) }
    }

    func forEach(_ body: (UnsafePointer<Node>) -> Void) {
        for chunk in chunks {
            chunk.withUnsafeBufferPointer { buffer in
                // Each slot's case asked where it is stored: `buffer[j] != nil` would copy every node out first.
                for j in buffer.indices {
                    if case .none = (buffer.baseAddress! + j).pointee { continue }
                    Self.borrow(buffer.baseAddress! + j, body)
                }
            }
        }
    }

    // MARK: - Keeping the slots equal to the ids

    /// Derives the slots of the node in `slot` again from its ids when its parent or children differ from
    /// `parent` and `children` (an unchanged children array is the same buffer: compared without its elements).
    private mutating func relinkIfChanged(_ slot: Int, parent: String?, children: [String]) {
        let c = slot >> Self.chunkShift, j = slot & Self.chunkMask
        if chunks[c][j]!.parent != parent || chunks[c][j]!.children != children { relinkOwn(slot) }
    }

    /// Derives the parent's and children's slots of the node in `slot` from their ids.
    private mutating func relinkOwn(_ slot: Int) {
        let c = slot >> Self.chunkShift, j = slot & Self.chunkMask
        let parent = chunks[c][j]!.parent
        let children = chunks[c][j]!.children
        parentSlots[c][j] = storedSlot(of: parent)
        childSlots[c][j] = children.map { storedSlot(of: $0) }
    }

    /// The node in `slot` has just arrived there: its children that name it as their parent store the slot.
    private mutating func linkReferrers(of slot: Int) {
        let c = slot >> Self.chunkShift, j = slot & Self.chunkMask
        let id = chunks[c][j]!.spec.id
        let stored = Int32(truncatingIfNeeded: slot)
        for child in childSlots[c][j] where child >= 0 {
            let k = Int(child)
            let kc = k >> Self.chunkShift, kj = k & Self.chunkMask
            if chunks[kc][kj]!.parent == id { parentSlots[kc][kj] = stored }
        }
    }

    /// The node in `slot` leaves it: the slots naming it (its parent's entry for it, its children's parent)
    /// store -1 instead. Its parent's list is searched whole: a removal through the subscript does this once;
    /// a subtree's removal (`removeSubtree`) does not.
    private mutating func unlinkReferrers(of slot: Int) {
        let c = slot >> Self.chunkShift, j = slot & Self.chunkMask
        let old = Int32(truncatingIfNeeded: slot)
        let p = Int(parentSlots[c][j])
        if p >= 0 {
            let pc = p >> Self.chunkShift, pj = p & Self.chunkMask
            for i in childSlots[pc][pj].indices where childSlots[pc][pj][i] == old { childSlots[pc][pj][i] = -1 }
        }
        for child in childSlots[c][j] where child >= 0 {
            let k = Int(child)
            let kc = k >> Self.chunkShift, kj = k & Self.chunkMask
            if parentSlots[kc][kj] == old { parentSlots[kc][kj] = -1 }
        }
    }

    /// Puts back the nodes a batch changed (nil: one it added), in any order, then derives the slots again
    /// around them: each node's own, its parent's and its children's. A node put back may take another slot
    /// than it had (and a freed slot may be taken again within the loop): whatever names it by slot is its
    /// parent or a child, derived again here. Kept in step one node at a time, a node put back could be searched
    /// for in a parent of thousands of children for each of its siblings.
    mutating func restore<Saved: Sequence<(key: String, value: Node?)>>(_ saved: Saved) {
        var touched: [String] = []
        for (id, node) in saved {
            touched.append(id)
            if let slot = slot(of: id) {
                if let node {
                    chunks[slot >> Self.chunkShift][slot & Self.chunkMask] = node
                    hitRecords[slot >> Self.chunkShift][slot & Self.chunkMask] = HitRecord(node.spec)
                } else {
                    removeSlot(slot, id: id, unlinking: false)
                }
            } else if let node {
                _ = append(node, parentSlot: -1)
            }
        }
        relink(around: touched)
    }

    /// Derives again the slots of the nodes `ids`, their parents and their children — after changes made
    /// in an order where a node may have named another that did not name it back.
    mutating func relink<IDs: Sequence<String>>(around ids: IDs) {
        var slots: Set<Int> = []
        for id in ids {
            guard let slot = slot(of: id) else { continue }
            slots.insert(slot)
            // The stored slots may be stale here: each is derived again if it still names a slot.
            let p = Int(parentSlot(ofSlot: slot))
            if holdsNode(p) { slots.insert(p) }
            if let p = read(slot: slot, { $0.pointee.parent }).flatMap({ self.slot(of: $0) }) { slots.insert(p) }
            for child in childSlots(ofSlot: slot) where holdsNode(Int(child)) { slots.insert(Int(child)) }
            // A child the node lists by id that did not have its slot yet.
            for child in read(slot: slot, { $0.pointee.children }) {
                if let k = self.slot(of: child) { slots.insert(k) }
            }
        }
        for slot in slots { relinkOwn(slot) }
    }

    /// Whether every node's stored slots are those its `parent` and `children` ids name and its hit record is
    /// the one its fields make, and the free list
    /// holds exactly the slots with no node, each once, with no structure of their own (tests check this).
    func slotsMatchIDs() -> Bool {
        var live = 0
        for c in chunks.indices {
            for j in chunks[c].indices {
                guard let node = chunks[c][j] else {
                    if parentSlots[c][j] != -1 || !childSlots[c][j].isEmpty || hitRecords[c][j] != HitRecord() {
                        return false
                    }
                    continue
                }
                live += 1
                if hitRecords[c][j] != HitRecord(node.spec) { return false }
                if parentSlots[c][j] != storedSlot(of: node.parent) { return false }
                if childSlots[c][j] != node.children.map({ storedSlot(of: $0) }) { return false }
            }
        }
        let free = Set(freeSlots)
        return live == count && free.count == freeSlots.count && live + free.count == slotCount
            && free.allSatisfy { !holdsNode(Int($0)) && $0 >= 0 && Int($0) < slotCount }
    }

    /// Removes the node `id` in `slot` and frees the slot. `unlinking`: the slots naming it become -1 (else the
    /// caller derives them again).
    private mutating func removeSlot(_ slot: Int, id: String, unlinking: Bool = true) {
        if unlinking { unlinkReferrers(of: slot) }
        index.remove(index.hash(id), slot: slot)
        free(slot)
    }

    /// Empties `slot` (its node, its structure) and puts it on the free list.
    private mutating func free(_ slot: Int) {
        let c = slot >> Self.chunkShift, j = slot & Self.chunkMask
        chunks[c][j] = nil
        parentSlots[c][j] = -1
        childSlots[c][j] = []
        hitRecords[c][j] = HitRecord()
        freeSlots.append(Int32(truncatingIfNeeded: slot))
    }
}

extension NodeTable: Equatable {
    /// The same nodes by id, whatever their slots.
    public static func == (lhs: NodeTable, rhs: NodeTable) -> Bool {
        guard lhs.count == rhs.count else { return false }
        var same = true
        lhs.forEach { node in
            guard same else { return }
            same = rhs.read(node.pointee.spec.id) { $0.pointee == node.pointee } ?? false
        }
        return same
    }
}
