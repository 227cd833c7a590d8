import Testing

@testable import ResponderServer

/// Client ids of connections whose routing id libzmq assigned (docs/security.md, "Known limit").
@Suite("Generated routing ids are shown permuted")
struct GeneratedRoutingIDTests {
    @Test("the permutation gives distinct values to a run of consecutive counters, and they do not follow each other")
    func distinctAndUnordered() {
        let start = UInt32.random(in: 0...(UInt32.max - 70_000))
        let shown = (start..<start + 65_536).map(GeneratedRoutingID.permute)
        #expect(Set(shown).count == shown.count)
        let close = zip(shown, shown.dropFirst()).filter { a, b in (a > b ? a - b : b - a) < 1 << 16 }.count
        // Random pairs are this close about once in 32,768 steps: a handful at most.
        #expect(close < 32, "\(close) consecutive counters were shown within 65,536 of each other")
    }

    @Test("only ids of libzmq's form (a zero byte and four more) are permuted; that form is kept")
    func onlyTheGeneratedForm() {
        for chosen: [UInt8] in [Array("tester".utf8), [1, 2, 3, 4, 5], [0, 1, 2, 3], [0, 1, 2, 3, 4, 5]] {
            #expect(GeneratedRoutingID.shown(chosen) == chosen)
        }
        let generated: [UInt8] = [0, 0x6b, 0x8b, 0x45, 0x67]
        let shown = GeneratedRoutingID.shown(generated)
        #expect(shown.count == 5 && shown[0] == 0 && shown != generated)
        #expect(GeneratedRoutingID.shown(generated) == shown, "the same id is always shown the same way")
    }
}
