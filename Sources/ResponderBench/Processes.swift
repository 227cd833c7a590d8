import Foundation

/// The transports the round trips are measured over.
enum Transport: String, CaseIterable {
    case ipc, tcp
}

/// A scratch directory for one suite run: ipc sockets, world files, discovery files. Short, because ipc
/// paths over ~100 characters fail.
enum Scratch {
    static let directory: String = {
        let path = "/tmp/rb-\(getpid())"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }()
    static func file(_ name: String) -> String { "\(directory)/\(name)" }
    static func remove() { try? FileManager.default.removeItem(atPath: directory) }
}

/// Executables built beside this one.
enum Binaries {
    static var directory: String {
        URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent().path
    }
    static var responderd: String { "\(directory)/responderd" }
    static var bench: String { "\(directory)/responder-bench" }
    static var responder: String { "\(directory)/responder" }
}

/// Waits for `condition`, polling, up to `seconds`.
func waitFor(_ what: String, seconds: Double = 120, _ condition: () -> Bool) throws {
    let deadline = Date().addingTimeInterval(seconds)
    while !condition() {
        guard Date() < deadline else { throw BenchError("timed out waiting for \(what)") }
        usleep(2_000)
    }
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A responderd child process with its own directory and endpoints. `wrapper` runs it under a tool
/// (valgrind) for the instruction counts.
final class EngineProcess {
    let process = Process()
    let name: String
    let rpc: String
    let events: String

    init(name: String, transport: Transport, world: String? = nil, extra: [String] = [], wrapper: [String] = []) throws
    {
        self.name = name
        let dir = Scratch.file(name)
        try? FileManager.default.removeItem(atPath: dir)
        var args = ["--name", name, "--dir", dir, "--log-level", "error"]
        switch transport {
        case .ipc: args += ["--rpc", "ipc://\(dir)/r", "--events", "ipc://\(dir)/e"]
        // Plain tcp on loopback, as the raw echo it is compared with (CURVE is a cost of its own).
        case .tcp: args += ["--rpc", "tcp://127.0.0.1:*", "--events", "tcp://127.0.0.1:*", "--insecure-tcp"]
        }
        if let world { args += ["--world", world] }
        args += extra
        // In memory unless a figure asks for durability: the figures are the engine's, not the disk's.
        if !extra.contains(where: { $0.hasPrefix("--state-dir") || $0.hasPrefix("--durability") }) {
            args.append("--ephemeral")
        }
        if wrapper.isEmpty {
            process.executableURL = URL(fileURLWithPath: Binaries.responderd)
            process.arguments = args
        } else {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = wrapper + [Binaries.responderd] + args
        }
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        // The discovery file appears once both sockets are bound; it names the real tcp ports.
        let discovery = "\(dir)/\(name).json"
        let child = process
        try waitFor("responderd \(name) to start", seconds: 300) {
            FileManager.default.fileExists(atPath: discovery) || !child.isRunning
        }
        guard process.isRunning,
            let data = FileManager.default.contents(atPath: discovery),
            let file = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let rpc = file["rpc"] as? String, let events = file["events"] as? String
        else { throw BenchError("responderd \(name) did not start") }
        self.rpc = rpc
        self.events = events
    }

    var pid: Int32 { process.processIdentifier }

    /// Resident and peak resident bytes (/proc VmRSS, VmHWM).
    var memory: (rss: Int, peak: Int) {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        func field(_ name: String) -> Int {
            guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix(name) }) else { return 0 }
            return
                (Int(
                    line.split(separator: " ").dropFirst().first { !$0.isEmpty }?.trimmingCharacters(in: .whitespaces)
                        ?? "") ?? 0) * 1024
        }
        return (field("VmRSS:"), field("VmHWM:"))
    }

    /// `memory` once the resident size has stopped falling (what reading a large request left is freed on the
    /// reader thread after the reply): eleven readings 100 ms apart within 0.5% of each other, or 15 s.
    func settledMemory() throws -> (rss: Int, peak: Int) {
        // Flat for a whole second: freeing a large request's leftovers takes the reader a few tenths of a second
        // during which the size does not move, and only its malloc_trim at the end gives the memory back.
        let deadline = Date().addingTimeInterval(15)
        var readings = [memory.rss]
        while Date() < deadline {
            Thread.sleep(forTimeInterval: 0.1)
            readings.append(memory.rss)
            let last = readings.suffix(11)
            if last.count == 11, let low = last.min(), let high = last.max(), Double(high - low) <= 0.005 * Double(high)
            {
                break
            }
        }
        return memory
    }

    func stop() {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }

    /// An engine a failed figure leaves behind is stopped as its handle goes: left running it would hold the
    /// bench's output open after the bench exits, and whoever reads that output would wait for it.
    deinit {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
    }
}

/// `responder-bench echo` as a child process.
final class EchoProcess {
    let process = Process()
    let endpoint: String
    var pid: Int32 { process.processIdentifier }

    /// The XPUB endpoint when started with `publishing` (ipc only).
    let events: String?

    init(transport: Transport, wrapper: [String] = [], publishing: Bool = false) throws {
        let wanted =
            transport == .ipc ? "ipc://\(Scratch.file("echo-\(UUID().uuidString.prefix(8))"))" : "tcp://127.0.0.1:*"
        events = publishing ? "ipc://\(Scratch.file("echo-events-\(UUID().uuidString.prefix(8))"))" : nil
        let arguments = ["echo", wanted] + (events.map { ["--publish", $0] } ?? [])
        let out = Pipe()
        if wrapper.isEmpty {
            process.executableURL = URL(fileURLWithPath: Binaries.bench)
            process.arguments = arguments
        } else {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = wrapper + [Binaries.bench] + arguments
        }
        process.standardOutput = out
        try process.run()
        // "ready <endpoint>" once bound.
        var line = [UInt8]()
        while true {
            let byte = out.fileHandleForReading.readData(ofLength: 1)
            guard let b = byte.first else { throw BenchError("the echo process did not start") }
            if b == UInt8(ascii: "\n") { break }
            line.append(b)
        }
        endpoint = String(decoding: line, as: UTF8.self).replacingOccurrences(of: "ready ", with: "")
    }

    func stop() {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }

    /// An engine a failed figure leaves behind is stopped as its handle goes: left running it would hold the
    /// bench's output open after the bench exits, and whoever reads that output would wait for it.
    deinit {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
    }
}
