import ResponderClient
import ResponderJSON
import ResponderOutput
import ResponderProtocol

extension Client {
    /// The display names of the session's nodes, read with one `tree.get`, so that an answer can show
    /// `0x7f8a5c514000 (UIButton "Sign in")` where it names a node. Called only for text output: `--json`
    /// prints the engine's reply alone.
    func names(session: String?) throws(ClientError) -> NodeNames {
        var reply = try send(TreeGetRequest(session: session))
        defer { JSON.release(&reply.tree) }
        return NodeNames(trees: [reply.tree])
    }
}
