import Foundation
import ResponderCore
import ResponderJSON
import ResponderPicture
import ResponderProtocol

// In-process benchmarks of the core and the codec (`responder-bench micro`), each a ratio against a baseline
// measured in the same run, so the numbers mean something on any machine.

/// Runs `body` repeatedly for about `seconds` and returns operations per second.
func rate(_ label: String, seconds: Double = 1.0, _ body: () -> Void) -> Double {
    let clock = ContinuousClock()
    var n = 0
    let start = clock.now
    var elapsed = 0.0
    while elapsed < seconds {
        for _ in 0..<16 { body() }
        n += 16
        let d = clock.now - start
        elapsed = Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
    }
    let r = Double(n) / elapsed
    print("  \(label): \(Int(r)) /s")
    return r
}

func ratio(_ name: String, _ measured: Double, _ baseline: Double, _ meaning: String) {
    print(String(format: "%@: %.2f  (%@)\n", name, measured / baseline, meaning))
}

func op(_ json: JSON) -> GuardedOp { try! GuardedOp(wire: json, index: 0) }

/// A window with `width` views side by side under the root view.
func wideWorld(_ width: Int) -> World {
    var w = World()
    let views: [JSON] = (0..<width).map {
        ["id": .string("v\($0)"), "kind": "view", "frame": [JSON(Double($0 % 100)), 0, 10, 10]]
    }
    _ = try! w.apply([
        op([
            "op": "insert", "parent": "app",
            "node": [
                "id": "W", "kind": "window", "frame": [0, 0, 400, 800], "key": true,
                "children": [["id": "R", "kind": "view", "frame": [0, 0, 400, 800], "children": .array(views)]]
            ]
        ])
    ])
    return w
}

/// A window holding a chain of `depth` nested views.
func deepWorld(_ depth: Int) -> World {
    var w = World()
    var ops = [
        op([
            "op": "insert", "parent": "app",
            "node": ["id": "W", "kind": "window", "frame": [0, 0, 100, 100], "key": true]
        ])
    ]
    var parent = "W"
    for i in 0..<depth {
        ops.append(
            op([
                "op": "insert", "parent": .string(parent),
                "node": ["id": .string("d\(i)"), "kind": "view", "frame": [0, 0, 100, 100]]
            ]))
        parent = "d\(i)"
    }
    _ = try! w.apply(ops)
    return w
}

enum Micro {
    static func run() {
        print("== tree.apply: one update, small world vs large world (target ≈ 1: a batch costs what its ops touch)")
        var small = SessionState(world: wideWorld(100))
        var large = SessionState(world: wideWorld(100_000))
        let update = [op(["op": "update", "id": "v5", "set": ["alpha": 0.5]])]
        let smallRate = rate("100 nodes") { _ = try! small.apply(update, ifRevision: nil, limits: .default) }
        let largeRate = rate("100,000 nodes") { _ = try! large.apply(update, ifRevision: nil, limits: .default) }
        ratio("large/small", largeRate, smallRate, "1.0 means the world's size does not matter")

        print("== hitTest: 1,000-deep chain vs 10-deep chain (expected ≈ 1/100: linear in the views asked)")
        let shallow = SessionState(world: deepWorld(10))
        let deep = SessionState(world: deepWorld(1_000))
        let point = Point(50, 50)
        let shallowRate = rate("10 deep") { _ = shallow.hitTest(at: point) }
        let deepRate = rate("1,000 deep") { _ = deep.hitTest(at: point) }
        ratio("deep/shallow", deepRate, shallowRate, "×100 views asked; near 0.01 is linear")

        print("== JSON: our codec vs Foundation's JSONSerialization on a 10,000-node tree (the codec seam)")
        let text = wideWorld(10_000).encoded()
        let data = Data(text)
        print("  document: \(text.count) bytes")
        let foundationDecode = rate("Foundation decode", seconds: 2) {
            _ = try! JSONSerialization.jsonObject(with: data)
        }
        let ourDecode = rate("JSONCodec decode", seconds: 2) { _ = try! JSONCodec.decode(text) }
        ratio("decode ours/Foundation", ourDecode, foundationDecode, "above 1 is faster than Foundation")
        let object = try! JSONSerialization.jsonObject(with: data)
        let value = try! JSONCodec.decode(text)
        let foundationEncode = rate("Foundation encode", seconds: 2) {
            _ = try! JSONSerialization.data(withJSONObject: object)
        }
        let ourEncode = rate("JSONCodec encode", seconds: 2) { _ = JSONCodec.encode(value) }
        ratio("encode ours/Foundation", ourEncode, foundationEncode, "above 1 is faster than Foundation")

        print("== responder draw's picture of a 10,000-node world vs reading that world's JSON")
        // `draw` reads the snapshot (the baseline: decoding the same document) and draws it; the ratio says what
        // drawing adds. Under a second in all is the target (README, "Seeing it").
        let drawn = rate("Picture.svg (layout + SVG)", seconds: 2) { _ = try! Picture.svg(tree: value) }
        ratio("draw/decode", drawn, ourDecode, "1.0: drawing costs what reading the JSON does; 0.5: twice as much")
        print(String(format: "  one picture: %.0f ms, one decode: %.0f ms\n", 1000 / drawn, 1000 / ourDecode))

        durabilityCost()
    }
}
