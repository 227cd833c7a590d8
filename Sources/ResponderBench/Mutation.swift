import Foundation
import ResponderJSON
import ResponderProtocol
import ZMQ

/// Goal 6: tree.apply batches of 1 and 100 updates per second on the 1,110-view world, against the echo of
/// the same bytes; what committing costs a dispatch (a tap); and that neither cost grows with the world.
enum Mutation {
    /// The engine configurations measured: in memory, and with each acknowledged batch committed to the state
    /// directory before its reply (a directory per mode, so each starts from the same world).
    static var modes: [(name: String, flags: [String])] {
        [("durability off", [])]
            + ["normal", "full"].map { mode in
                ("durability \(mode)", ["--state-dir", Scratch.file("mutation-state-\(mode)"), "--durability", mode])
            }
    }

    static func run(_ report: Report, _ sizes: Sizes, _ context: ZMQContext) throws {
        say("== tree.apply batches of 1 and 100 updates, \(sizes.mutationSeconds) s each")
        for mode in modes {
            let engine = try RoundTrip.engine(.ipc, name: "mutation", extra: mode.flags)
            let echo = try EchoProcess(transport: .ipc)
            defer {
                engine.stop()
                echo.stop()
            }
            let e = try Connection(context, engine.rpc)
            let x = try Connection(context, echo.endpoint)
            for batch in [1, 100] {
                var bodies = [[UInt8]]()
                // Alternate two alpha values so every batch changes the world.
                for alpha in [0.5, 0.75] {
                    let ops: [JSON] = (0..<batch).map { i in
                        [
                            "op": "update", "id": .string("l\(i / 100)_\(i / 10 % 10)_\(i % 10)"),
                            "set": ["alpha": JSON(alpha)]
                        ]
                    }
                    bodies.append(Requests.body("tree.apply", ["ops": .array(ops)]))
                }
                try x.setEchoReply(try e.call(bodies[0]))
                let ours = try rate(seconds: sizes.mutationSeconds) { i in _ = try e.call(bodies[i % 2]) }
                let theirs = try rate(seconds: sizes.mutationSeconds) { i in _ = try x.call(bodies[i % 2]) }
                report.add(
                    Figure(
                        name: "tree.apply, batches of \(batch) (\(mode.name))",
                        measured: "\(perSecond(ours)) (\(perSecond(ours * Double(batch))) ops)",
                        baseline: "echo \(perSecond(theirs))", ratio: ours / theirs, goal: "(printed)", met: nil))
            }
            // A tap changes no node here, but its seq and tap counter are committed like a batch.
            let tap = Requests.body(
                "event.tap", ["point": [JSON(Worlds.hitPoint.x), JSON(Worlds.hitPoint.y)], "trace": "none"])
            try x.setEchoReply(try e.call(tap))
            let ours = try rate(seconds: sizes.mutationSeconds) { _ in _ = try e.call(tap) }
            let theirs = try rate(seconds: sizes.mutationSeconds) { _ in _ = try x.call(tap) }
            report.add(
                Figure(
                    name: "event.tap, one at a time (\(mode.name))", measured: perSecond(ours),
                    baseline: "echo \(perSecond(theirs))",
                    ratio: ours / theirs, goal: "(printed)", met: nil))
            if mode.name == "durability normal" { try largeWorld(report, sizes, e) }
        }
    }

    /// What a request commits must not grow with the world: a one-op batch and a tap on the largest scale world
    /// against the same on the 1,110-view one, committed to the state directory (the default). Progress shared
    /// the snapshot's row once, and each of them wrote the whole world again.
    private static func largeWorld(_ report: Report, _ sizes: Sizes, _ e: Connection) throws {
        let views = sizes.scale.filter { $0 <= 100_000 }.max() ?? 10_000
        let small = try dispatchRates(
            e, update: "l0_0_0", tap: [JSON(Worlds.hitPoint.x), JSON(Worlds.hitPoint.y)], seconds: sizes.mutationSeconds
        )
        let load = Requests.body("tree.load", rawParams: Worlds.params(tree: Worlds.balanced(views)))
        let reply = try e.call(load)
        guard reply.firstRange(of: Array("\"result\"".utf8)) != nil else {
            throw BenchError("tree.load of \(views) failed: \(String(decoding: reply.prefix(300), as: UTF8.self))")
        }
        let large = try dispatchRates(e, update: "n1", tap: [1, 1], seconds: sizes.mutationSeconds)
        for (name, l, s) in [
            ("tree.apply, batches of 1", large.apply, small.apply), ("event.tap", large.tap, small.tap)
        ] {
            report.add(
                Figure(
                    name: "\(name) (durability normal), \(views) views", measured: perSecond(l),
                    baseline: "1,110 views: \(perSecond(s))", ratio: l / s, goal: "(printed)", met: nil))
        }
    }

    /// One-op batches (alternating two alpha values of `update`) and taps at `tap`, per second.
    private static func dispatchRates(_ e: Connection, update: String, tap: [JSON], seconds: Double) throws -> (
        apply: Double, tap: Double
    ) {
        let bodies = [0.5, 0.75].map { alpha in
            Requests.body(
                "tree.apply", ["ops": [["op": "update", "id": .string(update), "set": ["alpha": JSON(alpha)]]]])
        }
        let tapBody = Requests.body("event.tap", ["point": .array(tap), "trace": "none"])
        for body in bodies + [tapBody] {
            let reply = try e.call(body)
            guard reply.firstRange(of: Array("\"result\"".utf8)) != nil else {
                throw BenchError("\(String(decoding: reply.prefix(300), as: UTF8.self))")
            }
        }
        let apply = try rate(seconds: seconds) { i in _ = try e.call(bodies[i % 2]) }
        let taps = try rate(seconds: seconds) { _ in _ = try e.call(tapBody) }
        return (apply, taps)
    }

    /// Calls per second of `body(i)` over about `seconds`.
    static func rate(seconds: Double, _ body: (Int) throws -> Void) throws -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        var n = 0
        var spent = 0.0
        while spent < seconds {
            try body(n)
            n += 1
            spent = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        }
        return Double(n) / spent
    }
}
