import Foundation
import ResponderCore
import ResponderJSON
import ResponderProtocol
import Testing

/// SplitMix64: a small seeded generator, so every failing sequence can be replayed from its seed.
struct SeededRandom: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

@Suite("Gesture recognizers under random touch sequences (invariants on every trace)")
struct GestureRandomTests {
    static let kinds = ["tap", "longPress", "pan", "swipe", "pinch", "rotation"]

    /// R > P(50,50,300,300) > V(50,50,150,150), Btn(210,210,60,60 control); recognizers on R, P, V, Btn.
    func randomWorld(_ g: inout SeededRandom) -> String {
        var ids: [String] = []
        func recs(_ owner: String) -> String {
            var list: [String] = []
            for i in 0..<Int.random(in: 0...2, using: &g) {
                let id = "\(owner.lowercased())\(i)"
                let kind = Self.kinds.randomElement(using: &g)!
                var extra: [String] = []
                if Bool.random(using: &g) { extra.append(#""cancelsTouchesInView": \#(Bool.random(using: &g))"#) }
                if Int.random(in: 0..<4, using: &g) == 0 { extra.append(#""delaysTouchesBegan": true"#) }
                if Int.random(in: 0..<4, using: &g) == 0 { extra.append(#""delaysTouchesEnded": false"#) }
                if Int.random(in: 0..<6, using: &g) == 0 { extra.append(#""shouldBegin": false"#) }
                if kind == "tap", Bool.random(using: &g) { extra.append(#""numberOfTapsRequired": 2"#) }
                if let other = ids.randomElement(using: &g), Int.random(in: 0..<3, using: &g) == 0 {
                    extra.append(
                        Bool.random(using: &g)
                            ? #""requireToFail": ["\#(other)"]"# : #""simultaneousWith": ["\#(other)"]"#)
                }
                ids.append(id)
                list.append(rec(id, kind, extra.joined(separator: ", ")))
            }
            return list.isEmpty ? "" : #""gestureRecognizers": [\#(list.joined(separator: ", "))]"#
        }
        let handles =
            #""handles": {"touchesBegan": "handle+super", "touchesEnded": "handle"}, "multipleTouchEnabled": true"#
        let button = v(
            "Btn", 210, 210, 60, 60, kind: "control",
            [recs("Btn"), #""targets": [{"event": "touchUpInside", "action": "tap1:", "target": "RVC"}]"#].filter {
                !$0.isEmpty
            }.joined(separator: ", "))
        let view = v("V", 50, 50, 150, 150, [handles, recs("V")].filter { !$0.isEmpty }.joined(separator: ", "))
        let p = v("P", 50, 50, 300, 300, recs("P"), children: [view, button])
        return fixtureF([p], rExtra: recs("R"), rvc: rvcHandles)
    }

    /// A random request: a tap, a drag, a hold, a two-finger gesture, a cancel, or time passing.
    enum Request {
        case touches([(String, String, Double, Double, Double?)])
        case advance(Double)
    }

    func randomRequests(_ g: inout SeededRandom) -> [Request] {
        var out: [Request] = []
        var clock = 0.0
        var n = 0
        for _ in 0..<Int.random(in: 3...8, using: &g) {
            n += 1
            let id = "t\(n)"
            let x = Double.random(in: 60...340, using: &g).rounded(),
                y = Double.random(in: 60...340, using: &g).rounded()
            clock += [0, 0.05, 0.2, 0.4].randomElement(using: &g)!
            switch Int.random(in: 0..<6, using: &g) {
            case 0:
                out.append(.touches([(id, "began", x, y, clock), (id, "ended", x, y, clock)]))
            case 1:
                let dx = Double.random(in: -80...80, using: &g).rounded(),
                    dy = Double.random(in: -80...80, using: &g).rounded()
                var entries: [(String, String, Double, Double, Double?)] = [(id, "began", x, y, clock)]
                for step in 1...4 {
                    clock += 0.05
                    entries.append((id, "moved", x + dx * Double(step) / 4, y + dy * Double(step) / 4, clock))
                }
                entries.append((id, Bool.random(using: &g) ? "ended" : "cancelled", x + dx, y + dy, clock))
                out.append(.touches(entries))
            case 2:
                out.append(.touches([(id, "began", x, y, clock)]))
                clock += [0.3, 0.6].randomElement(using: &g)!
                out.append(.advance(clock))
                out.append(.touches([(id, "ended", x, y, clock)]))
            case 3:
                let second = "u\(n)"
                out.append(.touches([(id, "began", x, y, clock), (second, "began", x + 20, y, clock)]))
                clock += 0.1
                out.append(.touches([(id, "moved", x - 15, y - 10, clock), (second, "moved", x + 40, y + 25, clock)]))
                out.append(.touches([(id, "ended", x - 15, y - 10, clock), (second, "ended", x + 40, y + 25, clock)]))
            case 4:
                out.append(
                    .touches([
                        (id, "began", x, y, clock), (id, "moved", x + 3, y, clock), (id, "cancelled", x + 3, y, clock)
                    ]))
            default:
                clock += 0.5
                out.append(.advance(clock))
            }
        }
        clock += 1
        out.append(.advance(clock))
        return out
    }

    func run(_ world: String, _ requests: [Request]) throws -> [Trace] {
        var s = try session(world)
        var traces: [Trace] = []
        for r in requests {
            switch r {
            case .touches(let entries): traces.append(try s.touches(entries).trace)
            case .advance(let time): traces.append(try s.advance(to: time).trace)
            }
        }
        return traces
    }

    /// The recognizer invariants over one session's traces, in order.
    func check(_ traces: [Trace], simultaneous: (String, String) -> Bool, seed: UInt64) {
        var viewPhases: [EventID: [String]] = [:]
        var boundView: [EventID: String] = [:]
        var state: [String: GestureState] = [:]
        var seen: [String: Set<EventID>] = [:]
        var active: Set<String> = []
        for trace in traces {
            for step in trace.steps {
                switch step {
                case .hitTest(let visit, let t?) where visit.result == .hit:
                    // The last view hit at began is the touch's view.
                    boundView[t] = visit.id
                case .deliver(let to, let message, _, _, _, .touch(let t)?)
                where message.hasPrefix("touches") && to == boundView[t]:
                    viewPhases[t, default: []].append(message)
                case .observe(let r, _, let t, true, _):
                    seen[r, default: []].insert(t)
                case .gesture(let change):
                    #expect(
                        change.from == state[change.recognizer] ?? .possible,
                        "seed \(seed): \(change.recognizer) went from \(change.from) but was \(state[change.recognizer] ?? .possible)"
                    )
                    state[change.recognizer] = change.to
                    if change.to == .possible { seen[change.recognizer] = []; active.remove(change.recognizer) }
                    if change.to == .began || change.to == .recognized {
                        for other in active where other != change.recognizer && !simultaneous(other, change.recognizer)
                        {
                            let shared = !(seen[other] ?? []).isDisjoint(with: seen[change.recognizer] ?? [])
                            #expect(
                                !shared,
                                "seed \(seed): \(change.recognizer) and \(other) both recognized on the same touches")
                        }
                        active.insert(change.recognizer)
                    }
                    if change.to == .failed || change.to == .cancelled { active.remove(change.recognizer) }
                default:
                    break
                }
            }
        }
        for (touch, phases) in viewPhases {
            let text = phases.joined(separator: " ")
            let ok =
                phases.first == "touchesBegan"
                && phases.dropFirst().dropLast().allSatisfy { $0 == "touchesMoved" }
                && (phases.count == 1 || ["touchesMoved", "touchesEnded", "touchesCancelled"].contains(phases.last!))
                && phases.filter { $0 == "touchesBegan" }.count == 1
                && phases.filter { $0 == "touchesEnded" || $0 == "touchesCancelled" }.count <= 1
            #expect(ok, "seed \(seed): touch \(touch) reached its view as \(text)")
        }
    }

    @Test(
        "Random sequences: phases reach a view in order and at most once, nothing after touchesCancelled, no two exclusive recognizers on one touch, same inputs → same traces",
        .tags(.slow))
    func slowInvariants() throws {
        let count = Int(Environment.value("GESTURE_RANDOM_SEQUENCES") ?? "") ?? 300
        for seed in UInt64(1)...UInt64(count) {
            var g = SeededRandom(state: seed)
            let world = randomWorld(&g)
            let requests = randomRequests(&g)
            let traces = try run(world, requests)
            let s = try session(world)
            func simultaneous(_ a: String, _ b: String) -> Bool {
                func names(_ x: String, _ y: String) -> Bool {
                    s.world.recognizerOwners[x].flatMap { s.world[$0]?.gestureRecognizers.first { $0.id == x } }?
                        .simultaneousWith.contains(y) == true
                }
                return names(a, b) || names(b, a)
            }
            check(traces, simultaneous: simultaneous, seed: seed)
            let again = try run(world, requests)
            #expect(
                again.map { JSONCodec.encodeString(wire($0)) } == traces.map { JSONCodec.encodeString(wire($0)) },
                "seed \(seed): the same inputs gave a different trace")
        }
    }
}

enum Environment {
    static func value(_ name: String) -> String? {
        guard let raw = getenv(name) else { return nil }
        return String(cString: raw)
    }
}
