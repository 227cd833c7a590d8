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
        func flush() {
            guard let p = pending else { return }
            write(p.line)
            written += 1
            pending = nil
        }
        while count.map({ written < $0 }) ?? true {
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
    }
}

struct ReplayCommand: EngineCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Replay a recording in a fresh session; with --check, compare each trace with the recorded one.",
        discussion: """
            Creates a new session from the recording's snapshot (tree, detached, profile, clock, first \
            responders), re-sends every request in order and deletes the session. With --check: exit 0 when \
            every trace matches, 1 with the first differences (which request, which step) when not.
            """
    )

    @OptionGroup var global: GlobalOptions

    @Argument(help: "Recording file (- for stdin).") var file: String

    @Flag(help: "Compare each new trace with the recorded one; exit 1 on a difference.") var check = false

    @Option(help: "Name of the session to replay into (default: a fresh replay-… name; deleted afterwards).") var into:
        String?

    func run(_ client: Client) throws {
        let data: Data
        if file == "-" {
            data = FileHandle.standardInput.readDataToEndOfFile()
        } else {
            guard let d = FileManager.default.contents(atPath: file) else {
                throw CLIError("\(file): cannot read the file")
            }
            data = d
        }
        var lines: [(number: Int, value: JSON)] = []
        for (i, raw) in data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated() {
            if raw.allSatisfy({ $0 == 32 || $0 == 13 || $0 == 9 }) { continue }
            do { lines.append((i + 1, try JSONCodec.decode(Array(raw)))) } catch {
                throw CLIError("\(file):\(i + 1): not a JSON line")
            }
        }
        guard let first = lines.first, first.value["type"]?.stringValue == "snapshot" else {
            throw CLIError("\(file): the first line must be a snapshot ({\"type\": \"snapshot\", …})")
        }
        let name = into ?? "replay-\(getpid())-\(Int(Date().timeIntervalSince1970 * 1000) % 1_000_000_000)"
        let conn = client.connection
        defer { _ = try? conn.call(SessionDeleteRequest.method, .object([("session", .string(name))])) }
        var created = false
        var requests = 0, matched = 0
        var differences: [String] = []
        let recordedTaps = TapNames(), replayedTaps = TapNames()
        for (number, line) in lines {
            switch line["type"]?.stringValue {
            case "snapshot":
                if !(line["liveTouches"]?.arrayValue ?? []).isEmpty || !(line["livePresses"]?.arrayValue ?? []).isEmpty
                {
                    Output.error(
                        "warning: \(file):\(number): the snapshot has touches or presses in progress; they are not replayed"
                    )
                }
                var params: [(key: String, value: JSON)] = [("session", .string(name)), ("tree", line["tree"] ?? .null)]
                if let d = line["detached"], !(d.arrayValue ?? []).isEmpty { params.append(("detached", d)) }
                if !created {
                    if let p = line["profile"] { params.append(("profile", p)) }
                    _ = try conn.call(SessionCreateRequest.method, .object(params))
                    created = true
                } else {
                    _ = try conn.call(TreeLoadRequest.method, .object(params))
                }
                if let clock = line["clock"]?.doubleValue, clock > 0 {
                    _ = try conn.call(
                        ClockAdvanceRequest.method, .object([("session", .string(name)), ("to", JSON(clock))]))
                }
                for (_, responder) in line["firstResponders"]?.objectMembers ?? [] {
                    if let id = responder.stringValue {
                        _ = try conn.call(
                            BecomeRequest.method, .object([("session", .string(name)), ("id", .string(id))]))
                    }
                }
            case "request":
                requests += 1
                guard let method = line["method"]?.stringValue else {
                    throw CLIError("\(file):\(number): a request line needs a method")
                }
                let params = (line["params"] ?? [:]).setting("session", .string(name))
                let label = "request \(requests) (line \(number), \(method) \(Self.short(line["params"] ?? [:])))"
                let trace: JSON
                switch Result(catching: { () throws(ClientError) -> JSON in
                    try Self.send(conn, method, params, session: name)
                }) {
                case .success(let t): trace = t
                case .failure(let error):
                    let text: String
                    if case .rpc(let e) = error { text = "\(e.name.rawValue): \(e.message)" } else { text = "\(error)" }
                    differences.append("\(label): failed on replay: \(text)")
                    continue
                }
                let recorded = line["trace"] ?? .null
                // Fresh tap touches are named tap-<n> by a per-session counter the snapshot does not carry:
                // they are compared by order of first appearance.
                if recordedTaps.canon(recorded) == replayedTaps.canon(trace) {
                    matched += 1
                } else if check {
                    differences.append(Self.diff(label, recorded: recorded, replayed: trace))
                }
            default:
                throw CLIError(
                    "\(file):\(number): unknown line type \(line["type"].map { PrettyJSON.render($0) } ?? "(none)")")
            }
            if check && !differences.isEmpty { break }
        }
        if check {
            if differences.isEmpty {
                Output.line("replayed \(requests) request\(requests == 1 ? "" : "s"): every trace matches")
                return
            }
            for d in differences { Output.line(d) }
            Output.line(
                "replay differs from the recording (\(matched) of \(requests) request\(requests == 1 ? "" : "s") matched before it)"
            )
            throw ExitCode.failure
        }
        for d in differences { Output.error(d) }
        Output.line("replayed \(requests) request\(requests == 1 ? "" : "s") into \(name)")
    }

    /// Sends one recorded request; returns the trace it produced (tree.apply and tree.load publish their
    /// consequences' trace rather than return it: it is read back with trace.replay).
    static func send(_ conn: ResponderConnection, _ method: String, _ params: JSON, session: String) throws(ClientError)
        -> JSON
    {
        let reply = try conn.call(method, params)
        if let t = reply["trace"] { return t }
        var trace: JSON = .null
        if let range = reply["seqRange"]?.arrayValue, let a = range.first?.intValue, let b = range.last?.intValue {
            let events = try conn.call(
                TraceReplayRequest.method, .object([("session", .string(session)), ("after", JSON(a - 1))]))
            for entry in events["events"]?.arrayValue ?? [] {
                let e = entry["event"] ?? .null
                if e["stream"]?.stringValue == "trace", let s = e["seq"]?.intValue, s <= b {
                    trace = e["trace"] ?? .null
                }
            }
        }
        return trace
    }

    static func short(_ params: JSON) -> String {
        let text = String(decoding: JSONCodec.encode(params), as: UTF8.self)
        return text.count > 80 ? String(text.prefix(80)) + "…" : text
    }

    /// Which step (or the outcome) differs first, both sides shown.
    static func diff(_ label: String, recorded: JSON, replayed: JSON) -> String {
        func render(_ j: JSON?) -> String {
            j.map { String(decoding: JSONCodec.encode($0), as: UTF8.self) } ?? "(none)"
        }
        var lines = ["\(label): the trace differs"]
        let a = recorded["steps"]?.arrayValue ?? [], b = replayed["steps"]?.arrayValue ?? []
        if recorded["kind"] != replayed["kind"] {
            lines.append("  kind: recorded \(render(recorded["kind"])), replayed \(render(replayed["kind"]))")
        }
        var shown = 0
        for i in 0..<max(a.count, b.count) where shown < 3 {
            let x = i < a.count ? a[i] : nil, y = i < b.count ? b[i] : nil
            if x != y {
                lines.append("  step \(i + 1):")
                lines.append("    recorded: \(render(x))")
                lines.append("    replayed: \(render(y))")
                shown += 1
            }
        }
        if recorded["outcome"] != replayed["outcome"] {
            lines.append("  outcome:")
            lines.append("    recorded: \(render(recorded["outcome"]))")
            lines.append("    replayed: \(render(replayed["outcome"]))")
        }
        return lines.joined(separator: "\n")
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
