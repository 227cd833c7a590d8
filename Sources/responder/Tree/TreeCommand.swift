import ArgumentParser
import ResponderOutput
import ResponderProtocol

struct TreeCommand: EngineCommand {
    static let configuration = CommandConfiguration(
        commandName: "tree",
        abstract: "Draw a session's world: one line per node, children indented in order.",
        discussion: """
            Each line reads `id  kind  class  (x, y, w, h)  [flags]`, the id followed by the node's display name \
            when it has one (`0x7f8a5c514000 (UIButton "Sign in")`, as `responder import` keeps), the frame to two \
            decimals; flags name what changes delivery: hidden, \
            alpha below 1, interaction off, disabled, key (window), clips, ★ first responder. Gesture recognizers \
            follow their view, e.g. `⟨longPress cardHold → rootVC.cardLongPressed:⟩`, with their state when not \
            idle (began, touches hold-1), the parameters and switches that differ from UIKit's defaults, and their \
            target-actions. Detached subtrees follow the application's tree. With --json prints the tree.get reply.
            """
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var session: SessionOptions

    @Option(help: ArgumentHelp("Draw only the subtree of this node.", valueName: "id"))
    var id: String?

    @Option(help: ArgumentHelp("Depth beyond which guides are abbreviated to `[depth N]`.", valueName: "levels"))
    var maxIndent = 48

    func run(_ client: Client) throws {
        if global.json || id != nil {
            return try client.send(TreeGetRequest(session: session.session, id: id)) { reply in
                TreeDrawer(maxGuideDepth: maxIndent).draw(reply.tree) { Output.line($0) }
            }
        }
        // The whole world: the snapshot also names the first responders.
        let snapshot = try client.send(SessionSnapshotRequest(session: session.session))
        let drawer = TreeDrawer(
            firstResponders: Set(snapshot.firstResponders.entries.compactMap(\.responder)), maxGuideDepth: maxIndent,
            recognizerStates: Dictionary(
                snapshot.recognizers.map { ($0.recognizer, $0) }, uniquingKeysWith: { a, _ in a }))
        drawer.draw(snapshot.tree) { Output.line($0) }
        let detached = snapshot.detached.arrayValue ?? []
        if !detached.isEmpty {
            Output.line()
            Output.line("detached:")
            for root in detached { drawer.draw(root) { Output.line($0) } }
        }
    }
}
