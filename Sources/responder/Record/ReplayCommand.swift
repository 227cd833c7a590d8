import ArgumentParser
import Foundation
import ResponderClient
import ResponderImport
import ResponderJSON
import ResponderOutput
import ResponderProtocol

struct ReplayCommand: EngineCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Replay a recording in a fresh session; with --check, compare each request with the recorded one.",
        discussion: """
            Creates a new session from the recording's snapshot (tree, detached, profile, clock, first \
            responders), re-sends every request in order and deletes the session. With --world FILE or \
            --import DUMP the requests are replayed on that world instead (another build of the app): a golden \
            test. With --check: exit 0 when every request matches, 1 when one does not, with one line for each \
            request that differs saying what it came to, recorded → replayed (which view was hit, who handled \
            it, which actions ran, which first responder). On the recording's own world a request matches when \
            its trace is the same, and the steps that differ follow its line; on another world, when it means \
            the same: its steps may differ.

            Example (CI):
              responder replay login.jsonl --check --world build/login-world.json
            """
    )

    @OptionGroup var global: GlobalOptions

    @Argument(help: "Recording file (- for stdin).") var file: String

    @Flag(help: "Compare each request with the recorded one; exit 1 on a difference.") var check = false

    @Option(help: "Name of the session to replay into (default: a fresh replay-… name; deleted afterwards).") var into:
        String?

    @Option(
        help: ArgumentHelp(
            "Replay on this world instead of the recording's ({\"tree\": …} or an application node).",
            valueName: "file"))
    var world: String?

    @Option(
        name: .customLong("import"),
        help: ArgumentHelp(
            "Replay on the world these lldb dumps make (as `responder import` reads them; repeat for more files).",
            valueName: "dump"))
    var dumps: [String] = []

    func validate() throws {
        if world != nil && !dumps.isEmpty { throw ValidationError("give --world or --import, not both") }
    }

    /// The world replayed on, when it is not the recording's.
    struct OtherWorld {
        var tree: JSON
        var detached: JSON?
        var source: String
    }

    func run(_ client: Client) throws {
        let data = try InputFile.contents(file)
        var lines: [(number: Int, value: JSON)] = []
        for (i, raw) in data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated() {
            if raw.allSatisfy({ $0 == 32 || $0 == 13 || $0 == 9 }) { continue }
            let bytes = Array(raw)
            do { lines.append((i + 1, try JSONCodec.decode(bytes))) } catch {
                let column = error.position(in: bytes).column
                throw CLIError("\(file):\(i + 1):\(column): not a JSON line: \(error)")
            }
        }
        guard let first = lines.first, first.value["type"]?.stringValue == "snapshot" else {
            throw CLIError("\(file): the first line must be a snapshot ({\"type\": \"snapshot\", …})")
        }
        let other = try otherWorld()
        let name = into ?? "replay-\(getpid())-\(Int(Date().timeIntervalSince1970 * 1000) % 1_000_000_000)"
        let conn = client.connection
        defer { _ = try? conn.call(SessionDeleteRequest.method, .object([("session", .string(name))])) }
        var created = false
        var requests = 0, matched = 0
        var differences: [String] = []
        let recordedTaps = TapNames(), replayedTaps = TapNames()
        var recordedNames = NodeNames(trees: [])
        var replayedNames = NodeNames(trees: other.map { [$0.tree] + ($0.detached?.arrayValue ?? []) } ?? [])
        for (number, line) in lines {
            switch line["type"]?.stringValue {
            case "snapshot":
                let trees = [line["tree"] ?? .null] + (line["detached"]?.arrayValue ?? [])
                for tree in trees { recordedNames.add(tree) }
                if !(line["liveTouches"]?.arrayValue ?? []).isEmpty || !(line["livePresses"]?.arrayValue ?? []).isEmpty
                {
                    Output.error(
                        "warning: \(file):\(number): the snapshot has touches or presses in progress; they are not replayed"
                    )
                }
                if created && other != nil {
                    Output.error(
                        "warning: \(file):\(number): a later snapshot of the recorded world is not loaded on \(other!.source)"
                    )
                    continue
                }
                if other == nil { for tree in trees { replayedNames.add(tree) } }
                var params: [(key: String, value: JSON)] = [
                    ("session", .string(name)), ("tree", other?.tree ?? line["tree"] ?? .null)
                ]
                if let d = other.map({ $0.detached }) ?? line["detached"], !(d.arrayValue ?? []).isEmpty {
                    params.append(("detached", d))
                }
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
                    guard let id = responder.stringValue else { continue }
                    let params: JSON = .object([("session", .string(name)), ("id", .string(id))])
                    if other == nil {
                        _ = try conn.call(BecomeRequest.method, params)
                    } else if (try? conn.call(BecomeRequest.method, params)) == nil {
                        Output.error(
                            "warning: the recording's first responder \(recordedNames.label(id)) is not in \(other!.source)"
                        )
                    }
                }
            case "request":
                requests += 1
                guard let method = line["method"]?.stringValue else {
                    throw CLIError("\(file):\(number): a request line needs a method")
                }
                let params = (line["params"] ?? [:]).setting("session", .string(name))
                let label = "request \(requests) (line \(number), \(method) \(Self.short(line["params"] ?? [:])))"
                let recorded = line["trace"] ?? .null
                if method == TreeLoadRequest.method, let tree = line["params"]?["tree"] {
                    recordedNames.add(tree)
                    replayedNames.add(tree)
                }
                let was = TraceMeaning(recorded, names: recordedNames)
                let now: TraceMeaning
                var same: Bool
                switch Result(catching: { () throws(ClientError) -> JSON in
                    try Self.send(conn, method, params, session: name)
                }) {
                case .success(let trace):
                    now = TraceMeaning(trace, names: replayedNames)
                    // Fresh tap touches are named tap-<n> by a per-session counter the snapshot does not carry:
                    // they are compared by order of first appearance.
                    same =
                        other == nil ? recordedTaps.canon(recorded) == replayedTaps.canon(trace) : was == now
                    if !same, check {
                        var text = "\(label): " + (now.differences(from: was) ?? "the same meaning, other steps")
                        if other == nil { text += "\n" + Self.diff(recorded: recorded, replayed: trace) }
                        differences.append(text)
                    }
                case .failure(let error):
                    let text: String
                    if case .rpc(let e) = error { text = "\(e.name.rawValue): \(e.message)" } else { text = "\(error)" }
                    same = false
                    differences.append("\(label): failed on replay: \(text)")
                }
                if same { matched += 1 }
            default:
                throw CLIError(
                    "\(file):\(number): unknown line type \(line["type"].map { PrettyJSON.render($0) } ?? "(none)")")
            }
        }
        let counted = "\(requests) request\(requests == 1 ? "" : "s")"
        let on = other.map { " on \($0.source)" } ?? ""
        if check {
            if differences.isEmpty {
                Output.line(
                    other == nil
                        ? "replayed \(counted): every trace matches"
                        : "replayed \(counted)\(on): all \(matched) match the recording")
                return
            }
            for d in differences { Output.line(d) }
            let differ = requests - matched
            Output.line(
                "replay\(on) differs from the recording: \(matched) of \(counted) matched, \(differ) differ\(differ == 1 ? "s" : "")"
            )
            throw ExitCode.failure
        }
        for d in differences { Output.error(d) }
        Output.line("replayed \(counted)\(on) into \(name)")
    }

    /// The world of --world or --import, or nil to replay on the recording's own.
    func otherWorld() throws -> OtherWorld? {
        if let world {
            let read = try InputFile.world(world)
            return OtherWorld(tree: read.tree, detached: read.detached, source: world)
        }
        guard !dumps.isEmpty else { return nil }
        var dump = HierarchyDump()
        for path in dumps {
            dump.read(String(decoding: try InputFile.contents(path), as: UTF8.self), file: path)
        }
        let tree = dump.world()
        let refusals = ImportCommand.refusals(dump, ImportSummary(world: tree))
        if !refusals.isEmpty {
            throw CLIError(
                "--import: " + refusals.joined(separator: "; ")
                    + " (`responder import --partial --load` makes a world to replay on with --world)")
        }
        for p in dump.problems { Output.error("warning: " + p.text) }
        return OtherWorld(tree: tree, detached: nil, source: dumps.joined(separator: ", "))
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

    /// On the recording's own world: the steps (at most three) and the outcome that differ, both sides shown.
    static func diff(recorded: JSON, replayed: JSON) -> String {
        func render(_ j: JSON?) -> String {
            j.map { String(decoding: JSONCodec.encode($0), as: UTF8.self) } ?? "(none)"
        }
        var lines: [String] = []
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
