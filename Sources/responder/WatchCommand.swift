import ArgumentParser
import Foundation
import ResponderClient
import ResponderProtocol

struct WatchCommand: EngineCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Print a session's events as they happen, one line each, until Ctrl-C.",
        discussion: """
            Joins without missing anything: subscribes, takes a snapshot, then prints events in seq order, \
            filling gaps from the engine's replay ring (shown as "recovered N events (a…b)"). Each line reads \
            `#seq stream (cause client) summary`: the ops of a tree change, the path of a dispatch, a focus change. \
            With --since the history after that seq is replayed first. --json prints one JSON object per line. \
            Stops when the session is deleted (status 0) or the engine goes away (status 1).
            """
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var session: SessionOptions

    @Option(name: .customLong("stream"), parsing: .upToNextOption,
            help: ArgumentHelp("Streams to print: tree, trace, focus (repeatable or space-separated). Default: all.", valueName: "stream"))
    var streams: [String] = []

    @Option(help: ArgumentHelp("Replay the events after this seq first, instead of starting from a snapshot.", valueName: "seq"))
    var since: Int?

    func validate() throws {
        if let since, since < 0 { throw ValidationError("--since must be 0 or more") }
    }

    func run(_ client: Client) throws {
        let list = Set(streams.flatMap { $0.split(separator: ",").map(String.init) })
        // Follow every stream and filter here: seq runs across all streams, so following only some would
        // look like gaps to the follower and make it replay what we do not want.
        let follower = try SessionFollower(connection: client.connection, session: session.session, since: since)
        let wanted = list.isEmpty ? nil : list
        if let since, !global.json { emit("replaying \(session.session) after seq \(since)") }
        var quietSince = Date()
        while true {
            guard let item = try follower.next(timeoutMs: 1000) else {
                // The engine ticks every second or so: after a long silence, check that it is still there.
                if Date().timeIntervalSince(quietSince) > 5 {
                    quietSince = Date()
                    _ = try global.address()
                }
                continue
            }
            quietSince = Date()
            if try !show(item, wanted: wanted) { return }
        }
    }

    /// Prints one item (events only of the `wanted` streams; nil: all); false when following must stop
    /// (the session was deleted).
    private func show(_ item: SessionFollower.Item, wanted: Set<String>?) throws -> Bool {
        switch item {
        case .snapshot(let s):
            if global.json { emit(JSONCodec.encodeString(["snapshot": s])) } else {
                let nodes = InputFile.countNodes(s["tree"])
                emit("following \(session.session) from seq \(Output.number(s["seq"])) (revision \(Output.number(s["revision"])), \(nodes) node\(nodes == 1 ? "" : "s"))")
            }
        case .event(let e):
            if let wanted, !wanted.contains(e.stream ?? "") { return true }
            emit(global.json ? JSONCodec.encodeString(e.body) : EventFormatter.line(e.body))
        case .recovered(let after, let through, let count):
            emit(global.json ? JSONCodec.encodeString(["recovered": ["after": JSON(after), "through": JSON(through), "count": JSON(count)]])
                 : "recovered \(count) event\(count == 1 ? "" : "s") (\(after + 1)…\(through))")
        case .system(let e):
            guard e.topic == "$sys/sessions", e.body["session"]?.stringValue == session.session,
                  e.body["action"]?.stringValue == "deleted" else { return true }
            if global.json { emit(JSONCodec.encodeString(e.body)) } else { emit("session \(session.session) was deleted") }
            return false
        }
        return true
    }

    private func emit(_ line: String) {
        Output.line(line)
        Output.flush()
    }
}
