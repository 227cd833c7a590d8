import ArgumentParser
import Foundation
import ResponderJSON
import ResponderProtocol
import ZMQ

/// Instruction counts per request under callgrind: stable where wall-clock time is not, so they are the
/// regression guard. Each count is the difference between two runs that differ only in the number of
/// requests, so start-up and loading cancel out.
struct Profile: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "profile",
        abstract:
            "valgrind/callgrind instructions per request for hitTest, event.tap and a light request, against the raw echo.",
        discussion:
            "Needs valgrind. Also prints the functions that cost most per request (--top): the longer run's instructions less the shorter's."
    )

    @Option(help: "Requests in the longer run (the shorter sends 20).")
    var requests = 300

    @Option(help: "Functions listed per profile (0: none).")
    var top = 15

    @Flag(help: "List the functions by inclusive cost (what they and their callees spent) instead of self cost.")
    var inclusive = false

    @Option(help: "Keep the callgrind files in this directory (for callgrind_annotate or kcachegrind).")
    var keep: String?

    @Option(
        help:
            "Run the engine with this durability (normal or full), committing each request to a state directory as the engine does by default; default: in memory, as the round trips measure it."
    )
    var durability: String?

    @Flag(
        help:
            "Profile only inside the engine's request processing (callgrind --toggle-collect), so the listed functions are per request rather than the whole run's; the counts then leave out the transport."
    )
    var requestsOnly = false

    @Option(
        help: ArgumentHelp(
            "Profile only inside the functions whose symbol matches this callgrind pattern, as --requests-only does for request processing: e.g. '*SessionStateV3tap2at*' counts the core's part of event.tap alone. Not with --save or --against.",
            valueName: "pattern"))
    var inside: String?

    @Option(
        help: ArgumentHelp(
            "Only these requests, comma-separated: \(ProfiledRequest.allCases.map(\.rawValue).joined(separator: ", ")).",
            valueName: "requests"))
    var only: String?

    @Option(help: ArgumentHelp("Write the counts to this file (JSON), as a baseline for --against.", valueName: "file"))
    var save: String?

    @Option(
        help: ArgumentHelp(
            "The regression guard: compare each count with this baseline (written by --save in the same mode) and exit with status 1 when one is more than --tolerance over it.",
            valueName: "file"))
    var against: String?

    @Option(help: "Percent over the baseline a count may be before --against fails.")
    var tolerance = 3.0

    func validate() throws {
        if let durability, !["normal", "full"].contains(durability) {
            throw ValidationError(
                "--durability: \"\(durability)\" is not normal or full (leave it out to run in memory)")
        }
        _ = try selected()
        guard tolerance >= 0, tolerance.isFinite else {
            throw ValidationError("--tolerance: \(tolerance) is not a percentage of zero or more")
        }
        guard requests >= 21 else {
            throw ValidationError("--requests: \(requests) must be over 20 (the shorter run sends 20)")
        }
        if inside != nil, save != nil || against != nil {
            throw ValidationError("--inside counts part of a request: the baselines count whole request processing")
        }
    }

    /// The requests `--only` names, all of them without it.
    private func selected() throws(ValidationError) -> [ProfiledRequest] {
        guard let only else { return ProfiledRequest.allCases }
        var out: [ProfiledRequest] = []
        for word in only.split(separator: ",", omittingEmptySubsequences: false).map({
            $0.trimmingCharacters(in: .whitespaces)
        }) {
            guard let r = ProfiledRequest(rawValue: word) else {
                throw ValidationError(
                    "--only: \"\(word)\" is not one of \(ProfiledRequest.allCases.map(\.rawValue).joined(separator: ", "))"
                )
            }
            if !out.contains(r) { out.append(r) }
        }
        return out
    }

    /// What a baseline was counted under: counts of one mode say nothing about another's.
    private var mode: InstructionBaseline.Mode {
        InstructionBaseline.Mode(
            scope: inside.map { "inside \($0)" } ?? (requestsOnly ? "requests-only" : "whole-engine"),
            durability: durability ?? "none",
            build: InstructionBaseline.Mode.thisBuild)
    }

    /// Counted inside part of the engine (no transport, so no echo to compare with).
    private var scoped: Bool { requestsOnly || inside != nil }

    func run() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/valgrind") else {
            throw BenchError("valgrind is not installed (apt-get install valgrind)")
        }
        // The baseline is read before any engine starts, so that a wrong file fails at once.
        let baseline = try against.map { try InstructionBaseline.read($0, expecting: mode) }
        let context = try ZMQContext()
        defer {
            context.terminate()
            Scratch.remove()
        }
        // Replies as the engine gives them, for the echo to send back (every request's, in the order profiled).
        let plain = try RoundTrip.engine(.ipc, name: "replies")
        let c = try Connection(context, plain.rpc)
        try RoundTrip.createDemo(c)
        var replies: [ProfiledRequest: [UInt8]] = [:]
        for request in ProfiledRequest.allCases { replies[request] = try c.call(request.body) }
        plain.stop()

        say(
            "== instructions per request (callgrind; \(requests) − 20 requests\(inside.map { ", inside \($0)" } ?? (requestsOnly ? ", inside request processing" : "")))"
        )
        say(
            baseline == nil
                ? "| Request | Engine | Raw echo (same bytes) | Ratio |"
                : "| Request | Engine | Raw echo (same bytes) | Ratio | Baseline | Change |")
        say(baseline == nil ? "| --- | --- | --- | --- |" : "| --- | --- | --- | --- | --- | --- |")
        var counts: [String: Int] = [:]
        var over: [String] = []
        for request in try selected() {
            let (name, body, reply) = (request.title, request.body, replies[request]!)
            let (ours, profileFiles) = try engineCount(body, context)
            let profileFile = profileFiles.longer
            let echo = scoped ? 1 : try echoCount(body, reply: reply, context)
            counts[request.rawValue] = Int(ours.rounded())
            // Inside request processing there is no echo to compare with: the transport is left out.
            var row =
                scoped
                ? "| \(name) (\(reply.count) B reply) | \(Self.thousands(ours)) | — | — |"
                : "| \(name) (\(reply.count) B reply) | \(Self.thousands(ours)) | \(Self.thousands(echo)) | \(String(format: "%.1f×", ours / echo)) |"
            if let baseline {
                if let recorded = baseline.counts[request.rawValue], recorded > 0 {
                    let change = (ours / Double(recorded) - 1) * 100
                    if change > tolerance { over.append("\(request.rawValue) \(String(format: "%+.1f%%", change))") }
                    row +=
                        " \(Self.thousands(Double(recorded))) | \(String(format: "%+.1f%%", change))\(change > tolerance ? " over" : "") |"
                } else {
                    row += " — | not in the baseline |"
                }
            }
            say(row)
            if top > 0 { printTop(profileFiles, title: name) }
            if let keep {
                // Both runs: their difference is what the requests cost, without start-up and loading.
                let stem = "\(keep)/\(name.split(separator: ",")[0])"
                try? FileManager.default.createDirectory(atPath: keep, withIntermediateDirectories: true)
                for (file, target) in [
                    (profileFiles.shorter, "\(stem).20.callgrind"), (profileFile, "\(stem).callgrind")
                ] {
                    try? FileManager.default.removeItem(atPath: target)
                    try FileManager.default.copyItem(atPath: file, toPath: target)
                }
            }
        }
        if let save {
            try InstructionBaseline(mode: mode, requests: requests, counts: counts).write(save)
            say("counts written to \(save)")
        }
        if baseline != nil {
            guard over.isEmpty else {
                say("more than \(String(format: "%g", tolerance))% over the baseline: \(over.joined(separator: ", "))")
                throw ExitCode(1)
            }
            say("every count within \(String(format: "%g", tolerance))% of the baseline (or under it)")
        }
    }

    private var wrapper: (String) -> [String] {
        { file in
            // The same hash seed in every run: with a random one, how far a table probes, and the order a set is
            // walked in, change from run to run and the count with them.
            ["SWIFT_DETERMINISTIC_HASHING=1", "valgrind", "-q", "--tool=callgrind", "--callgrind-out-file=\(file)"]
                + (inside.map { ["--toggle-collect=\($0)"] }
                    ?? (requestsOnly
                        ? ["--toggle-collect=*RequestProcessorV5parse*", "--toggle-collect=*RequestProcessorV3run*"]
                        : []))
        }
    }

    /// Engine instructions per request; also both runs' callgrind files.
    private func engineCount(_ body: [UInt8], _ context: ZMQContext) throws -> (
        Double, (shorter: String, longer: String)
    ) {
        var totals: [Int] = []
        var files: [String] = []
        for n in [20, requests] {
            let file = Scratch.file("engine-\(n)-\(UUID().uuidString.prefix(6)).callgrind")
            // No ticks during the run: their number would depend on valgrind's speed.
            let stored =
                durability.map {
                    ["--state-dir", Scratch.file("cg-state-\(n)-\(UUID().uuidString.prefix(6))"), "--durability", $0]
                } ?? []
            let engine = try RoundTrip.engine(
                .ipc, name: "cg\(n)", extra: ["--tick-ms", "100000000"] + stored, wrapperFile: file,
                wrapper: wrapper(file))
            let c = try Connection(context, engine.rpc)
            try RoundTrip.createDemo(c)
            for _ in 0..<n { _ = try c.call(body) }
            // Counted up to here, not to the engine's exit: how much of its shutdown (freeing the sessions, the
            // replay ring) runs before the process ends varies from run to run, and the difference of two runs
            // would carry it. One more light request, answered, makes sure the last one's work after its reply
            // (freeing its outcome) is done; both runs have it, so it cancels.
            _ = try c.call(ProfiledRequest.light.body)
            let counted = try Self.dump(engine.pid, file)
            engine.stop()
            totals.append(try Self.total(counted))
            files.append(counted)
        }
        return (Double(totals[1] - totals[0]) / Double(requests - 20), (files[0], files[1]))
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

    /// Has callgrind in process `pid` write its counts so far (`callgrind_control --dump`, to `<file>.1`), and
    /// answers that file's path.
    static func dump(_ pid: Int32, _ file: String) throws -> String {
        let control = Process()
        control.executableURL = URL(fileURLWithPath: "/usr/bin/callgrind_control")
        control.arguments = ["--dump", "\(pid)"]
        // It says what it does on both streams; its status and the file it writes are the answer.
        control.standardOutput = FileHandle.nullDevice
        control.standardError = FileHandle.nullDevice
        try control.run()
        control.waitUntilExit()
        let dumped = "\(file).1"
        guard control.terminationStatus == 0, (try? total(dumped)) != nil else {
            throw BenchError("callgrind_control could not have process \(pid) write its counts to \(dumped)")
        }
        return dumped
    }

    /// The `totals:` (or `summary:`) line of a callgrind file: instructions executed.
    static func total(_ file: String) throws -> Int {
        let text = try String(contentsOfFile: file, encoding: .utf8)
        for line in text.split(separator: "\n") where line.hasPrefix("totals:") || line.hasPrefix("summary:") {
            if let n = Int(line.split(separator: " ").last ?? "") { return n }
        }
        throw BenchError("no totals in \(file)")
    }

    /// The functions whose instructions grew most from the shorter run to the longer, per request: what a
    /// request costs in each, with start-up (the runtime's first conformance lookups, the method table) gone.
    private func printTop(_ files: (shorter: String, longer: String), title: String) {
        let shorter = Self.functionCosts(files.shorter, inclusive: inclusive)
        let longer = Self.functionCosts(files.longer, inclusive: inclusive)
        let perRequest = longer.map { ($0.key, Double($0.value - (shorter[$0.key] ?? 0)) / Double(requests - 20)) }
            .sorted { $0.1 > $1.1 }.prefix(top)
        say(
            "\n  \(title): most instructions per request (\(inclusive ? "inclusive" : "self"); the longer run less the shorter)"
        )
        let names = Self.demangled(perRequest.map(\.0))
        for ((_, cost), name) in zip(perRequest, names) {
            say(String(format: "%10.0f  ", cost) + String(name.prefix(200)))
        }
        say("")
    }

    /// Instructions by function (self or inclusive) from `callgrind_annotate`, keyed by its file:function text.
    static func functionCosts(_ file: String, inclusive: Bool) -> [String: Int] {
        guard
            let out = Self.output([
                "callgrind_annotate", "--auto=no", "--threshold=100", "--inclusive=\(inclusive ? "yes" : "no")", file
            ])
        else { return [:] }
        var costs: [String: Int] = [:]
        for line in out.split(separator: "\n") {
            // "  1,234 (12.34%)  file:function [object]"
            let trimmed = line.drop { $0 == " " }
            guard let space = trimmed.firstIndex(of: " "), let count = Int(trimmed[..<space].filter { $0 != "," }),
                let close = trimmed.firstIndex(of: ")")
            else { continue }
            var name = trimmed[trimmed.index(after: close)...].drop { $0 == " " }
            if let object = name.range(of: " [", options: .backwards), name.hasSuffix("]") {
                name = name[..<object.lowerBound]
            }
            if name == "PROGRAM TOTALS" { continue }
            costs[String(name), default: 0] += count
        }
        return costs
    }

    /// `swift demangle --simplified` over the names, one a line; the names as they are where it is missing.
    static func demangled(_ names: [String]) -> [String] {
        let joined = names.joined(separator: "\n")
        guard let out = output(["swift", "demangle", "--simplified"], input: joined) else { return names }
        let lines = out.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        return lines.count >= names.count ? Array(lines.prefix(names.count)) : names
    }

    private static func output(_ arguments: [String], input: String? = nil) -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let out = Pipe(), inPipe = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        if input != nil { process.standardInput = inPipe }
        do { try process.run() } catch { return nil }
        if let input {
            // Written from another thread: a large input must not wait on the output pipe filling up.
            let handle = inPipe.fileHandleForWriting
            Thread.detachNewThread {
                handle.write(Data(input.utf8)); try? handle.close()
            }
        }
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return process.terminationStatus == 0 ? String(decoding: data, as: UTF8.self) : nil
    }

    static func thousands(_ n: Double) -> String {
        n >= 1_000_000 ? String(format: "%.2fM", n / 1e6) : String(format: "%.1fk", n / 1e3)
    }
}
