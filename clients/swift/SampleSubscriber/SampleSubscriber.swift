import ArgumentParser
import Foundation
import ResponderClient
import ResponderJSON
import ResponderProtocol

/// A sample subscriber in Swift, built on the same client library as the `responder` CLI. It shows the
/// snapshot+delta join: subscribe and wait for the welcome, take session.snapshot, then apply events with a
/// greater seq in order, filling any gap from trace.replay (or re-snapshotting when the engine no longer
/// holds it). It keeps a live count of the session's nodes from the snapshot and the tree events (a remove
/// op does not say how big the removed subtree was, so after one it re-reads the tree).
@main
struct SampleSubscriber: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "responder-subscribe",
        abstract: "Follow one session of a running responderd without missing an event (snapshot + delta)."
    )

    @Option(help: "Engine instance name (its discovery file is <dir>/<name>.json).")
    var name = "default"

    @Option(help: "Directory of the discovery file. Default: $XDG_RUNTIME_DIR/responder or /tmp/responder-<uid>.")
    var dir: String?

    @Option(help: "Session to follow.")
    var session = "default"

    @Option(help: "Replay the history after this seq before following live (instead of starting from a snapshot).")
    var since: Int?

    @Option(help: "Stop after this many events (default: run until interrupted).")
    var count: Int?

    func run() throws {
        do {
            let address = try EngineAddress.locate(name: name, directory: dir)
            let connection = try ResponderConnection(address: address)
            _ = try connection.send(ClientHelloRequest(name: "responder-subscribe", kind: "subscriber"))
            let follower = try SessionFollower(connection: connection, session: session, since: since)
            var seen = 0
            var nodes = 0
            while count.map({ seen < $0 }) ?? true {
                guard let item = try follower.next(timeoutMs: 1000) else { continue }
                switch item {
                case .snapshot(let s):
                    nodes = Self.countNodes(s.tree)
                    say("snapshot: seq \(s.seq), revision \(s.revision), \(nodes) nodes")
                case .recovered(let after, let through, let n):
                    say("recovered \(n) events (seq \(after + 1)–\(through)) from trace.replay")
                case .system:
                    continue
                case .event(let e):
                    seen += 1
                    if e.stream == "tree" {
                        if e.body["change"] == "load" { nodes = Self.countNodes(e.body["tree"]) }
                        for op in e.body["ops"]?.arrayValue ?? [] {
                            switch op["op"]?.stringValue {
                            case "insert": nodes += Self.countNodes(op["node"])
                            case "remove": nodes = -1  // a removed subtree's size is not in the op: re-count below
                            default: break
                            }
                        }
                        if nodes < 0 {
                            nodes = Self.countNodes(try connection.send(TreeGetRequest(session: session)).tree)
                        }
                    }
                    let cause = e.body["cause"]?["client"]?.stringValue ?? "?"
                    say(
                        "#\(e.seq ?? 0) \(e.stream ?? "?") by \(cause) revision \(e.body["revision"]?.intValue ?? 0) nodes \(nodes)"
                    )
                }
            }
        } catch {
            FileHandle.standardError.write(Data("responder-subscribe: \(error)\n".utf8))
            throw ExitCode(1)
        }
    }

    /// One line on stdout, flushed at once: a reader of a pipe or file sees each event as it happens.
    func say(_ line: String) {
        print(line)
        fflush(nil)
    }

    /// Counts the nodes of a tree value, iteratively.
    static func countNodes(_ tree: JSON?) -> Int {
        guard let tree, !tree.isNull else { return 0 }
        var stack = [tree]
        var n = 0
        while let node = stack.popLast() {
            n += 1
            stack.append(contentsOf: node["children"]?.arrayValue ?? [])
        }
        return n
    }
}
