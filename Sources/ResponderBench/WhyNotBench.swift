import ResponderJSON
import ZMQ

/// The why-not figure: `whyNot` about the back-most, half-covered view of 10,000 siblings, asked anywhere on the view (the hittable
/// share, then a tap carried out on a copy of the session) and at a point, against a hitTest at that point on
/// the same world (what one question of the engine costs on its own). The goal is "well under a second".
enum WhyNotBench {
    static func run(_ report: Report, _ sizes: Sizes, _ context: ZMQContext) throws {
        let views = 10_000
        let asked = "c0"
        say("== why: whyNot about the back-most of \(views) sibling views, \(sizes.drawRuns) runs")
        let engine = try EngineProcess(name: "why", transport: .ipc, extra: Scale.limits)
        defer { engine.stop() }
        let c = try Connection(context, engine.rpc)
        let loaded = try c.call(Requests.body("tree.load", rawParams: Worlds.params(tree: Worlds.crowded(views))))
        guard loaded.firstRange(of: Array("\"result\"".utf8)) != nil else {
            throw BenchError("tree.load for why failed")
        }
        let anywhere = Requests.body("whyNot", ["view": .string(asked)])
        let first = try JSONCodec.decode(try c.call(anywhere))
        guard let point = first["result"]?["hittable"]?["point"], point.arrayValue?.count == 2 else {
            throw BenchError("whyNot on \(asked) gave no hittable point")
        }
        let atPoint = Requests.body("whyNot", ["view": .string(asked), "point": point])
        let hit = Requests.body("hitTest", ["point": point, "trace": "none"])
        var (whole, pointed, hits): ([Double], [Double], [Double]) = ([], [], [])
        for _ in 0..<sizes.drawRuns {
            whole.append(try elapsed { _ = try c.call(anywhere) })
            pointed.append(try elapsed { _ = try c.call(atPoint) })
            hits.append(try elapsed { _ = try c.call(hit) })
        }
        let baseline = Percentiles(hits).median
        for (name, samples) in [("anywhere on the view", whole), ("at a point", pointed)] {
            let median = Percentiles(samples).median
            report.add(
                Figure(
                    name: "whyNot \(name), \(views) views, median", measured: seconds(median),
                    baseline: "hitTest \(seconds(baseline))", ratio: median / baseline, goal: "≤ 0.5 s",
                    met: median <= 0.5e9))
        }
    }
}
