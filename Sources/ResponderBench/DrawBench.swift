import Foundation
import ZMQ

/// The draw figure: `responder draw --hit` on a 10,000-view world, the whole command (start, snapshot, hit test,
/// layout, SVG written) against the one second it should take, and against `responder info` (what starting the
/// CLI and one round trip cost on their own).
enum DrawBench {
    static func run(_ report: Report, _ sizes: Sizes, _ context: ZMQContext) throws {
        let views = 10_000
        say("== draw: responder draw --hit on a \(views)-view world, \(sizes.drawRuns) runs")
        guard FileManager.default.isExecutableFile(atPath: Binaries.responder) else {
            report.note(
                "draw skipped: no responder beside responder-bench (swift build -c release --product responder)")
            return
        }
        let engine = try EngineProcess(name: "draw", transport: .ipc, extra: Scale.limits)
        defer { engine.stop() }
        let c = try Connection(context, engine.rpc)
        let tree = Worlds.balanced(views)
        let reply = try c.call(Requests.body("tree.load", rawParams: Worlds.params(tree: tree)))
        guard reply.firstRange(of: Array("\"result\"".utf8)) != nil else {
            throw BenchError("tree.load for draw failed")
        }
        let cli = ["--name", engine.name, "--dir", Scratch.file(engine.name)]
        let out = Scratch.file("draw.svg")
        var draws: [Double] = []
        var infos: [Double] = []
        for _ in 0..<sizes.drawRuns {
            infos.append(try timed(cli + ["info"]))
            draws.append(try timed(cli + ["draw", "--hit", "12345", "67890", "--out", out]))
        }
        let draw = Percentiles(draws)
        let info = Percentiles(infos)
        let svg = (try? FileManager.default.attributesOfItem(atPath: out)[.size] as? Int) ?? 0
        report.add(
            Figure(
                name: "responder draw --hit, \(views) views (\(bytesText(Double(svg))) of SVG), median",
                measured: seconds(draw.median),
                baseline: "responder info \(seconds(info.median))", ratio: draw.median / info.median,
                goal: "≤ 1 s", met: draw.median <= 1e9))
    }

    /// Wall time of one `responder` run, in ns; a failed run stops the suite.
    private static func timed(_ arguments: [String]) throws -> Double {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: Binaries.responder)
        p.arguments = arguments
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        let ns = try elapsed {
            try p.run()
            p.waitUntilExit()
        }
        guard p.terminationStatus == 0 else {
            throw BenchError("responder \(arguments.joined(separator: " ")) failed (\(p.terminationStatus))")
        }
        return ns
    }
}
