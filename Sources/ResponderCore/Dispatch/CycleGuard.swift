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
