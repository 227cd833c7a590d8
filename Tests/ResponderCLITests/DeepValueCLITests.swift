import Foundation
import Testing

/// The CLI ends a deep value's life without recursion: run here with a 2 MiB main-thread stack, where freeing
/// 40,000 JSON levels recursively would crash it.
@Suite struct DeepValueCLITests {
    /// A chain of `depth` views, `<prefix>0` on top, as node text (each level nests twice in JSON).
    static func deepNodes(_ prefix: String, _ depth: Int) -> String {
        var text = ""
        for i in 0..<depth { text += #"{"id":"\#(prefix)\#(i)","kind":"view","frame":[0,0,100,100],"children":["# }
        return text.dropLast(#","children":["#.count) + "}" + String(repeating: "]}", count: depth - 1)
    }

    /// A world file: a window holding a chain of `depth` views.
    static func deepWorld(_ depth: Int) -> String {
        #"{"tree":{"id":"app","kind":"application","children":[{"id":"W","kind":"window","frame":[0,0,100,100],"key":true,"children":["#
            + deepNodes("v", depth) + "]}]}}"
    }

    @Test(.tags(.slow)) func slowTheCLILoadsDrawsAndWatchesADeepWorldOnASmallStack() throws {
        let t = try CLIEngine()
        defer { t.stop() }
        let depth = 20_000  // 40,000 JSON levels: about 7 MiB to free recursively
        let world = try t.write("deep.json", Self.deepWorld(depth))
        let watch = try SmallStackCLI.start(["watch"] + t.target, in: t.directory)
        defer { watch.stop() }
        try watch.waitFor { $0.hasPrefix("following default") }

        let load = try SmallStackCLI.run(["load", world] + t.target)
        #expect(load.status == 0, "\(load)")
        #expect(load.stdout.contains("loaded \(depth + 2) nodes into default"), "\(load)")
        // The watcher received the whole world in the tree event, and goes on.
        try watch.waitFor { $0.contains(" tree ") && $0.contains("load: \(depth + 2) nodes") }

        let tree = try SmallStackCLI.run(["tree"] + t.target)
        #expect(tree.status == 0, "\(tree.stderr)")
        #expect(tree.lines.count == depth + 2)
        #expect(
            tree.lines.last?.hasSuffix("└─ v\(depth - 1)  view  UIView  (0, 0, 100, 100)") == true,
            "\(tree.lines.last ?? "")")

        let snapshot = try SmallStackCLI.run(["call", "session.snapshot", #"{"session":"default"}"#] + t.target)
        #expect(snapshot.status == 0, "\(snapshot.stderr)")
        #expect(snapshot.stdout.contains(#""v\#(depth - 1)""#))

        let ops = try t.write(
            "ops.json", #"{"ops":[{"op":"insert","parent":"W","node":"# + Self.deepNodes("u", depth) + "}]}")
        let apply = try SmallStackCLI.run(["apply", ops] + t.target)
        #expect(apply.status == 0, "\(apply)")
        #expect(apply.stdout.contains("applied 1 op to default"), "\(apply)")
        try watch.waitFor { $0.contains(" tree ") && $0.contains("insert u0 (view) (+\(depth - 1) descendants)") }
        #expect(watch.isRunning, "\(watch.output.suffix(2000))")
    }
}

/// Runs the built `responder` with its main thread's stack limited (`ulimit -s`), so that freeing a deep value
/// recursively would crash it.
enum SmallStackCLI {
    static let stackKiB = 2048

    static func process(_ arguments: [String], output: String) throws -> Process {
        guard let binary = CLIRunner.binary else { throw CLITestError("the responder binary was not found") }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        p.arguments =
            ["-c", #"ulimit -S -s \#(stackKiB) && exec "$0" "$@" >"$RESPONDER_TEST_OUT" 2>&1"#, binary] + arguments
        var environment = CLIRunner.environment
        environment["RESPONDER_TEST_OUT"] = output
        p.environment = environment
        p.standardInput = FileHandle.nullDevice
        return p
    }

    static func run(_ arguments: [String], timeout: Double = 120) throws -> CLIResult {
        let dir = NSTemporaryDirectory() + "cli-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let out = dir + "/out"
        let p = try process(arguments, output: out)
        try p.run()
        let deadline = Date().addingTimeInterval(timeout)
        while p.isRunning, Date() < deadline { usleep(10_000) }
        if p.isRunning {
            p.terminate()
            p.waitUntilExit()
            throw CLITestError("responder \(arguments.joined(separator: " ")) did not finish within \(timeout) s")
        }
        p.waitUntilExit()
        let text = String(decoding: FileManager.default.contents(atPath: out) ?? Data(), as: UTF8.self)
        // stdout and stderr share the file: good enough for these checks.
        return CLIResult(status: p.terminationStatus, stdout: text, stderr: text)
    }

    /// A long-running command whose output is read from its file as it grows.
    final class Running {
        let process: Process
        let outputPath: String

        init(process: Process, outputPath: String) {
            self.process = process
            self.outputPath = outputPath
        }

        var output: String {
            String(decoding: FileManager.default.contents(atPath: outputPath) ?? Data(), as: UTF8.self)
        }
        var isRunning: Bool { process.isRunning }

        func waitFor(timeout: Double = 120, _ match: (String) -> Bool) throws {
            let deadline = Date().addingTimeInterval(timeout)
            while Date() < deadline {
                if output.split(separator: "\n").contains(where: { match(String($0)) }) { return }
                guard process.isRunning else { break }
                usleep(50_000)
            }
            if output.split(separator: "\n").contains(where: { match(String($0)) }) { return }
            throw CLITestError(
                "no matching line (running: \(process.isRunning)); output so far:\n\(output.suffix(3000))")
        }

        func stop() {
            guard process.isRunning else { return }
            kill(process.processIdentifier, SIGINT)
            let deadline = Date().addingTimeInterval(5)
            while process.isRunning, Date() < deadline { usleep(10_000) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }
    }

    static func start(_ arguments: [String], in directory: String) throws -> Running {
        let out = directory + "/watch-" + UUID().uuidString.prefix(8) + ".out"
        let p = try process(arguments, output: out)
        try p.run()
        return Running(process: p, outputPath: out)
    }
}
