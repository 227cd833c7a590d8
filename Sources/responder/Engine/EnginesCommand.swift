import ArgumentParser
import Foundation
import ResponderJSON
import ResponderLocal
import ResponderOutput

/// `responder engines`: the engines that run, found where they guard their names. An engine holds an
/// exclusive flock on `<dir>/<name>.lock` for its life and names its endpoints in `<dir>/<name>.json`; the
/// kernel drops the lock when the engine dies, so a held lock is a running engine and a discovery file
/// without one was left behind by a crash.
struct EnginesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "engines",
        abstract: "List the engines that run (in --dir): name, pid, version, start time, endpoints.",
        discussion: """
            Reads the directory where engines put their lock and discovery files ($XDG_RUNTIME_DIR/responder or \
            /tmp/responder-<uid>, or --dir) and lists each engine whose name is held, that is, whose process \
            runs. Files left by an engine that is gone are said on stderr. Connects to none of them. --json \
            prints each running engine's discovery file as a JSON array.

            Example:
              responder engines
            """
    )

    @ParentCommand var responder: Responder
    @OptionGroup var global: GlobalOptions

    struct Found {
        var name: String
        var pid: Int?
        var file: Discovery.File?
    }

    func validate() throws {
        if responder.session.session != SessionOptions.defaultSession {
            throw ValidationError("--session does not apply to engines")
        }
    }

    func run() throws {
        let directory = global.dir ?? Discovery.defaultDirectory()
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory)
                .filter { $0.hasSuffix(".lock") }.map { String($0.dropLast(".lock".count)) }.sorted()
        } catch {
            if !FileManager.default.fileExists(atPath: directory) {
                if global.json { Output.printJSON(.array([])) } else { Output.line("no engine runs (no \(directory))") }
                return
            }
            throw CLIError("cannot read \(directory): \(InputFile.systemReason(directory))")
        }
        let held = Self.heldLocks()
        var running: [Found] = []
        for name in names {
            let lock = "\(directory)/\(name).lock"
            let pid = Self.pid(inLock: lock)
            let file = FileManager.default.contents(atPath: Discovery.filePath(directory: directory, name: name))
                .flatMap { try? JSONCodec.decode(Array($0)) }.flatMap(Discovery.File.init(json:))
            if Self.isHeld(lock, pid: pid, held: held) {
                running.append(Found(name: name, pid: pid ?? file?.pid, file: file))
            } else if file != nil {
                Output.error(
                    "note: \(name): its engine (pid \(Describe.number(file?.pid ?? pid))) is gone; its files remain")
            }
        }
        if global.json {
            Output.printJSON(
                .array(
                    running.map { found in
                        found.file?.json
                            ?? .object([("name", .string(found.name)), ("pid", found.pid.map { JSON($0) } ?? .null)])
                    }))
            return
        }
        guard !running.isEmpty else {
            Output.line("no engine runs in \(directory)")
            return
        }
        Table.print(
            header: ["NAME", "PID", "VERSION", "STARTED", "RPC"],
            rows: running.map { e in
                [
                    e.name, Describe.number(e.pid), e.file?.version ?? "-", e.file?.startedAt ?? "-",
                    e.file?.rpc ?? "(no discovery file yet)"
                ]
            })
    }

    /// The pid an engine wrote into its lock file.
    static func pid(inLock path: String) -> Int? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return Int(String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// The flock locks the kernel holds, as (device, inode) → pid, from /proc/locks; nil where it is not readable.
    static func heldLocks() -> [String: Int]? {
        guard let data = FileManager.default.contents(atPath: "/proc/locks") else { return nil }
        var out: [String: Int] = [:]
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
            // `1: FLOCK  ADVISORY  WRITE 20041 00:2f:1234 0 EOF` (a blocked waiter's line has `->` after the number).
            let fields = line.split(separator: " ").filter { $0 != "->" }
            guard fields.count >= 6, fields[1] == "FLOCK", let pid = Int(fields[4]) else { continue }
            out[String(fields[5])] = pid
        }
        return out
    }

    /// Whether the lock at `path` is held: by /proc/locks (matched by device and inode), else by whether the
    /// pid written in it still runs.
    static func isHeld(_ path: String, pid: Int?, held: [String: Int]?) -> Bool {
        var st = stat()
        guard stat(path, &st) == 0 else { return false }
        if let held {
            let dev = UInt64(st.st_dev)
            // /proc/locks writes the device as major:minor in hex (the kernel's MAJOR/MINOR of st_dev).
            let major = (dev >> 8) & 0xfff | ((dev >> 32) & ~UInt64(0xfff))
            let minor = (dev & 0xff) | ((dev >> 12) & ~UInt64(0xff))
            let key = String(format: "%02x:%02x:%llu", major, minor, UInt64(st.st_ino))
            return held[key] != nil
        }
        guard let pid else { return false }
        return kill(pid_t(pid), 0) == 0 || errno == EPERM
    }
}
