import ArgumentParser
import Foundation
import ResponderClient
import ResponderJSON
import ResponderOutput
import ResponderProtocol

/// One connection to the engine for the length of a command.
final class Client {
    let options: GlobalOptions
    let connection: ResponderConnection

    /// The client id `touch` and `press` use by default, so that one invocation can end what another began.
    static var stableID: String { "responder-\(getuid())" }

    /// What `client.hello` says a one-shot command is: `responder clients` leaves these out (they have
    /// finished by the time anyone looks). Long-lived commands (watch) say `cli-<command>`.
    static let oneShotKind = "cli-one-shot"

    /// `lifetime`: how the command names itself in `client.hello` (see `ClientLifetime`).
    init(_ options: GlobalOptions, routingID: String? = nil, lifetime: ClientLifetime = .oneShot) throws(ClientError) {
        self.options = options
        let id = options.clientID ?? routingID
        connection = try ResponderConnection(
            address: try options.address(),
            timeoutSeconds: options.timeout ?? Double(GlobalOptions.baseTimeout),
            routingID: id.map { Array($0.utf8) })
        // Without --timeout, a large request gets longer: the engine reads about a megabyte a second or two.
        if options.timeout == nil { connection.timeoutPerMegabyte = Double(GlobalOptions.timeoutPerMegabyte) }
        connection.progress = StatusLine.report
        connection.sessionOwner = options.sessionOwner
        // Name ourselves so that events caused by this command read "responder" rather than a routing id, and
        // say whether we stay (`responder clients` lists only those that do).
        // `kind` is an engine extension; fall back to the documented name-only form if it is refused.
        // A timeout here means the engine does not answer: report it now rather than on the real request.
        do {
            _ = try connection.send(ClientHelloRequest(name: lifetime.name, kind: lifetime.kind))
        } catch .rpc {
            _ = try? connection.send(ClientHelloRequest(name: lifetime.name))
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

/// How a command names itself to the engine (`client.hello`): a one-shot command as `responder`, kind
/// `cli-one-shot`; a long-lived one (watch) as `responder <command>`, kind `cli-<command>`.
enum ClientLifetime: Equatable {
    case oneShot
    case longLived(command: String)

    var name: String {
        switch self {
        case .oneShot: return "responder"
        case .longLived(let command): return "responder \(command)"
        }
    }

    var kind: String {
        switch self {
        case .oneShot: return Client.oneShotKind
        case .longLived(let command): return "cli-\(command)"
        }
    }
}

extension GlobalOptions {
    /// Connects, runs `body`, and turns failures into a readable message and exit status 1.
    /// `routingID` is the client id to use unless --client-id gives one (nil: a fresh one).
    func run(routingID: String? = nil, lifetime: ClientLifetime = .oneShot, _ body: (Client) throws -> Void) throws {
        var connected: Client?
        do {
            let client = try Client(self, routingID: routingID, lifetime: lifetime)
            connected = client
            try body(client)
        } catch let error as ClientError {
            report(error, clientID: clientID ?? routingID)
            if !json, case .rpc(let e) = error, let connected,
                let hint = Suggestions.hint(
                    for: e, connection: connected.connection,
                    session: Suggestions.session(in: Array(CommandLine.arguments.dropFirst())))
            {
                Output.error(hint)
            }
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

    /// `clientID`: the routing id the connection was made with, if it chose one.
    func report(_ error: ClientError, clientID: String? = nil) {
        guard case .rpc(let e) = error else {
            let message = describe(error, clientID: clientID)
            if json { Output.printJSON(["error": ["message": .string(message)]]) }
            Output.error("error: \(message)")
            return
        }
        if json { Output.printJSON(["error": e.json]) }
        Output.error(Output.describe(e))
    }
}

extension GlobalOptions {
    /// A failure in words. A timeout tells a busy engine from a gone one: the discovery file is read again,
    /// and an engine whose process still runs is busy (a large request takes it a while), else it is gone.
    /// A connection that chose its client id gets no answer at all while another connection holds that id (the
    /// engine's socket ignores the second one): said so, beside a busy engine, when the engine still runs.
    func describe(_ error: ClientError, clientID: String? = nil) -> String {
        guard case .timeout(let method, let seconds, let pid) = error else { return error.description }
        let within = ClientError.seconds(seconds)
        guard let pid else {
            return
                "no reply to \(method) within \(within) s: the engine may be busy with a large request, or not running; --timeout waits longer"
        }
        let now: EngineAddress
        do { now = try address() } catch {
            return "no reply to \(method) within \(within) s: the engine (pid \(pid)) is gone: \(error.description)"
        }
        if let other = now.pid, other != pid {
            return
                "no reply to \(method) within \(within) s: the engine (pid \(pid)) is gone; another one (pid \(other)) runs now under the same name"
        }
        if let clientID {
            return
                "no reply to \(method): the engine (pid \(pid)) runs but has not answered within \(within) s; another connection may hold client id \"\(clientID)\" (a second connection with the same id is ignored: --client-id <other> picks another), or the engine is busy with a large request (--timeout waits longer)"
        }
        return
            "no reply to \(method): the engine (pid \(pid)) has not answered within \(within) s; it may be busy with a large request; --timeout waits longer"
    }
}
