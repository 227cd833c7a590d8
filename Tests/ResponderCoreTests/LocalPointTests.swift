import ResponderProtocol
import Testing

@testable import ResponderCore

/// H4: the hit view's local point is the point converted from its window down its superviews. The hit tester
/// takes it from the descent; it must be exactly what converting the window point gives.
@Suite struct LocalPointTests {
    @Test(
        "H4 the local point of a hit is the window point converted to the hit view, transforms and scrolled bounds included"
    )
    func localPointIsTheConvertedWindowPoint() throws {
        let rotated = #""transform": [0.8, 0.6, -0.6, 0.8, 3.5, -2.25]"#
        let scaled = #""transform": [1.5, 0, 0, 0.5, 0, 0]"#
        let s = try session(
            fixtureF(
                [
                    v(
                        "Scroll", 10, 20, 300, 300, #""boundsOrigin": [0, 130.5]"#,
                        children: [
                            v("Row", 5, 140, 280, 60, rotated, children: [v("Cell", 7.25, 3, 120, 40, scaled)])
                        ]),
                    v("Plain", 0, 400, 200, 200, children: [v("Leaf", 33.3, 11.1, 50, 50)])
                ],
                windows: [
                    #"{"id": "W2", "kind": "window", "frame": [400, 0, 400, 800], "children": [{"id": "VC2", "kind": "viewController", "children": [\#(v("Root2", 0, 0, 400, 800, children: [v("Inner", 12.5, 12.5, 100, 100)]))]}]}"#
                ]))
        var hits = 0
        for x in stride(from: -5.0, through: 805, by: 7.3) {
            for y in stride(from: -5.0, through: 805, by: 9.1) {
                let outcome = s.hitTestOutcome(at: Point(x, y))
                guard let window = outcome.window, let view = outcome.view else { continue }
                let q = s.world.convert(screen: Point(x, y), toWindow: window)
                #expect(
                    outcome.localPoint == q.flatMap { s.world.convert($0, fromWindow: window, to: view) },
                    "\(view) at \(x), \(y)")
                hits += 1
            }
        }
        let views = Set(
            stride(from: -5.0, through: 805, by: 7.3).flatMap { x in
                stride(from: -5.0, through: 805, by: 9.1).compactMap { s.hitTestOutcome(at: Point(x, $0)).view }
            })
        #expect(views.isSuperset(of: ["Cell", "Row", "Leaf", "Inner", "Root2"]), "\(views)")
        #expect(hits > 1000)
    }

    @Test("H4 a view deeper than the conversion keeps on the stack (8 levels) converts as the descent does")
    func deepConversionIsTheDescentsPoint() throws {
        // 20 nested views, each offset a little and every third scaled or scrolled: conversions past the eighth
        // level are kept apart from the first eight, and the order they are applied in matters.
        var view = v("L19", 1.5, 2, 40, 40)
        for level in stride(from: 18, through: 0, by: -1) {
            let scale =
                level % 6 == 0 ? #""transform": [1.25, 0, 0, 0.8, 0, 0]"# : #""transform": [0.8, 0, 0, 1.25, 0, 0]"#
            let extra = level % 3 == 0 ? scale : (level % 3 == 1 ? #""boundsOrigin": [0.5, 1]"# : "")
            view = v("L\(level)", 2.25, 3, 360 - Double(level) * 10, 700 - Double(level) * 20, extra, children: [view])
        }
        let s = try session(fixtureF([view]))
        var deepest = 0
        for x in stride(from: 0.0, through: 400, by: 4.3) {
            for y in stride(from: 0.0, through: 800, by: 4.9) {
                let outcome = s.hitTestOutcome(at: Point(x, y))
                guard let window = outcome.window, let hit = outcome.view, hit.hasPrefix("L") else { continue }
                deepest = max(deepest, Int(hit.dropFirst())!)
                let q = s.world.convert(screen: Point(x, y), toWindow: window)
                #expect(
                    outcome.localPoint == q.flatMap { s.world.convert($0, fromWindow: window, to: hit) },
                    "\(hit) at \(x), \(y)")
            }
        }
        #expect(deepest == 19)
    }
}
