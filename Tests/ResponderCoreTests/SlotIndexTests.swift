import Testing

@testable import ResponderCore

/// The node table's id index: open addressing whose removals shift entries back. Hashes are given
/// directly here, drawn from a handful of values so that runs collide, wrap past the end of the array and are
/// broken by removals — what the string hash makes rare and a model check must not.
@Suite struct SlotIndexTests {
    @Test func collidingInsertsReusesAndRemovalsMatchAModel() {
        var rng = SeededRandom(state: 0x51_07)
        var index = SlotIndex()
        var model: [Int: UInt32] = [:]  // slot → hash
        // The last hashes' home positions are at the end of a 16-, 32- or 64-entry array, so their runs wrap to 0.
        let hashes: [UInt32] = [0, 1, 2, 3, 14, 15, 30, 31, 62, 0xFFFF_FFFF]
        var nextSlot = 0
        // A model entry picked by the seeded generator (a dictionary's own order changes between processes).
        func pick() -> (Int, UInt32)? {
            let slots = model.keys.sorted()
            guard !slots.isEmpty else { return nil }
            let slot = slots[Int(rng.next() % UInt64(slots.count))]
            return (slot, model[slot]!)
        }
        for step in 0..<10_000 {
            let op = rng.next() % 5
            if op < 2 && model.count < 40 {
                let hash = hashes[Int(rng.next() % UInt64(hashes.count))]
                index.insert(hash, slot: nextSlot)
                model[nextSlot] = hash
                nextSlot += 1
            } else if op == 2, let (slot, hash) = pick() {
                // A slot freed and taken again by another id under the same hash.
                index.remove(hash, slot: slot)
                let other = hashes[Int(rng.next() % UInt64(hashes.count))]
                index.insert(other, slot: slot)
                model[slot] = other
            } else if let (slot, hash) = pick() {
                index.remove(hash, slot: slot)
                model[slot] = nil
            }
            guard index.count == model.count else {
                Issue.record("step \(step): count \(index.count), model \(model.count)")
                return
            }
            for (slot, hash) in model where index.find(hash, { $0 == slot }) != slot {
                Issue.record("step \(step): slot \(slot) under \(hash) is not found")
                return
            }
            // Gone slots are not found, under their hash or any other.
            for hash in hashes where index.find(hash, { model[$0] == nil }) != nil {
                Issue.record("step \(step): a removed slot is found under \(hash)")
                return
            }
        }
    }

    @Test func growingKeepsEveryEntry() {
        var index = SlotIndex()
        for slot in 0..<10_000 { index.insert(UInt32(truncatingIfNeeded: slot &* 7919), slot: slot) }
        for slot in stride(from: 0, to: 10_000, by: 37) {
            #expect(index.find(UInt32(truncatingIfNeeded: slot &* 7919)) { $0 == slot } == slot)
        }
        #expect(index.find(7919 * 10_001) { _ in true } == nil)
    }

    @Test func anIdHashesTheSameWhateverItsStorage() {
        let long = "window-1/panel-3/group-4/leaf-5"
        let built = ["window-1", "panel-3", "group-4", "leaf-5"].joined(separator: "/")
        let index = SlotIndex()
        #expect(index.hash(long) == index.hash(built))
        #expect(index.hash("leaf") == index.hash(String("xleaf".dropFirst())))
        #expect(index.hash("") == index.hash(String()))
        // As `==` compares: canonically equivalent ids hash alike, ASCII or not.
        #expect("\u{212A}" == "K" && index.hash("\u{212A}") == index.hash("K"))
        #expect(index.hash("caf\u{E9}-button") == index.hash("cafe\u{301}-button"))
        #expect(index.hash("caf\u{E9}") != index.hash("cafe"))
        // Lengths around the eight-byte steps, and ids that differ in one byte, hash apart.
        var seen: Set<UInt32> = []
        for n in 0..<40 { seen.insert(index.hash(String(repeating: "a", count: n))) }
        for i in 0..<2_000 { seen.insert(index.hash("view-\(i)")) }
        #expect(seen.count >= 2_038, "a 32-bit hash of 2,040 ids collides rarely")
    }

    /// Every scalar of Unicode that `==` calls equal to an ASCII character is one the hash maps to it, so an
    /// id made of ASCII and such scalars hashes as its ASCII equal does.
    @Test func everyScalarEqualToASCIIIsKnownToTheHash() {
        var asciiByHash: [Int: [UInt8]] = [:]
        for b in UInt8(0)..<0x80 { asciiByHash[String(UnicodeScalar(b)).hashValue, default: []].append(b) }
        var found: [UInt32: UInt8] = [:]
        for value in UInt32(0x80)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let text = String(scalar)
            for b in asciiByHash[text.hashValue] ?? [] where text == String(UnicodeScalar(b)) { found[value] = b }
        }
        #expect(found == SlotIndex.asciiSingletons)
        let index = SlotIndex()
        #expect("\u{212A}ey;\u{1FEF}" == "Key;`" && index.hash("\u{212A}ey\u{037E}\u{1FEF}") == index.hash("Key;`"))
        #expect(index.hash("\u{212A}\u{301}") == index.hash("\u{1E30}"), "K and a combining acute compose")
    }

    @Test func canonicallyEquivalentIdsAreOneNodeAsForADictionary() {
        var table = NodeTable()
        #expect(table.insertNew(Node(id: "K", kind: .view)) != nil)
        #expect(table.insertNew(Node(id: "\u{212A}", kind: .view)) == nil, "the Kelvin sign equals K")
        #expect(table.insertNew(Node(id: "cafe\u{301}", kind: .view)) != nil)
        #expect(table.read("caf\u{E9}") { $0.pointee.spec.id } == "cafe\u{301}")
        #expect(table.insertNew(Node(id: "a;b", kind: .view)) != nil)
        #expect(table.insertNew(Node(id: "a\u{037E}b", kind: .view)) == nil, "the Greek question mark equals ;")
        #expect(table.read("a\u{037E}b") { $0.pointee.spec.id } == "a;b")
    }

    @Test func tablesFindIdsThroughTheIndexAfterRemovalsMoveNodes() {
        var table = NodeTable()
        for i in 0..<3_000 { _ = table.insertNew(Node(id: "n\(i)", kind: .view)) }
        for i in stride(from: 0, to: 3_000, by: 3) { table["n\(i)"] = nil }
        #expect(table.count == 2_000)
        for i in 0..<3_000 { #expect(table.contains("n\(i)") == (i % 3 != 0), "n\(i)") }
    }
}

extension NodeTable {
    fileprivate func contains(_ id: String) -> Bool { slot(of: id) != nil }
}
