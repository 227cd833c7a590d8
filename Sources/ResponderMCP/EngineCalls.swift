import ResponderClient
import ResponderJSON
import ResponderProtocol

extension EngineThread {
    /// The MCP server's connection to the engine: found by discovery at each call, like every CLI command finds
    /// it, so `responder mcp` can start before the engine and outlive a restart of it (a missing engine is an
    /// error for that call only, and a new engine gets a new connection). Its events read as `mcp:<client>`.
    package static func mcp(timeoutSeconds: Double, locate: @escaping @Sendable () throws(ClientError) -> EngineAddress)
        throws(ClientError) -> EngineThread
    {
        let connector = Connector(
            timeoutSeconds: timeoutSeconds, clientName: "responder-mcp", kind: "mcp", followsEngine: true,
            locate: locate)
        return try EngineThread(name: "mcp-engine", connector: connector)
    }

    /// Sends a request on the thread and returns its result; an error reply is `.rpc`.
    package func call(_ method: String, _ params: JSON) async -> Result<JSON, ClientError> {
        do {
            return .success(try await perform { connection throws(ClientError) in try connection.call(method, params) })
        } catch {
            return .failure(error)
        }
    }
}
