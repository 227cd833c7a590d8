import ArgumentParser
import Foundation
import ResponderCore
import ResponderJSON
import ResponderProtocol

/// Where a large tree.load's time goes, phase by phase, in-process (the scale figure is the sum of these on the
/// reader thread and the engine thread, plus the transport): where to look when that figure falls short.
struct LoadPhasesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "load-phases",
        abstract: "Times each phase of loading a balanced world in-process: parse, node list, world, tree event.")

    @Option(help: "Views in the balanced world (fan-out 10).")
    var views = 1_000_000

    @Option(help: "Hit tests to time on the loaded world (0: none).")
    var hitTests = 1000

    func run() throws {
        let body = Requests.body("tree.load", rawParams: Worlds.params(tree: Worlds.balanced(views)))
        print("== load phases: \(views) views, \(bytesText(Double(body.count))) request")
        var total = 0.0
        func phase<T>(_ name: String, _ work: () throws -> T) rethrows -> T {
            var result: T?
            let t = try elapsed { result = try work() }
            total += t
            print("  \(name): \(seconds(t))")
            return result!
        }
        // What the engine's reader does first: the tree read from the text (`PlainTree`), the rest of the request
        // by the general reader. The general reader's phases follow, for a tree it does not read.
        var split: (method: String, request: [UInt8], tree: NodeTree)?
        let plain = elapsed {
            split = PlainTree.split(
                request: body, methods: ["tree.load"], standIn: Array(#"{"id":"app","kind":"application"}"#.utf8),
                maxDepth: 1_000_000)
        }
        guard split != nil else {
            throw BenchError("PlainTree did not read this tree.load: the engine reads it the general way")
        }
        // What the engine does with a tree whose nodes list their children last (as this one's do): each node
        // placed in the world as the reader hands it on, no node list between.
        var streamed: World?
        let stream = elapsed {
            var reached = false
            guard
                var split = StreamedLoad.split(
                    request: body, methods: ["tree.load"], standIn: Array("{}".utf8),
                    limits: Limits(maxNodes: 3_000_000, maxDepth: 1_000_000), reached: &reached)
            else { return }
            streamed = split.load.world(detached: [])
        }
        guard let streamed else { throw BenchError("the stream did not place this tree.load's world") }
        print("  the engine's read and build in one (StreamedLoad, the tree placed as it is read): \(seconds(stream))")
        _ = consume streamed
        print(
            "  the node list straight from the text (PlainTree), where the stream leaves it: \(seconds(plain)) — then, the general reader's phases:"
        )
        var json = try phase("parse the request (JSON tree)") { try JSONCodec.decode(body) }
        let tree = try phase("node list (NodeTree, fields validated)") {
            try NodeTree(wire: json["params"]!["tree"]!, path: "tree")
        }
        phase("free the JSON tree") { JSON.release(&json) }
        let parseAndNodes = total
        let limits = Limits(maxNodes: 3_000_000, maxDepth: 1_000_000)
        var state = SessionState()
        var world: World? = try phase("world (ids indexed, placement checked)") {
            try World.prepared(tree: tree, detached: [], limits: limits)
        }
        // Handed over, as the engine hands over the world its reader prepared (a world still shared is copied).
        _ = phase("the session takes it (revision, changes, consequences)") { state.load(prepared: world.take()!) }
        let bound = phase("its text's lower bound (is it kept unwritten?)") { state.world.minimumEncodedSize() }
        let encoded = phase("tree event (the world written out)") { state.world.encoded() }
        var samples: [Double] = []
        for _ in 0..<hitTests { samples.append(elapsed { _ = state.hitTest(at: Point(12345, 67890)) }) }
        if !samples.isEmpty {
            print(
                "  then a hit test with its trace, in-process: median \(micros(Percentiles(samples).median)) of \(hitTests)"
            )
        }
        print(
            "  in all: \(seconds(total)) (the text read by PlainTree instead of the first three: \(seconds(total - parseAndNodes + plain))); tree event \(bytesText(Double(encoded.count))) (\(encoded.count / max(views, 1)) B per view, lower bound \(bound / max(views, 1)) B)"
        )
        print("  (an engine writes the tree event only when someone subscribes to it or the event fits --replay-bytes)")
    }
}
