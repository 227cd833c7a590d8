import ResponderJSON
import ResponderOutput
import ResponderProtocol

/// `get_world` → `session.snapshot`, or `tree.get` for a subtree.
package enum GetWorldTool: MCPTool {
    package static let name = "get_world"
    package static let title = "Read the world"
    package static let description = """
        Read the simulated app's responder world: UIApplication, app delegate, windows, view controllers and views \
        (controls, text fields, text views), one node per line with its id, kind, class and frame in its superview's \
        bounds ([x, y, width, height]; a window's frame is in screen coordinates), the flags that change event \
        delivery (hidden, alpha, interaction off, disabled, key window, first responder) and its gesture \
        recognizers. Without subtree, the structured content is the whole session snapshot: tree, detached \
        subtrees, first responder per window, live touches and presses, recognizer states, revision and seq. With \
        subtree, only that node's subtree (tree.get). Node ids are what the other tools take.
        """
    package static let properties: [(key: String, value: JSON)] = [
        ("subtree", ToolSchema.nodeID("Only this node and its descendants. Default: the whole world."))
    ]
    package static let required: [String] = []
    package static let readOnly = true
    package static let renamedFields = ["id": "subtree"]

    /// Lines drawn at most; a larger world is cut with a note (the structured content has it all).
    package static let maxLines = 300

    package static func request(_ arguments: inout ToolArguments, session: String) throws(RPCError) -> EngineRequest {
        if let subtree = try arguments.optionalString("subtree") {
            return EngineRequest(
                method: TreeGetRequest.method, params: ["session": .string(session), "id": .string(subtree)],
                subject: session)
        }
        return EngineRequest(
            method: SessionSnapshotRequest.method, params: ["session": .string(session)], subject: session)
    }

    package static func text(_ reply: JSON, for request: EngineRequest) -> String {
        var lines: [String] = []
        let session = request.subject ?? "?"
        if request.method == TreeGetRequest.method {
            lines.append("session \(session), revision \(Describe.number(reply["revision"]?.intValue)):")
            TreeDrawer().draw(reply["tree"] ?? .null) { lines.append($0) }
            return cut(lines)
        }
        guard let snapshot = typed(SessionSnapshotRequest.Response.self, reply) else {
            return "the world of \(session)"
        }
        let firsts = snapshot.firstResponders.entries.map { "\($0.window) → \($0.responder ?? "none")" }
        lines.append(
            "session \(session), revision \(snapshot.revision), seq \(snapshot.seq); first responders: "
                + (firsts.isEmpty ? "no windows" : firsts.joined(separator: ", ")))
        if !snapshot.liveTouches.isEmpty {
            lines.append("live touches: " + snapshot.liveTouches.map { Describe.id($0.touch) }.joined(separator: ", "))
        }
        let drawer = TreeDrawer(
            firstResponders: Set(snapshot.firstResponders.entries.compactMap(\.responder)),
            recognizerStates: Dictionary(
                snapshot.recognizers.map { ($0.recognizer, $0) }, uniquingKeysWith: { a, _ in a }))
        drawer.draw(snapshot.tree) { lines.append($0) }
        for root in snapshot.detached.arrayValue ?? [] {
            lines.append("detached:")
            drawer.draw(root) { lines.append($0) }
        }
        return cut(lines)
    }

    private static func cut(_ lines: [String]) -> String {
        guard lines.count > maxLines else { return lines.joined(separator: "\n") }
        return
            (lines.prefix(maxLines) + [
                "… \(lines.count - maxLines) more lines: ask for a subtree, or read the structured content"
            ])
            .joined(separator: "\n")
    }
}
