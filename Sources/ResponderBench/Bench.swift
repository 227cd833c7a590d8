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
        subcommands: [Suite.self, Profile.self, MicroCommand.self, LoadPhasesCommand.self, EchoCommand.self],
        defaultSubcommand: Suite.self
    )
}

struct Suite: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "suite",
        abstract: "Every performance figure with its baseline and ratio, then the table (Markdown).",
        discussion:
            "Round trips against a raw libzmq echo of the same bytes (ipc, tcp), pipelined throughput, scale at growing sizes, Chromium's CDP as the peer (skipped without chromium), fanout, tree.apply rates. responderd must be built beside this executable."
    )

    @Flag(help: "A small run (CI's smoke test): every section, at small sizes.")
    var quick = false

    @Option(help: "Only these sections, comma-separated: roundtrip, scale, peer, fanout, mutation, draw.")
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
        let wanted = Set((only ?? "roundtrip,scale,peer,fanout,mutation,draw").split(separator: ",").map(String.init))
        let context = try ZMQContext()
        defer {
            context.terminate()
            Scratch.remove()
        }
        let report = Report()
        var ours: [Transport: (ours: Double, echo: Double)] = [:]
        if wanted.contains("roundtrip") { ours = try RoundTrip.run(report, sizes, context) }
        if wanted.contains("peer") { try Peer.run(report, sizes, ours: ours) }
        if wanted.contains("fanout") { try Fanout.run(report, sizes, context) }
        if wanted.contains("mutation") { try Mutation.run(report, sizes, context) }
        if wanted.contains("draw") { try DrawBench.run(report, sizes, context) }
        if wanted.contains("scale") { try Scale.run(report, sizes, context) }
        report.printTable()
    }
}

/// Goal 4: our hitTest round trip against Chromium's, both over tcp loopback.
enum Peer {
    static func run(_ report: Report, _ sizes: Sizes, ours: [Transport: (ours: Double, echo: Double)]) throws {
        say("== peer: Chromium DOM.getNodeForLocation, \(sizes.cdp) round trips")
        guard let result = try CDPPeer.measure(count: sizes.cdp) else {
            report.note("peer skipped: no chromium (apt-get install chromium)")
            return
        }
        let cdp = Percentiles(result.samples)
        if ours.isEmpty {
            report.note("peer: CDP median \(micros(cdp.median)); run with the roundtrip section for our side")
        }
        for (transport, median) in ours.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            report.add(
                Figure(
                    name: "hitTest vs CDP DOM.getNodeForLocation (\(result.elements) elements), ours over \(transport)",
                    measured: micros(median.ours), baseline: "CDP \(micros(cdp.median)) (p99 \(micros(cdp.p99)))",
                    ratio: cdp.median / median.ours, goal: "≥ 5× faster", met: cdp.median / median.ours >= 5))
            // The bound: a server that did nothing but echo the same bytes over the same transport.
            report.add(
                Figure(
                    name: "the raw libzmq echo of the same bytes vs CDP, \(transport) (no server can beat it here)",
                    measured: micros(median.echo), baseline: "CDP \(micros(cdp.median))",
                    ratio: cdp.median / median.echo, goal: "(printed)", met: nil))
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
