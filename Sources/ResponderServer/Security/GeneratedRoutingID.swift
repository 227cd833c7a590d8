/// The routing ids libzmq's ROUTER makes up for peers that name none: a zero byte, then a 32-bit counter that
/// starts at a random value and goes up by one per such peer. libzmq aborts the process when the id it makes up
/// is already held by a peer that chose it, so a peer that knew the counter could take the next value and bring
/// the engine down at the next anonymous connection. The engine therefore never shows these ids as they are: a
/// client id of that form is the counter passed through a keyed permutation, unique as the ids are, and telling
/// nothing about the values before or after it. (Ids a peer chose are shown as they are, unless they take that
/// form, which libzmq reserves for itself: then they are permuted too.)
enum GeneratedRoutingID {
    /// The bytes a client id shows for `routingID`.
    static func shown(_ routingID: [UInt8]) -> [UInt8] {
        guard routingID.count == 5, routingID[0] == 0 else { return routingID }
        let counter =
            UInt32(routingID[1]) << 24 | UInt32(routingID[2]) << 16 | UInt32(routingID[3]) << 8
            | UInt32(routingID[4])
        let p = permute(counter)
        return [
            0, UInt8(p >> 24), UInt8(truncatingIfNeeded: p >> 16), UInt8(truncatingIfNeeded: p >> 8),
            UInt8(truncatingIfNeeded: p)
        ]
    }

    /// New for each engine process: a client id cannot be carried to another engine to work anything out.
    private static let key = (UInt64.random(in: .min ... .max), UInt64.random(in: .min ... .max))

    /// A balanced Feistel network over the two 16-bit halves with SipHash (keyed) as its round function: a
    /// permutation of the 32-bit values, whatever the round function, and with these rounds no pattern of
    /// consecutive inputs shows in the outputs.
    static func permute(_ value: UInt32) -> UInt32 {
        var left = UInt16(value >> 16)
        var right = UInt16(truncatingIfNeeded: value)
        for round in 0..<10 {
            var hasher = Hasher()
            hasher.combine(key.0)
            hasher.combine(key.1)
            hasher.combine(round)
            hasher.combine(right)
            (left, right) = (right, left ^ UInt16(truncatingIfNeeded: hasher.finalize()))
        }
        return UInt32(left) << 16 | UInt32(right)
    }
}
