import ArgumentParser
import Foundation
import ResponderCore
import ResponderJSON
import ResponderProtocol

/// The hit test itself against its physical limit: instructions per hit test of the engine's core, in process,
/// over the 1,110-view world at the round trips' point, beside bench/hit_reference.c over the same tree compiled
/// with the system's cc. Both under callgrind, each the difference of two runs that differ only in the number of
/// hit tests (so start-up and building the world cancel out).
enum HitReference {
    static let goal = 4.0
    static let shorter = 100, longer = 1100

    /// bench/hit_reference.c of the checkout this executable was built in.
    static let source: String? = {
        var dir = URL(fileURLWithPath: Binaries.directory)
        while dir.path != "/" {
            let candidate = dir.appendingPathComponent("bench/hit_reference.c").path
            if FileManager.default.fileExists(atPath: candidate) { return candidate }
            dir.deleteLastPathComponent()
        }
        return nil
    }()

    static func run(_ report: Report) throws {
        say("== the hit test itself against a C reference (callgrind; \(longer) − \(shorter) hit tests)")
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/valgrind") else {
            report.note("reference skipped: no valgrind (apt-get install valgrind)")
            return
        }
        guard let source else {
            report.note("reference skipped: bench/hit_reference.c is not above \(Binaries.directory)")
            return
        }
        // Any C compiler on the PATH; Swift's own clang where there is none (it ships with the toolchain).
        guard let compiler = ["cc", "clang"].first(where: { run(["which", $0]) }) else {
            report.note("reference skipped: no C compiler (cc or clang) on the PATH")
            return
        }
        let binary = Scratch.file("hit_reference")
        guard run([compiler, "-O2", "-o", binary, source]) else {
            throw BenchError("\(compiler) could not compile \(source)")
        }
        let c = try perHitTest { n in [binary, "\(n)"] }
        let ours = try perHitTest { n in [Binaries.bench, "hit-loop", "\(n)"] }
        report.add(
            Figure(
                name: "the hit test itself, 1,110 views (16 asked), in process: instructions",
                measured: String(format: "%.0f", ours), baseline: String(format: "C reference %.0f", c),
                ratio: ours / c, goal: String(format: "≤ %.0f×", goal), met: ours / c <= goal))
    }

    /// Instructions per hit test of `command(n)` (n hit tests) under callgrind.
    private static func perHitTest(_ command: (Int) -> [String]) throws -> Double {
        var totals: [Int] = []
        for n in [shorter, longer] {
            let file = Scratch.file("hit-\(n)-\(UUID().uuidString.prefix(6)).callgrind")
            guard run(["valgrind", "-q", "--tool=callgrind", "--callgrind-out-file=\(file)"] + command(n)) else {
                throw BenchError("callgrind failed on \(command(n).joined(separator: " "))")
            }
            totals.append(try Profile.total(file))
        }
        return Double(totals[1] - totals[0]) / Double(longer - shorter)
    }

    private static func run(_ arguments: [String]) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        do { try process.run() } catch { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }
}

/// `responder-bench hit-loop N`: the engine's side of the reference, N in-process hit tests.
struct HitLoopCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hit-loop",
        abstract: "Loads the 1,110-view world in process and hit-tests it N times at the round trips' point.",
        discussion: "Counted under callgrind against bench/hit_reference.c (suite --only reference).")

    @Argument(help: "Hit tests to make.")
    var count: Int

    @Flag(help: "Make each hit test's answer with its ids and lists (`hitTestAnswer(at:)`), as a touch does.")
    var answer = false

    func run() throws {
        var json = try JSONCodec.decode(Worlds.grid1110())
        var state = SessionState()
        _ = try state.load(tree: try NodeTree(wire: json, path: "tree"), limits: .default)
        JSON.release(&json)
        let point = Point(Worlds.hitPoint.x, Worlds.hitPoint.y)
        var asked = 0
        if answer {
            for _ in 0..<count { asked &+= state.hitTestAnswer(at: point).visitCount }
        } else {
            // As a hitTest request makes it: into buffers kept between hit tests, the answer left there by slot.
            var scratch = HitTestScratch()
            for _ in 0..<count {
                state.hitTest(at: point, keeping: &scratch)
                asked &+= scratch.visitCount
            }
        }
        guard count == 0 || asked == 16 * count else {
            throw BenchError("the hit test asked \(asked / max(count, 1)) views, not 16")
        }
        say("\(count) hit tests, 16 views asked each")
    }
}
