import ArgumentParser
import Foundation
import ResponderClient
import ResponderJSON
import ResponderOutput
import ResponderProtocol

struct WatchCommand: EngineCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Print a session's events as they happen, one line each, until Ctrl-C.",
        discussion: """
            Joins without missing anything: subscribes, takes a snapshot, then prints events in seq order, \
            filling gaps from the engine's replay ring (shown as "recovered N events (a…b)"). Each line reads \
            `#seq stream (cause client) summary`: the ops of a tree change, the path of a dispatch, a focus change. \
            With --since the history after that seq is replayed first; when the engine cannot replay it (events it \
            no longer holds, or --since 0 on a session that began with responderd --world, whose world is in no \
            event) watch says why and starts from a snapshot. --json prints one JSON object per line. \
            Stops when the session is deleted (status 0) or the engine goes away (status 1).
            """
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var session: SessionOptions

    @Option(
        name: .customLong("stream"), parsing: .upToNextOption,
        help: ArgumentHelp("Streams to print (repeatable or space-separated). Default: all.", valueName: "stream"))
    var streams: [EventStream] = []

    @Option(
        help: ArgumentHelp(
            "Replay the events after this seq first, instead of starting from a snapshot.", valueName: "seq"))
    var since: Int?

    func validate() throws {
        if let since, since < 0 { throw ValidationError("--since must be 0 or more") }
    }

    /// Listed by `responder clients` for as long as it runs.
    var lifetime: ClientLifetime { .longLived(command: "watch") }

    /// How often watch says hello again: the engine lists a client that sent a request within its idle
    /// window (default 600 s), and watch otherwise only listens.
    static let helloInterval: TimeInterval = 30

    func run(_ client: Client) throws {
        // The follower receives every stream and hands out only these: seq runs across all streams, so
        // skipping the others is no gap to recover.
        let follower = try SessionFollower(
            connection: client.connection, session: session.session,
            streams: streams.isEmpty ? nil : streams, since: since)
        if let since, !global.json { emit("replaying \(session.session) after seq \(since)") }
        // Display names (an imported world's), from the snapshot and the nodes later events bring.
        var names = NodeNames.none
        var quietSince = Date()
        var nextHello = Date().addingTimeInterval(Self.helloInterval)
        let pid = client.connection.address.pid
        while true {
            if Date() >= nextHello {
                nextHello = Date().addingTimeInterval(Self.helloInterval)
                _ = try? client.send(ClientHelloRequest(name: lifetime.name, kind: lifetime.kind))
            }
            // An engine found by its discovery file has a pid: its end is seen within a poll.
            if let pid, !EngineAddress.isAlive(pid) { throw ClientError.noEngine(Self.gone(pid)) }
            guard let item = try follower.next(timeoutMs: Self.pollMs) else {
                // The engine ticks every second or so ($sys/tick): after a silence of several ticks, ask it
                // (an engine given by --connect has no pid to look at), and read its discovery file again.
                if Date().timeIntervalSince(quietSince) > Self.quietSeconds {
                    quietSince = Date()
                    if connectedByEndpoints {
                        _ = try client.send(EngineInfoRequest())
                    } else {
                        _ = try global.address()
                    }
                }
                continue
            }
            quietSince = Date()
            if case .snapshot = item, let refused = follower.replayRefused, !global.json {
                // Say why the history was not replayed (--since 0 on a session that began with a world file,
                // or events the engine no longer holds).
                emit("not replayed: \(refused.message)")
            }
            if !global.json { Self.learn(item, into: &names) }
            if !show(item, names: names) { return }
        }
    }

    /// How long one wait for an event lasts: the most it takes to notice that the engine's process ended.
    static let pollMs = 250

    /// Silence (no event, no tick) after which watch checks on the engine.
    static let quietSeconds: TimeInterval = 3

    /// The endpoints were given (--connect or the environment), not read from a discovery file.
    private var connectedByEndpoints: Bool {
        global.connect != nil || ProcessInfo.processInfo.environment["RESPONDER_RPC"].map { !$0.isEmpty } == true
    }

    static func gone(_ pid: Int) -> String { "the engine (pid \(pid)) is gone: watch stops" }

    /// Prints one item; false when following must stop (the session was deleted).
    private func show(_ item: SessionFollower.Item, names: NodeNames) -> Bool {
        switch item {
        case .snapshot(let s):
            if global.json {
                emit(JSONCodec.encodeString(["snapshot": WireEncoder.encode(s)]))
            } else {
                let nodes = InputFile.countNodes(s.tree)
                emit(
                    "following \(session.session) from seq \(s.seq) (revision \(s.revision), \(nodes) node\(nodes == 1 ? "" : "s"))"
                )
            }
        case .event(let e):
            emit(global.json ? JSONCodec.encodeString(e.body) : EventFormatter.line(e.body, names: names))
        case .recovered(let after, let through, let count):
            emit(
                global.json
                    ? JSONCodec.encodeString([
                        "recovered": ["after": JSON(after), "through": JSON(through), "count": JSON(count)]
                    ])
                    : "recovered \(count) event\(count == 1 ? "" : "s") (\(after + 1)…\(through))")
        case .system(let e):
            guard e.topic == "$sys/sessions", e.body["session"]?.stringValue == session.session,
                e.body["action"]?.stringValue == "deleted"
            else { return true }
            if global.json {
                emit(JSONCodec.encodeString(e.body))
            } else {
                emit("session \(session.session) was deleted")
            }
            return false
        }
        return true
    }

    /// The names a snapshot holds, or a tree event's new world or inserted nodes bring (ids keep their names:
    /// an update cannot change annotations' meaning for a node already seen).
    static func learn(_ item: SessionFollower.Item, into names: inout NodeNames) {
        switch item {
        case .snapshot(let s):
            names = NodeNames(trees: [s.tree] + (s.detached.arrayValue ?? []))
        case .event(let e) where e.body["stream"]?.stringValue == "tree":
            if e.body["change"]?.stringValue == "load" {
                names = NodeNames(trees: [e.body["tree"] ?? .null] + (e.body["detached"]?.arrayValue ?? []))
            }
            for op in e.body["ops"]?.arrayValue ?? [] where op["op"]?.stringValue == "insert" {
                names.add(op["node"] ?? .null)
            }
        default:
            break
        }
    }

    private func emit(_ line: String) {
        Output.line(line)
        Output.flush()
    }
}

extension EventStream: ExpressibleByArgument {}
