import ArgumentParser
import Foundation
import ResponderClient
import ResponderProtocol

/// A problem on the CLI's side (an unreadable file, a malformed argument), reported as `error: …`.
struct CLIError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// One connection to the engine for the length of a command.
final class Client {
    let options: GlobalOptions
    let connection: ResponderConnection

    /// The client id `touch` and `press` use by default, so that one invocation can end what another began.
    static var stableID: String { "responder-\(getuid())" }

    init(_ options: GlobalOptions, routingID: String? = nil) throws(ClientError) {
        self.options = options
        let id = options.clientID ?? routingID
        connection = try ResponderConnection(address: try options.address(), timeoutSeconds: options.timeout,
                                             routingID: id.map { Array($0.utf8) })
        // Name ourselves so that events caused by this command read "responder" rather than a routing id.
        // `kind` is an engine extension; fall back to the documented name-only form if it is refused.
        // A timeout here means the engine does not answer: report it now rather than on the real request.
        do {
            _ = try connection.send(ClientHelloRequest(name: "responder", kind: "cli"))
        } catch .rpc {
            _ = try? connection.send(ClientHelloRequest(name: "responder"))
        }
    }

    /// Sends `request` and returns its typed result; an error reply throws `.rpc`.
    func send<R: RequestType>(_ request: R) throws(ClientError) -> R.Response {
        try connection.send(request)
    }

    /// Sends `request` and shows the reply: with --json the engine's reply exactly as it came (members this
    /// client does not know included), else whatever `text` prints from the typed result.
    func send<R: RequestType>(_ request: R, text: (R.Response) throws -> Void) throws {
        try send(R.self, params: ResponderConnection.params(of: request), text: text)
    }

    /// The same for params put together from a file the user wrote, sent as written.
    func send<R: RequestType>(_: R.Type, params: JSON, text: (R.Response) throws -> Void) throws {
        guard options.json else { return try text(try connection.send(R.self, params: params)) }
        Output.printJSON(try connection.call(R.method, params))
    }
}

extension GlobalOptions {
    /// Connects, runs `body`, and turns failures into a readable message and exit status 1.
    /// `routingID` is the client id to use unless --client-id gives one (nil: a fresh one).
    func run(routingID: String? = nil, _ body: (Client) throws -> Void) throws {
        do {
            try body(try Client(self, routingID: routingID))
        } catch let error as ClientError {
            report(error)
            throw ExitCode.failure
        } catch let error as RPCError {
            // A value read here by the engine's own rules (a phase, a subtype): the error the engine would give.
            report(.rpc(error))
            throw ExitCode.failure
        } catch let error as CLIError {
            Output.error("error: \(error.description)")
            throw ExitCode.failure
        }
    }

    func report(_ error: ClientError) {
        guard case .rpc(let e) = error else {
            if json { Output.printJSON(["error": ["message": .string(error.description)]]) }
            Output.error("error: \(error.description)")
            return
        }
        if json { Output.printJSON(["error": e.json]) }
        Output.error(Output.describe(e))
    }
}
