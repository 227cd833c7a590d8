import ArgumentParser
import Foundation
import ResponderJSON
import ZMQ

@main
struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "responder-bench",
        abstract: "Responder Engine's benchmarks: figures against baselines measured in the same run.",
        discussion: "Run through ./dev bench (the suite, on a release build) and ./dev profile (instruction counts).",
        subcommands: [
            Suite.self, Profile.self, MicroCommand.self, LoadPhasesCommand.self, EchoCommand.self, HitLoopCommand.self
        ],
        defaultSubcommand: Suite.self
    )
}

struct Suite: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "suite",
        abstract: "Every performance figure with its baseline and ratio, then the table (Markdown).",
        discussion:
            "Round trips against a raw libzmq echo of the same bytes (ipc, tcp), pipelined throughput, the hit test's instructions against a C reference (skipped without valgrind), Chromium's CDP as the peer in rounds alternating with ours (skipped without chromium), fanout against a raw libzmq XPUB, tree.apply rates, scale at growing sizes. responderd must be built beside this executable."
    )

    @Flag(help: "A small run (CI's smoke test): every section, at small sizes.")
    var quick = false

    @Option(
        help: "Only these sections, comma-separated: roundtrip, reference, peer, fanout, mutation, draw, why, scale.")
    var only: String?

    @Option(help: "The scale section's world sizes, comma-separated (default 10000,100000,1000000; quick: 1000,10000).")
    var scale: String?

    func validate() throws {
        if let scale, scale.split(separator: ",").contains(where: { Int($0).map { $0 < 1 } ?? true }) {
            throw ValidationError("--scale takes view counts ≥ 1, comma-separated: \"\(scale)\"")
        }
    }

    func run() throws {
        var sizes = quick ? Sizes.quick : Sizes.full
        if let scale { sizes.scale = scale.split(separator: ",").compactMap { Int($0) } }
        let wanted = Set(
            (only ?? "roundtrip,reference,scale,peer,fanout,mutation,draw,why").split(separator: ",").map(String.init))
        let context = try ZMQContext()
        defer {
            context.terminate()
            Scratch.remove()
        }
        let report = Report()
        if wanted.contains("roundtrip") { try RoundTrip.run(report, sizes, context) }
        if wanted.contains("reference") { try HitReference.run(report) }
        if wanted.contains("peer") { try Peer.run(report, sizes, context) }
        if wanted.contains("fanout") { try Fanout.run(report, sizes, context) }
        if wanted.contains("mutation") { try Mutation.run(report, sizes, context) }
        if wanted.contains("draw") { try DrawBench.run(report, sizes, context) }
        if wanted.contains("why") { try WhyNotBench.run(report, sizes, context) }
        if wanted.contains("scale") { try Scale.run(report, sizes, context) }
        report.printTable()
    }
}

/// Our hitTest round trip against Chromium's, in alternating rounds of one run: CDP, then ours and the raw echo's
/// over each transport, again and again, so that every side sees the same machine.
enum Peer {
    static func run(_ report: Report, _ sizes: Sizes, _ context: ZMQContext) throws {
        let perRound = max(1, sizes.cdp / sizes.rounds)
        say(
            "== peer: Chromium DOM.getNodeForLocation and our hitTest, \(sizes.rounds) alternating rounds of \(perRound)"
        )
        guard let peer = try CDPPeer.start() else {
            report.note("peer skipped: no chromium (apt-get install chromium)")
            return
        }
        defer { peer.stop() }
        struct Side {
            let engine: EngineProcess
            let echoProcess: EchoProcess
            let ours: Connection
            let echo: Connection
            var ourSamples: [Double] = []
            var echoSamples: [Double] = []
        }
        var sides: [(Transport, Side)] = []
        defer {
            for (_, side) in sides {
                side.engine.stop()
                side.echoProcess.stop()
            }
        }
        let body = RoundTrip.hitBody
        for transport in Transport.allCases {
            let engine = try RoundTrip.engine(transport, name: "peer-\(transport)")
            let echoProcess = try EchoProcess(transport: transport)
            let side = Side(
                engine: engine, echoProcess: echoProcess, ours: try Connection(context, engine.rpc),
                echo: try Connection(context, echoProcess.endpoint))
            sides.append((transport, side))
            try side.echo.setEchoReply(try side.ours.call(body))
            _ = try side.ours.roundTrips(body, count: perRound / 4 + 1)
            _ = try side.echo.roundTrips(body, count: perRound / 4 + 1)
        }
        _ = try peer.roundTrips(count: perRound / 4 + 1)
        var cdpSamples = [Double]()
        for _ in 0..<sizes.rounds {
            cdpSamples += try peer.roundTrips(count: perRound)
            for i in sides.indices {
                sides[i].1.ourSamples += try sides[i].1.ours.roundTrips(body, count: perRound)
                sides[i].1.echoSamples += try sides[i].1.echo.roundTrips(body, count: perRound)
            }
        }
        let cdp = Percentiles(cdpSamples)
        for (transport, side) in sides {
            let ours = Percentiles(side.ourSamples), echo = Percentiles(side.echoSamples)
            report.add(
                Figure(
                    name: "hitTest vs CDP DOM.getNodeForLocation (\(peer.elements) elements), ours over \(transport)",
                    measured: micros(ours.median), baseline: "CDP \(micros(cdp.median)) (p99 \(micros(cdp.p99)))",
                    ratio: cdp.median / ours.median, goal: "≥ 5× faster", met: cdp.median / ours.median >= 5))
            // The bound: a server that did nothing but echo the same bytes over the same transport.
            report.add(
                Figure(
                    name: "the raw libzmq echo of the same bytes vs CDP, \(transport) (no server can beat it here)",
                    measured: micros(echo.median), baseline: "CDP \(micros(cdp.median))",
                    ratio: cdp.median / echo.median, goal: "(printed)", met: nil))
        }
    }
}

struct MicroCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "micro", abstract: "In-process benchmarks of the core and the JSON codec.")
    func run() { Micro.run() }
}

struct EchoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "echo", abstract: "The raw libzmq ROUTER echo the round trips are measured against.",
        discussion:
            "Prints \"ready <endpoint>\" once bound. A request starting with byte 0 sets the reply (the rest of its body); byte 1 stops it. With --publish, every other request also publishes an event there (byte 2 sets its topic, a zero byte, and what follows its seq)."
    )
    @Argument(help: "Endpoint to bind, e.g. ipc:///tmp/echo or tcp://127.0.0.1:*")
    var endpoint: String
    @Option(help: "An endpoint to bind an XPUB on, publishing one event per request (the fanout's baseline).")
    var publish: String?
    func run() { Echo.run(endpoint: endpoint, publish: publish) }
}
