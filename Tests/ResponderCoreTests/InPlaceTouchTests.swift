import ResponderJSON
import ResponderProtocol
import Testing

@testable import ResponderCore

/// A touch request whose inputs `cannotFail` vouches for is carried out on the session itself, with no copy to fall
/// back on: if one of them failed half-way, the session would be left half-changed. These tests hold the check to
/// what carrying out answers, on random batches over a few ids (reused, out of order, late, without points, from
/// another client) against sessions with live and held touches.
@Suite("A touch carried out in place: cannotFail agrees with carrying out")
struct InPlaceTouchTests {
    /// R > V (delays began, so touches stay held) and a button; recognizers keep some ended touches alive (G9).
    static let world = fixtureF(
        [
            v(
                "V", 50, 50, 150, 150,
                #""multipleTouchEnabled": true, "gestureRecognizers": [\#(rec("hold", "longPress", #""delaysTouchesEnded": true"#))]"#
            ),
            v(
                "Btn", 210, 210, 60, 60, kind: "control",
                #""targets": [{"event": "touchUpInside", "action": "tap1:", "target": "RVC"}]"#)
        ], rExtra: #""gestureRecognizers": [\#(rec("pan", "pan"))]"#, rvc: rvcHandles)

    func randomInputs(_ g: inout SeededRandom, clock: Double) -> [TouchInput] {
        let phases: [TouchPhase] = [.began, .began, .moved, .stationary, .ended, .cancelled]
        var time = clock
        return (0..<Int.random(in: 1...5, using: &g)).map { _ in
            let phase = phases.randomElement(using: &g)!
            let point: Point? =
                Int.random(in: 0..<8, using: &g) == 0
                ? nil
                : Point(
                    Double.random(in: 0...320, using: &g).rounded(), Double.random(in: 0...320, using: &g).rounded())
            var at: Double? = nil
            switch Int.random(in: 0..<4, using: &g) {
            case 0: at = time - 0.1  // late: refused
            case 1:
                time += [0, 0.3, 0.6].randomElement(using: &g)!
                at = time
            default: break
            }
            return TouchInput(
                touch: .string("t\(Int.random(in: 0..<3, using: &g))"), phase: phase, point: point, time: at)
        }
    }

    @Test("cannotFail never vouches for a batch that fails, and vouches for the plain ones")
    func agreesWithCarryingOut() throws {
        var vouched = 0
        var refused = 0
        for seed in UInt64(1)...400 {
            var g = SeededRandom(state: seed)
            var s = try session(Self.world)
            for _ in 0..<6 {
                let inputs = randomInputs(&g, clock: s.clock)
                let client = Int.random(in: 0..<5, using: &g) == 0 ? "other" : "me"
                let vouches = s.cannotFail(inputs, client: client)
                var copy = s
                do {
                    _ = try copy.touch(inputs, client: client)
                    s = copy
                    if vouches { vouched += 1 }
                } catch {
                    refused += 1
                    #expect(
                        !vouches,
                        "seed \(seed): cannotFail vouched for \(inputs) from \(client), which failed: \(error)")
                }
            }
        }
        // Both kinds occur often enough for the comparison to mean something.
        #expect(vouched > 100)
        #expect(refused > 200)
    }

    @Test("A tap on a session with no live touches is carried out in place")
    func aTapIsVouchedFor() throws {
        let s = try session(Self.world)
        let tap = [
            TouchInput(touch: .string("tap-1"), phase: .began, point: Point(100, 100)),
            TouchInput(touch: .string("tap-1"), phase: .ended, point: Point(100, 100))
        ]
        #expect(s.cannotFail(tap, client: "me"))
        // An id already live, a later phase of an unknown touch, a late time: not vouched for.
        var live = s
        _ = try live.touch([TouchInput(touch: .string("t"), phase: .began, point: Point(100, 100))], client: "me")
        #expect(!live.cannotFail([TouchInput(touch: .string("t"), phase: .began, point: Point(1, 1))], client: "me"))
        #expect(!live.cannotFail([TouchInput(touch: .string("t"), phase: .ended)], client: "other"))
        #expect(live.cannotFail([TouchInput(touch: .string("t"), phase: .ended)], client: "me"))
        #expect(!s.cannotFail([TouchInput(touch: .string("u"), phase: .moved)], client: "me"))
        #expect(
            !s.cannotFail([TouchInput(touch: .string("u"), phase: .began, point: Point(1, 1), time: -1)], client: "me"))
    }
}
