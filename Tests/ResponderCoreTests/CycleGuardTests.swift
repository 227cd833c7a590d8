import Testing

@testable import ResponderCore

/// The chain's cycle guard compares a few ids in an array and moves to a set for long chains; it must
/// answer as a set does at every length, for a repeat of any id passed before.
@Suite("N2/N4 the chain walks' cycle guard answers as a set does, at every length")
struct CycleGuardTests {
    @Test func answersAsASetDoesBeforeAndAfterMovingToOne() {
        for length in [1, 2, 15, 16, 17, 40] {
            for repeatAt in 0..<length {
                var guardian = CycleGuard()
                var model: Set<String> = []
                let ids = (0..<length).map { "v\($0)" } + ["v\(repeatAt)", "new"]
                for id in ids {
                    let first = guardian.firstPass(id)
                    #expect(first == model.insert(id).inserted, "length \(length), \(id)")
                }
            }
        }
    }

    @Test func aLongChainIsWalkedOnceEach() {
        var guardian = CycleGuard()
        var repeated = 0
        for i in 0..<100_000 where !guardian.firstPass("d\(i)") { repeated += 1 }
        #expect(repeated == 0)
        let again = (guardian.firstPass("d0"), guardian.firstPass("d99999"), guardian.firstPass("d100000"))
        #expect(again == (false, false, true))
    }
}
