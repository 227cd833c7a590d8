import CPrefetch

/// Node ids to their slots in a `NodeTable`: open addressing with linear probing over one array of 64-bit
/// entries, each the id's 32-bit hash and its slot. The ids themselves are not kept here — the table compares
/// against the id of the node in the slot — so an entry is 8 bytes where `[String: Int32]` spent 20 per bucket.
///
/// Why not a `Dictionary`: every lookup would pay for `Hasher` (SipHash-1-3, its seeding and finalisation) over
/// the id's bytes, hundreds of instructions, and a tap makes about 120 lookups.
/// Here the hash is a multiply-and-shift over eight bytes at a time with a per-process seed, and the stored hash
/// turns away almost every other id before a comparison.
struct SlotIndex: Sendable {
    /// High half: the hash; low half: slot + 1. Zero is an empty entry. The count is a power of two (or zero).
    private var entries: [UInt64] = []
    private(set) var count = 0

    /// The seed makes the positions differ between processes, so ids chosen to collide in one engine do not
    /// collide in the next (as `Hasher` does for `Dictionary`); nothing observable depends on it.
    private static let processSeed = UInt64.random(in: .min ... .max)
    /// The process's seed, kept here: read from the static on every hash, it would be a `swift_once` check per
    /// lookup (85 a tap).
    private let seed = SlotIndex.processSeed

    /// A hash under which ids `==` calls equal hash alike: `String` compares by canonical equivalence (a
    /// precomposed "é" equals "e" and a combining acute; "K" equals the Kelvin sign U+212A).
    ///
    /// An ASCII id hashes its bytes — ASCII text is its own normal form. Another id is equal to an ASCII one
    /// exactly when each of its scalars decomposes canonically to ASCII: of those that are not ASCII themselves,
    /// only three singletons do (`asciiSingletons`), so such an id hashes the bytes of its ASCII equivalent.
    /// Any other id hashes as `String.hashValue` does, which the standard library keeps consistent with `==`
    /// (and which no ASCII id ever uses).
    func hash(_ id: String) -> UInt32 {
        let fast = id.utf8.withContiguousStorageIfAvailable { bytes -> UInt32? in
            let (h, ascii) = hash(bytes: bytes)
            return ascii ? h : nil
        }
        if let fast, let h = fast { return h }
        var ascii: [UInt8] = []
        ascii.reserveCapacity(id.utf8.count)
        for scalar in id.unicodeScalars {
            if scalar.isASCII {
                ascii.append(UInt8(scalar.value))
            } else if let equivalent = Self.asciiSingletons[scalar.value] {
                ascii.append(equivalent)
            } else {
                return Self.finish(seed ^ UInt64(UInt(bitPattern: id.hashValue)))
            }
        }
        return ascii.withUnsafeBufferPointer { hash(bytes: $0).hash }
    }

    /// The scalars outside ASCII whose canonical decomposition is ASCII: KELVIN SIGN, GREEK QUESTION MARK and
    /// GREEK VARIA. (A test checks every scalar of Unicode against this list.)
    static let asciiSingletons: [UInt32: UInt8] = [
        0x212A: UInt8(ascii: "K"), 0x037E: UInt8(ascii: ";"), 0x1FEF: UInt8(ascii: "`")
    ]

    /// Eight bytes at a time; the last eight overlap the ones before when the length is not a multiple. Every
    /// load lies within `bytes` (the last starts at `n - 8`, and only when `n` ≥ 8).
    @inline(__always)
    private func hash(bytes: UnsafeBufferPointer<UInt8>) -> (hash: UInt32, ascii: Bool) {
        let n = bytes.count
        var h = seed ^ (UInt64(n) &* 0x9E37_79B9_7F4A_7C15)
        guard let base = bytes.baseAddress, n > 0 else { return (Self.finish(h), true) }
        var high: UInt64 = 0
        if n >= 8 {
            let raw = UnsafeRawPointer(base)
            var i = 0
            repeat {
                let word = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                high |= word
                h = Self.mix(h ^ word)
                i += 8
            } while i + 8 <= n
            if i < n {
                let word = raw.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self)
                high |= word
                h = Self.mix(h ^ word)
            }
        } else {
            var word: UInt64 = 0
            for j in 0..<n { word |= UInt64(base[j]) << UInt64(8 * j) }
            high = word
            h = Self.mix(h ^ word)
        }
        return (Self.finish(h), high & 0x8080_8080_8080_8080 == 0)
    }

    @inline(__always)
    private static func mix(_ x: UInt64) -> UInt64 {
        let h = x &* 0xBF58_476D_1CE4_E5B9
        return h ^ (h >> 31)
    }

    @inline(__always)
    private static func finish(_ x: UInt64) -> UInt32 {
        var h = x
        h ^= h >> 30
        h = h &* 0x94D0_49BB_1331_11EB
        h ^= h >> 31
        return UInt32(truncatingIfNeeded: h)
    }

    @inline(__always) private static func entry(_ hash: UInt32, _ slot: Int) -> UInt64 {
        UInt64(hash) << 32 | UInt64(UInt32(slot + 1))
    }
    @inline(__always) private static func hash(of entry: UInt64) -> UInt32 { UInt32(truncatingIfNeeded: entry >> 32) }
    @inline(__always) private static func slot(of entry: UInt64) -> Int { Int(UInt32(truncatingIfNeeded: entry)) - 1 }

    /// The slot stored under `hash` whose id `matches` says is the one looked for.
    @inline(__always)
    func find(_ hash: UInt32, _ matches: (Int) -> Bool) -> Int? {
        guard count > 0 else { return nil }
        return entries.withUnsafeBufferPointer { e in
            let mask = e.count - 1
            var i = Int(hash) & mask
            while true {
                let entry = e[i]
                if entry == 0 { return nil }
                if Self.hash(of: entry) == hash, matches(Self.slot(of: entry)) { return Self.slot(of: entry) }
                i = (i + 1) & mask
            }
        }
    }

    /// Asks for the entry where a lookup of `hash` starts to be brought into the cache (a hint: nothing
    /// changes). A large index is bigger than the cache, so a lookup at a random position waits on memory; a
    /// load that knows its next ids asks for their entries ahead, and the waits overlap.
    @inline(__always)
    func prefetch(_ hash: UInt32) {
        entries.withUnsafeBufferPointer { e in
            guard let base = e.baseAddress, !e.isEmpty else { return }
            responder_prefetch_for_write(base + (Int(hash) & (e.count - 1)))
        }
    }

    /// Adds `slot` under `hash`; the id must not be present.
    mutating func insert(_ hash: UInt32, slot: Int) {
        if (count + 1) * 4 > entries.count * 3 { resize(to: Swift.max(16, entries.count * 2)) }
        Self.place(Self.entry(hash, slot), in: &entries)
        count += 1
    }

    /// Room for `capacity` ids without growing (at most three quarters full).
    mutating func reserveCapacity(_ capacity: Int) {
        var size = Swift.max(16, entries.count)
        while capacity * 4 > size * 3 { size *= 2 }
        if size > entries.count { resize(to: size) }
    }

    /// Removes the id stored under `hash` at `slot`. Later entries of the same run move back into the gap
    /// when their home position allows it (backward-shift deletion), so there are no tombstones and a lookup
    /// still stops at the first empty entry.
    mutating func remove(_ hash: UInt32, slot: Int) {
        var gap = position(of: Self.entry(hash, slot))
        count -= 1
        entries.withUnsafeMutableBufferPointer { e in
            let mask = e.count - 1
            var j = gap
            while true {
                j = (j + 1) & mask
                let entry = e[j]
                if entry == 0 { break }
                let home = Int(Self.hash(of: entry)) & mask
                // The entry may stay where it is when its home lies cyclically in (gap, j].
                let stays = gap <= j ? (gap < home && home <= j) : (gap < home || home <= j)
                if !stays {
                    e[gap] = entry
                    gap = j
                }
            }
            e[gap] = 0
        }
    }

    private func position(of entry: UInt64) -> Int {
        let mask = entries.count - 1
        var i = Int(Self.hash(of: entry)) & mask
        while entries[i] != entry {
            precondition(entries[i] != 0, "SlotIndex: no such entry")
            i = (i + 1) & mask
        }
        return i
    }

    private static func place(_ entry: UInt64, in entries: inout [UInt64]) {
        let mask = entries.count - 1
        var i = Int(hash(of: entry)) & mask
        while entries[i] != 0 { i = (i + 1) & mask }
        entries[i] = entry
    }

    private mutating func resize(to size: Int) {
        var grown = [UInt64](repeating: 0, count: size)
        for entry in entries where entry != 0 { Self.place(entry, in: &grown) }
        entries = grown
    }
}
