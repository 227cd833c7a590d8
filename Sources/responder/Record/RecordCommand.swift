import ArgumentParser
import Foundation
import ResponderClient
import ResponderJSON
import ResponderOutput
import ResponderProtocol

/// One line of a recording (Protocol/README.md section 19).
enum Recording {
    /// `{"type": "snapshot", "session", "seq", "revision", "tree", "detached", "firstResponders", "profile", "clock", …}`
    static func snapshotLine(_ s: SessionSnapshotRequest.Response) -> JSON {
        if case .object(let members) = WireEncoder.encode(s) { return .object([("type", "snapshot")] + members) }
        return ["type": "snapshot"]
    }

    /// `{"type": "request", "seq": [first, last], "method", "params", "trace"}` from the events of one request.
    static func requestLine(seq: Int, method: String, params: JSON) -> JSON {
        .object([
            ("type", "request"), ("seq", .array([JSON(seq), JSON(seq)])), ("method", .string(method)),
            ("params", params), ("trace", .null)
        ])
    }
}

struct RecordCommand: EngineCommand {
    static let configuration = CommandConfiguration(
        commandName: "record",
        abstract:
            "Record a session as JSON Lines: its snapshot, then every request that changed or dispatched, with its trace.",
        discussion: """
            The first line is the session's snapshot; each later line is one request (tree.apply, tree.load, a \
            dispatching method) with its method, params and the trace it produced. Joins without missing an event \
            (Protocol/README.md section 14). Runs until interrupted, or until --count requests are written. \
            `responder replay FILE --check` re-sends them to a fresh session and compares the traces.
            """
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var session: SessionOptions

    @Argument(help: "Recording file to write (- for stdout).") var file: String

    @Option(help: "Stop after this many requests.") var count: Int?

    func run(_ client: Client) throws {
        let out: FileHandle
        // Restarted on an existing recording, the recorder resumes after its last line (as clients/python/record.py
        // does): the requests it missed are fetched with trace.replay; a half-written last line is dropped.
        var resumeSeq: Int?
        if file == "-" {
            out = FileHandle.standardOutput
        } else if let data = FileManager.default.contents(atPath: file), !data.isEmpty {
            guard let h = FileHandle(forUpdatingAtPath: file) else { throw CLIError("\(file): cannot write the file") }
            let bytes = [UInt8](data)
            let end = (bytes.lastIndex(of: UInt8(ascii: "\n")) ?? -1) + 1
            try h.truncate(atOffset: UInt64(end))
            try h.seekToEnd()
            out = h
            let lines = bytes[..<end].split(separator: UInt8(ascii: "\n"))
            if let last = lines.last, let json = try? JSONCodec.decode(Array(last)) {
                resumeSeq =
                    json["type"]?.stringValue == "snapshot"
                    ? json["seq"]?.intValue : json["seq"]?.arrayValue?.last?.intValue
            }
        } else {
            guard FileManager.default.createFile(atPath: file, contents: nil),
                let h = FileHandle(forWritingAtPath: file)
            else {
                throw CLIError("\(file): cannot write the file")
            }
            out = h
        }
        func write(_ line: JSON) { out.write(Data(JSONCodec.encode(line) + [UInt8(ascii: "\n")])) }
        var since = resumeSeq
        if let s = since {
            let current = try client.connection.send(SessionSnapshotRequest(session: session.session)).seq
            if current < s {
                Output.error(
                    "record: \(session.session) is at seq \(current), before the recording's \(s): the session restarted; a new snapshot follows"
                )
                since = nil
            } else {
                Output.error("record: resuming \(file) after seq \(s)")
            }
        }
        let follower = try SessionFollower(connection: client.connection, session: session.session, since: since)
        var pending: (line: JSON, cause: JSON)?
        var written = 0
        var snapshots = 0
        var seqs: (first: Int, last: Int)?
        func flush() {
            guard let p = pending else { return }
            write(p.line)
            written += 1
            let range = p.line["seq"]?.arrayValue?.compactMap(\.intValue) ?? []
            if let a = range.first, let b = range.last { seqs = (seqs?.first ?? a, b) }
            pending = nil
        }
        // Ctrl-C ends the recording with what it holds and a word on it, rather than mid-line.
        RecordStop.install()
        defer { RecordStop.uninstall() }
        let target = file == "-" ? "stdout" : file
        Output.error(
            "record: recording session \(session.session) into \(target)"
                + (count.map { " until \($0) request\($0 == 1 ? "" : "s")" } ?? "") + " (Ctrl-C stops)")
        while !RecordStop.requested, count.map({ written < $0 }) ?? true {
            guard let item = try follower.next(timeoutMs: 200) else {
                flush()
                continue
            }
            switch item {
            case .snapshot(let s):
                flush()
                if resumeSeq != nil {
                    Output.error(
                        "record: a new snapshot at seq \(s.seq): the requests after seq \(resumeSeq!) and before it are lost"
                    )
                }
                write(Recording.snapshotLine(s))
                snapshots += 1
            case .event(let e):
                let body = e.body
                guard let seq = body["seq"]?.intValue else { continue }
                let cause = body["cause"] ?? .null
                let stream = body["stream"]?.stringValue
                if stream == "trace", body["request"] == nil, let p = pending, p.cause == cause {
                    // A tree change's dispatch consequences (12.6): the trace of the pending tree request.
                    pending!.line = p.line.setting("trace", body["trace"] ?? .null).setting(
                        "seq", .array([p.line["seq"]?.arrayValue?.first ?? JSON(seq), JSON(seq)]))
                    continue
                }
                if stream == "focus", let p = pending, p.cause == cause {
                    pending!.line = p.line.setting(
                        "seq", .array([p.line["seq"]?.arrayValue?.first ?? JSON(seq), JSON(seq)]))
                    continue
                }
                flush()
                if count.map({ written >= $0 }) ?? false { break }
                if stream == "trace", let request = body["request"], let method = request["method"]?.stringValue {
                    pending = (
                        Recording.requestLine(seq: seq, method: method, params: request["params"] ?? [:]).setting(
                            "trace", body["trace"] ?? .null), cause
                    )
                } else if stream == "tree", body["change"]?.stringValue == "apply" {
                    pending = (
                        Recording.requestLine(
                            seq: seq, method: "tree.apply", params: .object([("ops", body["ops"] ?? .array([]))])),
                        cause
                    )
                } else if stream == "tree", body["change"]?.stringValue == "load" {
                    pending = (
                        Recording.requestLine(
                            seq: seq, method: "tree.load",
                            params: .object([
                                ("tree", body["tree"] ?? .null), ("detached", body["detached"] ?? .array([]))
                            ])), cause
                    )
                }
            case .recovered, .system:
                continue
            }
        }
        flush()
        try? out.synchronize()
        Output.error(Self.summary(written: written, snapshots: snapshots, seqs: seqs, into: target))
    }

    /// `record: wrote 6 requests (seq 12…40) and 1 snapshot to session.jsonl`.
    static func summary(written: Int, snapshots: Int, seqs: (first: Int, last: Int)?, into target: String) -> String {
        var text = "record: wrote \(written) request\(written == 1 ? "" : "s")"
        if let seqs { text += " (seq \(seqs.first)…\(seqs.last))" }
        if snapshots > 0 { text += " and \(snapshots) snapshot\(snapshots == 1 ? "" : "s")" }
        return text + " to \(target)"
    }
}

/// SIGINT and SIGTERM during `record`: a flag the loop reads between events (at least every 200 ms).
enum RecordStop {
    nonisolated(unsafe) private static var flag: sig_atomic_t = 0

    static var requested: Bool { flag != 0 }

    static func install() {
        flag = 0
        for sig in [SIGINT, SIGTERM] { signal(sig) { _ in RecordStop.flag = 1 } }
    }

    static func uninstall() {
        for sig in [SIGINT, SIGTERM] { signal(sig, SIG_DFL) }
    }
}

/// Renames the engine's `tap-<n>` touch ids to their order of first appearance (`tap-#1`, …).
final class TapNames {
    private var names: [String: String] = [:]

    func canon(_ value: JSON) -> JSON {
        switch value {
        case .string(let s) where s.hasPrefix("tap-") && Int(s.dropFirst(4)) != nil:
            if let n = names[s] { return .string(n) }
            let n = "tap-#\(names.count + 1)"
            names[s] = n
            return .string(n)
        case .array(let items): return .array(items.map(canon))
        case .object(let members): return .object(members.map { ($0.key, canon($0.value)) })
        default: return value
        }
    }
}
