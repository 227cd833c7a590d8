import ResponderClient
import ResponderProtocol
import ResponderJSON

/// The MCP server's connection to the engine. It is found by discovery at each call, like every CLI command
/// finds it, so `responder mcp` can start before the engine and outlive a restart of it: a missing engine
/// is an error for that call only, and a new engine (another pid or endpoint) gets a new connection.
///
/// The connection lives on a JobThread (libzmq: one owner, blocking calls off the cooperative pool).
final class EngineLink: @unchecked Sendable {
    // @unchecked: `connection` and `clientName` are touched only by jobs, which run one at a time on `thread`.
    private let thread = JobThread(name: "mcp-engine")
    private let locate: @Sendable () throws(ClientError) -> EngineAddress
    private let timeoutSeconds: Double
    private var connection: ResponderConnection?
    private var clientName = "responder-mcp"

    init(timeoutSeconds: Double, locate: @escaping @Sendable () throws(ClientError) -> EngineAddress) {
        self.timeoutSeconds = timeoutSeconds
        self.locate = locate
    }

    /// Sends a request and returns its result; an error reply is `.rpc`.
    func call(_ method: String, _ params: JSON) async -> Result<JSON, ClientError> {
        await thread.run { [self] in
            Result { () throws(ClientError) -> JSON in try connected().call(method, params) }
        }
    }

    /// Names the connection for event causes (client.hello), now and after any reconnection: the events an
    /// MCP client causes read as `mcp:<its name>` in `responder watch`.
    func setClientName(_ name: String) async {
        await thread.run { [self] in
            clientName = name
            if let connection { hello(connection) }
        }
    }

    /// The engine's address, found now (discovery file, --connect or the environment).
    func address() throws(ClientError) -> EngineAddress { try locate() }

    var timeout: Double { timeoutSeconds }

    private func connected() throws(ClientError) -> ResponderConnection {
        let address = try locate()
        if let connection, connection.address == address { return connection }
        connection = nil
        let fresh = try ResponderConnection(address: address, timeoutSeconds: timeoutSeconds)
        hello(fresh)
        connection = fresh
        return fresh
    }

    private func hello(_ connection: ResponderConnection) {
        // `kind` is an engine extension: fall back to the name alone if it is refused (as Client does).
        do {
            _ = try connection.send(ClientHelloRequest(name: clientName, kind: "mcp"))
        } catch {
            _ = try? connection.send(ClientHelloRequest(name: clientName))
        }
    }
}
