import Foundation
import ResponderProtocol
import ZMQ

/// Goal 6: tree.apply batches of 1 and 100 updates per second on the 1,110-view world, against the echo of
/// the same bytes.
enum Mutation {
    /// The engine configurations measured: in memory, and with each acknowledged batch committed to the state
    /// directory before its reply (a directory per mode, so each starts from the same world).
    static var modes: [(name: String, flags: [String])] {
        [("durability off", [])] + ["normal", "full"].map { mode in
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
                    let ops: [JSON] = (0..<batch).map { i in ["op": "update", "id": .string("l\(i / 100)_\(i / 10 % 10)_\(i % 10)"), "set": ["alpha": JSON(alpha)]] }
                    bodies.append(Requests.body("tree.apply", ["ops": .array(ops)]))
                }
                try x.setEchoReply(try e.call(bodies[0]))
                let ours = try rate(seconds: sizes.mutationSeconds) { i in _ = try e.call(bodies[i % 2]) }
                let theirs = try rate(seconds: sizes.mutationSeconds) { i in _ = try x.call(bodies[i % 2]) }
                report.add(Figure(name: "tree.apply, batches of \(batch) (\(mode.name))", measured: "\(perSecond(ours)) (\(perSecond(ours * Double(batch))) ops)",
                                  baseline: "echo \(perSecond(theirs))", ratio: ours / theirs, goal: "(printed)", met: nil))
            }
        }
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
