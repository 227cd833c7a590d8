import ResponderJSON

extension HitVisit {
    /// `,"result":…,"reason":…,"rule":…,"point":`, the members between a visit's id and its point, kept for the
    /// visits of one reply as they are written: a reply's visits share few of these (a view missed outside its
    /// bounds, a view hit), and copying one kept is a fraction of writing its three members from their tables.
    /// Lives in room on the writer's stack (`withAfterIDFragments`) for one reply.
    package struct AfterIDFragments: ~Copyable {
        /// How many texts are kept, and the most each takes: past that the oldest is replaced, and a longer text
        /// is written each time.
        static var slots: Int { 4 }
        static var slotRoom: Int { 96 }

        /// Invariant: `room` is `slots * slotRoom` bytes lent for the fragments' life; slot `i` holds
        /// `lengths[i]` bytes of the text of `keys[i]`, or its key is zero, which no visit's is.
        let room: UnsafeMutablePointer<UInt8>
        var keys: (UInt32, UInt32, UInt32, UInt32) = (0, 0, 0, 0)
        var lengths: (Int, Int, Int, Int) = (0, 0, 0, 0)
        var next = 0
        let tables = AfterIDTables()

        init(room: UnsafeMutablePointer<UInt8>) { self.room = room }

        /// The members after a visit's id and up to its point's value, then the point.
        package mutating func write(
            result: HitResult, reason: HitReason?, rule: Rule, point: Point?, to c: inout JSONCursor
        ) {
            // Three small indices in one word; the top bit set so that no key is the zero of an unused slot.
            let key =
                UInt32(1 << 31) | UInt32(truncatingIfNeeded: result.quotedIndex)
                | UInt32(truncatingIfNeeded: reason.map { $0.quotedIndex + 1 } ?? 0) << 8
                | UInt32(truncatingIfNeeded: rule.quotedIndex) << 16
            if let slot = slot(of: key) {
                c.raw(quoted: room + slot * Self.slotRoom, length(slot))
            } else {
                let start = c.position
                HitVisit.writeBeforePoint(result: result, reason: reason, rule: rule, tables: tables, to: &c)
                keep(key, start, c.position - start)
            }
            c.point(point)
        }

        @inline(__always)
        func slot(of key: UInt32) -> Int? {
            if keys.0 == key { return 0 }
            if keys.1 == key { return 1 }
            if keys.2 == key { return 2 }
            if keys.3 == key { return 3 }
            return nil
        }

        @inline(__always)
        func length(_ slot: Int) -> Int {
            switch slot {
            case 0: lengths.0
            case 1: lengths.1
            case 2: lengths.2
            default: lengths.3
            }
        }

        @inline(never)
        mutating func keep(_ key: UInt32, _ text: UnsafePointer<UInt8>, _ length: Int) {
            guard length <= Self.slotRoom else { return }
            let slot = next
            next = (next + 1) % Self.slots
            (room + slot * Self.slotRoom).update(from: text, count: length)
            switch slot {
            case 0: (keys.0, lengths.0) = (key, length)
            case 1: (keys.1, lengths.1) = (key, length)
            case 2: (keys.2, lengths.2) = (key, length)
            default: (keys.3, lengths.3) = (key, length)
            }
        }
    }

    /// `body` given fragments kept in room on the stack for the visits it writes. Not generic over a result: a
    /// generic one is not specialized for a caller in another module, and its result moved through a witness.
    package static func withAfterIDFragments(_ body: (inout AfterIDFragments) -> Void) {
        withUnsafeTemporaryAllocation(
            of: UInt8.self, capacity: AfterIDFragments.slots * AfterIDFragments.slotRoom
        ) { room in
            var fragments = AfterIDFragments(room: room.baseAddress!)
            body(&fragments)
        }
    }
}
