/// The responders a walk up the chain has passed, so that a cycle (a `presentedBy` loop) stops it (N4).
///
/// A chain is a handful of responders: the first ones are compared in a small array, and only a long chain
/// (a deep tree) moves to a set. A `Set<String>` from the first step would hash every id with SipHash and grow
/// three times on the way, and a tap walks a chain three times.
struct CycleGuard {
    private static let few = 16
    private var recent: [String] = []
    private var many: Set<String> = []

    init() { recent.reserveCapacity(Self.few) }

    /// Whether `id` is passed for the first time (and notes it).
    mutating func firstPass(_ id: String) -> Bool {
        if recent.count < Self.few {
            guard !recent.contains(id) else { return false }
            recent.append(id)
            return true
        }
        if many.isEmpty { many = Set(recent) }
        return many.insert(id).inserted
    }
}

/// `CycleGuard` for a walk that goes by slot (`Responders.Hop`). The first hops are kept inline as integers, so a
/// walk of a handful of responders allocates nothing and compares no strings; a long one moves to a set.
struct HopGuard {
    private static let few = 8
    private var recent: (Int, Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0, 0)
    private var count = 0
    private var many: Set<Int> = []

    /// Whether `hop` is passed for the first time (and notes it).
    mutating func firstPass(_ hop: Responders.Hop) -> Bool {
        // A slot of the world, or one of the nodes before the change below zero.
        let key = hop.removed ? -1 - hop.slot : hop.slot
        if count < Self.few {
            let count = count
            let repeated = withUnsafeMutablePointer(to: &recent) { tuple in
                tuple.withMemoryRebound(to: Int.self, capacity: Self.few) { keys in
                    for i in 0..<count where keys[i] == key { return true }
                    keys[count] = key
                    return false
                }
            }
            if repeated { return false }
            self.count += 1
            return true
        }
        if many.isEmpty {
            let first = withUnsafePointer(to: recent) { tuple in
                tuple.withMemoryRebound(to: Int.self, capacity: Self.few) {
                    Set(UnsafeBufferPointer(start: $0, count: Self.few))
                }
            }
            many = first
        }
        return many.insert(key).inserted
    }
}
