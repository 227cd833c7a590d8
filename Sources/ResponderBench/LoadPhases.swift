import ArgumentParser
import Foundation
import ResponderCore
import ResponderProtocol

/// Where a large tree.load's time goes, phase by phase, in-process (the scale figure is the sum of these on the
/// reader thread and the engine thread, plus the transport): the profile behind goal 3's gap in the README.
struct LoadPhasesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "load-phases",
        abstract: "Times each phase of loading a balanced world in-process: parse, node list, world, tree event.")

    @Option(help: "Views in the balanced world (fan-out 10).")
    var views = 1_000_000

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
        var json = try phase("parse the request (JSON tree)") { try JSONCodec.decode(body) }
        let tree = try phase("node list (NodeTree, fields validated)") { try NodeTree(wire: json["params"]!["tree"]!, path: "tree") }
        phase("free the JSON tree") { JSON.release(&json) }
        let limits = Limits(maxNodes: 3_000_000, maxDepth: 1_000_000)
        var state = SessionState()
        _ = try phase("world (ids indexed, placement checked)") { try state.load(tree: tree, limits: limits) }
        let encoded = phase("tree event (the world written out)") { state.world.encoded() }
        print("  in all: \(seconds(total)); tree event \(bytesText(Double(encoded.count))) (\(encoded.count / max(views, 1)) B per view)")
    }
}
