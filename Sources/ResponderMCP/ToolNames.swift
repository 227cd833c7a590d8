import ResponderClient
import ResponderJSON
import ResponderOutput
import ResponderProtocol

/// The display names of the session's nodes while a tool writes its text, so that an answer names
/// `0x7f8a5c514000 (UIButton "Sign in")` as the CLI does. Tools whose text names nodes read them with one
/// `tree.get` after their call; a world without display names reads as ids alone.
package enum ToolNames {
    @TaskLocal package static var current: NodeNames = .none

    /// The tools whose text names nodes.
    static let tools: Set<String> = [
        HitTestTool.name, WhyNotTool.name, TapTool.name, ResponderChainTool.name, SendActionTool.name,
        ChooseMenuItemTool.name,
        CanPerformTool.name, BecomeFirstResponderTool.name, DragTool.name, LongPressTool.name, TouchTool.name,
        AdvanceClockTool.name
    ]

    static func read(session: String?, on engine: EngineThread) async -> NodeNames {
        let session = session ?? "default"
        guard case .success(var reply) = await engine.call(TreeGetRequest.method, ["session": .string(session)])
        else { return .none }
        defer { JSON.release(&reply) }
        return NodeNames(trees: [reply["tree"] ?? .null])
    }
}
