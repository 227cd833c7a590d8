/// The world's nodes by id: the nodes themselves in one contiguous array and an index from id to slot.
///
/// A `[String: Node]` keeps a whole node in every hash bucket, and a dictionary holds between 1⅓ and 2⅔ buckets
/// per entry: at a million nodes that alone was most of the 2,300 bytes a node cost (issue 15, goal 3). Here a
/// bucket holds an id and a slot number, and each node is stored once. Removal moves the last node into the freed
/// slot, so slots say nothing about order (neither did the dictionary).
public struct NodeTable: Sendable {
    private var slots: [Node?] = []
    private var index: [String: Int32] = [:]

    init() {}

    public var count: Int { slots.count }
    public var isEmpty: Bool { slots.isEmpty }

    /// Room for `count` nodes without growing, so a load sizes both halves once.
    mutating func reserveCapacity(_ count: Int) {
        slots.reserveCapacity(count)
        index.reserveCapacity(count)
    }

    /// The node `id`. Mutations through the subscript (`nodes[id]!.children.append(…)`) happen in place:
    /// the node is not copied out and back, which would copy its children array each time.
    public subscript(id: String) -> Node? {
        get {
            guard let i = index[id] else { return nil }
            return slots[Int(i)]
        }
        _modify {
            if let i = index[id] {
                let slot = Int(i)
                yield &slots[slot]
                if slots[slot] == nil { removeSlot(slot, id: id) }
            } else {
                var added: Node? = nil
                yield &added
                if let added { append(added, id: id) }
            }
        }
        set {
            if let i = index[id] {
                if let newValue { slots[Int(i)] = newValue } else { removeSlot(Int(i), id: id) }
            } else if let newValue {
                append(newValue, id: id)
            }
        }
    }

    /// The slot of node `id` (valid until the next removal).
    func slot(of id: String) -> Int? { index[id].map(Int.init) }

    /// Adds `node` unless a node with its id exists: its new slot, or nil for a duplicate id. One hash of
    /// the id, where a lookup followed by an insertion is two (a million-node load does this per node).
    mutating func insertNew(_ node: Node) -> Int? {
        precondition(slots.count < Int(Int32.max), "NodeTable: too many nodes")
        let before = index.count
        let slot = Int32(slots.count)
        Self.touch(&index[node.spec.id, default: slot])
        guard index.count > before else { return nil }
        slots.append(node)
        return Int(slot)
    }

    @inline(__always) private static func touch(_ value: inout Int32) {}

    /// Appends `child` to the children of the node in `slot`, in place.
    mutating func appendChild(_ child: String, toSlot slot: Int) {
        slots[slot]!.children.append(child)
    }

    /// `body` of node `id`, read in place (no copy of the node, no retain of its fields).
    @inline(__always)
    func read<R>(_ id: String, _ body: (borrowing Node) -> R) -> R? {
        guard let i = index[id] else { return nil }
        return slots.withUnsafeBufferPointer { body($0[Int(i)]!) }
    }

    /// Every id, in no particular order.
    public var keys: [String] { slots.map { $0!.id } }

    /// Calls `body` on every node in place, in no particular order.
    mutating func updateEach(_ body: (inout Node) -> Void) {
        for i in slots.indices { body(&slots[i]!) }
    }

    func forEach(_ body: (borrowing Node) -> Void) {
        slots.withUnsafeBufferPointer { buffer in
            for i in buffer.indices { body(buffer[i]!) }
        }
    }

    private mutating func append(_ node: Node, id: String) {
        precondition(slots.count < Int(Int32.max), "NodeTable: too many nodes")
        index[id] = Int32(slots.count)
        slots.append(node)
    }

    private mutating func removeSlot(_ slot: Int, id: String) {
        index.removeValue(forKey: id)
        let last = slots.count - 1
        if slot != last {
            slots.swapAt(slot, last)
            index[slots[slot]!.id] = Int32(slot)
        }
        slots.removeLast()
    }
}

extension NodeTable: Equatable {
    /// The same nodes by id, whatever their slots.
    public static func == (lhs: NodeTable, rhs: NodeTable) -> Bool {
        guard lhs.count == rhs.count else { return false }
        for slot in lhs.slots {
            let node = slot!
            guard let i = rhs.index[node.id], rhs.slots[Int(i)] == node else { return false }
        }
        return true
    }
}
