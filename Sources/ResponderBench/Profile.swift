import ArgumentParser
import Foundation
import ResponderProtocol
import ZMQ

/// Instruction counts per request under callgrind: stable where wall-clock time is not, so they are the
/// regression guard. Each count is the difference between two runs that differ only in the number of
/// requests, so start-up and loading cancel out.
struct Profile: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "profile",
        abstract: "valgrind/callgrind instructions per request for hitTest, event.tap and a light request, against the raw echo.",
        discussion: "Needs valgrind. Also prints the functions with the most instructions of the longer engine run (--top).")

    @Option(help: "Requests in the longer run (the shorter sends 20).")
    var requests = 300

    @Option(help: "Functions listed per profile (0: none).")
    var top = 15

    @Flag(help: "List the functions by inclusive cost (what they and their callees spent) instead of self cost.")
    var inclusive = false

    @Option(help: "Keep the callgrind files in this directory (for callgrind_annotate or kcachegrind).")
    var keep: String?

    @Flag(help: "Profile only inside the engine's request processing (callgrind --toggle-collect), so the listed functions are per request rather than the whole run's; the counts then leave out the transport.")
    var requestsOnly = false

    func run() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/valgrind") else { throw BenchError("valgrind is not installed (apt-get install valgrind)") }
        let context = try ZMQContext()
        defer {
            context.terminate()
            Scratch.remove()
        }
        // Replies as the engine gives them, for the echo to send back.
        let plain = try RoundTrip.engine(.ipc, name: "replies")
        let c = try Connection(context, plain.rpc)
        try RoundTrip.createDemo(c)
        let hitReply = try c.call(RoundTrip.hitBody)
        let tapReply = try c.call(RoundTrip.tapBody)
        let hitNoneReply = try c.call(RoundTrip.hitNoneBody)
        let tapNoneReply = try c.call(RoundTrip.tapNoneBody)
        let lightReply = try c.call(RoundTrip.lightBody)
        plain.stop()

        say("== instructions per request (callgrind; \(requests) − 20 requests)")
        say("| Request | Engine | Raw echo (same bytes) | Ratio |")
        say("| --- | --- | --- | --- |")
        for (name, body, reply) in [("hitTest, 1,110 views", RoundTrip.hitBody, hitReply), ("event.tap, demo world", RoundTrip.tapBody, tapReply),
                                    ("hitTest trace none, 1,110 views", RoundTrip.hitNoneBody, hitNoneReply),
                                    ("event.tap trace none, demo world", RoundTrip.tapNoneBody, tapNoneReply),
                                    ("responder.first (the light request of goal 2)", RoundTrip.lightBody, lightReply)] {
            let (ours, profileFile) = try engineCount(body, context)
            let echo = requestsOnly ? 1 : try echoCount(body, reply: reply, context)
            say("| \(name) (\(reply.count) B reply) | \(Self.thousands(ours)) | \(Self.thousands(echo)) | \(String(format: "%.1f×", ours / echo)) |")
            if top > 0 { printTop(profileFile, title: name) }
            if let keep {
                let target = "\(keep)/\(name.split(separator: ",")[0]).callgrind"
                try? FileManager.default.createDirectory(atPath: keep, withIntermediateDirectories: true)
                try? FileManager.default.removeItem(atPath: target)
                try FileManager.default.copyItem(atPath: profileFile, toPath: target)
            }
        }
    }

    private var wrapper: (String) -> [String] {
        { file in ["valgrind", "-q", "--tool=callgrind", "--callgrind-out-file=\(file)"] + (requestsOnly ? ["--toggle-collect=*RequestProcessorV5parse*", "--toggle-collect=*RequestProcessorV3run*"] : []) }
    }

    /// Engine instructions per request; also the longer run's callgrind file.
    private func engineCount(_ body: [UInt8], _ context: ZMQContext) throws -> (Double, String) {
        var totals: [Int] = []
        var file = ""
        for n in [20, requests] {
            file = Scratch.file("engine-\(n)-\(UUID().uuidString.prefix(6)).callgrind")
            // No ticks during the run: their number would depend on valgrind's speed.
            let engine = try RoundTrip.engine(.ipc, name: "cg\(n)", extra: ["--tick-ms", "100000000"], wrapperFile: file, wrapper: wrapper(file))
            let c = try Connection(context, engine.rpc)
            try RoundTrip.createDemo(c)
            for _ in 0..<n { _ = try c.call(body) }
            engine.stop()
            totals.append(try Self.total(file))
        }
        return (Double(totals[1] - totals[0]) / Double(requests - 20), file)
    }

    private func echoCount(_ body: [UInt8], reply: [UInt8], _ context: ZMQContext) throws -> Double {
        var totals: [Int] = []
        for n in [20, requests] {
            let file = Scratch.file("echo-\(n)-\(UUID().uuidString.prefix(6)).callgrind")
            let echo = try EchoProcess(transport: .ipc, wrapper: wrapper(file))
            let c = try Connection(context, echo.endpoint)
            try c.setEchoReply(reply)
            for _ in 0..<n { _ = try c.call(body) }
            _ = try c.socket.send([[1]])
            echo.process.waitUntilExit()
            totals.append(try Self.total(file))
        }
        return Double(totals[1] - totals[0]) / Double(requests - 20)
    }

    /// The `totals:` (or `summary:`) line of a callgrind file: instructions executed.
    static func total(_ file: String) throws -> Int {
        let text = try String(contentsOfFile: file, encoding: .utf8)
        for line in text.split(separator: "\n") where line.hasPrefix("totals:") || line.hasPrefix("summary:") {
            if let n = Int(line.split(separator: " ").last ?? "") { return n }
        }
        throw BenchError("no totals in \(file)")
    }

    private func printTop(_ file: String, title: String) {
        let annotate = Process()
        annotate.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        annotate.arguments = ["sh", "-c", "callgrind_annotate --threshold=99 --inclusive=\(inclusive ? "yes" : "no") '\(file)' | (swift demangle --simplified 2>/dev/null || cat) | grep -v '^--\\|^$' | sed -n '/PROGRAM TOTALS/,$p' | head -\(top + 2)"]
        say("\n  \(title): most instructions (\(inclusive ? "inclusive" : "self")) over the whole longer run")
        try? annotate.run()
        annotate.waitUntilExit()
        say("")
    }

    static func thousands(_ n: Double) -> String {
        n >= 1_000_000 ? String(format: "%.2fM", n / 1e6) : String(format: "%.1fk", n / 1e3)
    }
}
