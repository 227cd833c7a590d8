/// The world's nodes by id: the nodes themselves in fixed-size chunks of slots, and an index from id to slot.
///
/// A `[String: Node]` keeps a whole node in every hash bucket, and a dictionary holds between 1⅓ and 2⅔ buckets
/// per entry, so every node's whole size would be paid once or twice over in empty buckets. Here an
/// index entry holds a hash and a slot number (`SlotIndex`), and each node, with its id, is stored once. Chunks
/// make a copy of the world cheap to keep: a copy shares every chunk, and a change to either copies only the
/// chunk it touches (the replay ring keeps a loaded world that way rather than as its text). Removal moves the
/// last node into the freed slot, so slots say nothing about order (neither did the dictionary).
public struct NodeTable: Sendable {
    private static let chunkShift = 10
    private static let chunkSize = 1 << chunkShift
    private static let chunkMask = chunkSize - 1

    private var chunks: [[Node?]] = []
    private var index = SlotIndex()

    init() {}

    public var count: Int { index.count }
    public var isEmpty: Bool { index.count == 0 }

    /// Room for `count` nodes without growing, so a load sizes the index once.
    mutating func reserveCapacity(_ count: Int) {
        chunks.reserveCapacity(count >> Self.chunkShift + 1)
        index.reserveCapacity(count)
    }

    /// The node `id`. Mutations through the subscript (`nodes[id]!.children.append(…)`) happen in place:
    /// the node is not copied out and back, which would copy its children array each time.
    public subscript(id: String) -> Node? {
        get {
            guard let slot = slot(of: id) else { return nil }
            return chunks[slot >> Self.chunkShift][slot & Self.chunkMask]
        }
        _modify {
            if let slot = slot(of: id) {
                yield &chunks[slot >> Self.chunkShift][slot & Self.chunkMask]
                if chunks[slot >> Self.chunkShift][slot & Self.chunkMask] == nil { removeSlot(slot, id: id) }
            } else {
                var added: Node? = nil
                yield &added
                if let added { _ = insertNew(added) }
            }
        }
        set {
            if let slot = slot(of: id) {
                if let newValue {
                    chunks[slot >> Self.chunkShift][slot & Self.chunkMask] = newValue
                } else {
                    removeSlot(slot, id: id)
                }
            } else if let newValue {
                _ = insertNew(newValue)
            }
        }
    }

    /// The slot of node `id` (valid until the next removal).
    @inline(__always)
    func slot(of id: String) -> Int? { slot(of: id, hash: index.hash(id)) }

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

    /// Adds `node` unless a node with its id exists: its new slot, or nil for a duplicate id. One hash of
    /// the id for the lookup and the insertion (a million-node load does this per node).
    mutating func insertNew(_ node: Node) -> Int? {
        precondition(index.count < Int(Int32.max), "NodeTable: too many nodes")
        let hash = index.hash(node.spec.id)
        guard slot(of: node.spec.id, hash: hash) == nil else { return nil }
        let slot = index.count
        index.insert(hash, slot: slot)
        if slot & Self.chunkMask == 0 {
            var chunk: [Node?] = []
            chunk.reserveCapacity(Self.chunkSize)
            chunks.append(chunk)
        }
        chunks[chunks.count - 1].append(node)
        return slot
    }

    /// Appends `child` to the children of the node in `slot`, in place.
    mutating func appendChild(_ child: String, toSlot slot: Int) {
        chunks[slot >> Self.chunkShift][slot & Self.chunkMask]!.children.append(child)
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
        return chunks.withUnsafeBufferPointer { outer in
            outer[slot >> Self.chunkShift].withUnsafeBufferPointer {
                Self.borrow($0.baseAddress! + (slot & Self.chunkMask), body)
            }
        }
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
    static let hasNoTag = MemoryLayout<Node?>.size == MemoryLayout<Node>.size

    /// Every id, in no particular order.
    public var keys: [String] {
        var out: [String] = []
        out.reserveCapacity(count)
        forEach { out.append($0.pointee.spec.id) }
        return out
    }

    /// Calls `body` on every node in place, in no particular order.
    mutating func updateEach(_ body: (inout Node) -> Void) {
        for c in chunks.indices {
            for j in chunks[c].indices { body(&chunks[c][j]!) }
        }
    }

    func forEach(_ body: (UnsafePointer<Node>) -> Void) {
        for chunk in chunks {
            chunk.withUnsafeBufferPointer { buffer in
                for j in buffer.indices { Self.borrow(buffer.baseAddress! + j, body) }
            }
        }
    }

    private mutating func removeSlot(_ slot: Int, id: String) {
        index.remove(index.hash(id), slot: slot)
        let last = index.count  // the count before the removal, less one
        let lastChunk = last >> Self.chunkShift
        if slot != last {
            let moved = chunks[lastChunk][last & Self.chunkMask]!
            index.move(index.hash(moved.spec.id), from: last, to: slot)
            chunks[slot >> Self.chunkShift][slot & Self.chunkMask] = moved
        }
        chunks[lastChunk].removeLast()
        if chunks[lastChunk].isEmpty { chunks.removeLast() }
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
