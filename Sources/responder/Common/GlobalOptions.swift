import ArgumentParser
import Foundation
import ResponderClient
import ResponderJSON

/// How to reach the engine and how to print: on every command.
struct GlobalOptions: ParsableArguments {
    @Option(help: "Name of the engine instance to talk to (responderd --name).")
    var name = "default"

    @Option(
        help: ArgumentHelp(
            "Directory holding the engine's discovery file. Default: $XDG_RUNTIME_DIR/responder or /tmp/responder-<uid>.",
            valueName: "dir"))
    var dir: String?

    @Option(
        help: ArgumentHelp(
            "Explicit endpoints instead of discovery, e.g. tcp://127.0.0.1:5555,tcp://127.0.0.1:5556. Default: $RESPONDER_RPC and $RESPONDER_EVENTS, else the discovery file.",
            valueName: "rpc,events"))
    var connect: String?

    @Flag(help: "Machine output: print the engine's JSON instead of text.")
    var json = false

    @Option(
        help: ArgumentHelp(
            "Seconds to wait for each reply. Default: \(Self.baseTimeout), plus \(Self.timeoutPerMegabyte) for each MB the request sends (a large world takes the engine a while to read). An engine that stops meanwhile is noticed at once.",
            valueName: "seconds"))
    var timeout: Double?

    static let baseTimeout = 10
    static let timeoutPerMegabyte = 10

    /// One reply's wait for long-lived relays (bridge, mcp), whose requests are not sized up front.
    var replyTimeout: Double { timeout ?? Double(Self.baseTimeout * 3) }

    @Option(
        help: ArgumentHelp(
            "Connect with this client id (ZeroMQ routing id) to continue touches and presses begun under it. Default: a fresh id, except `touch` and `press`, which use responder-<uid>.",
            valueName: "id"))
    var clientID: String?

    @Option(
        help: ArgumentHelp(
            "A session owner token (16-256 bytes): `session create` makes the session owned by it; load, apply, make-key and session delete send it (Protocol/README.md 7.1). Default: $RESPONDER_OWNER.",
            valueName: "token"))
    var owner: String?

    /// --owner, else $RESPONDER_OWNER.
    var sessionOwner: String? {
        owner ?? ProcessInfo.processInfo.environment["RESPONDER_OWNER"].flatMap { $0.isEmpty ? nil : $0 }
    }

    func validate() throws {
        if let connect, endpoints(connect) == nil {
            throw ValidationError(
                "--connect expects RPC,EVENTS (two endpoints separated by a comma), got \"\(connect)\"")
        }
        if let timeout, !(timeout > 0 && timeout.isFinite) {
            throw ValidationError("--timeout must be a positive number of seconds")
        }
        if let clientID, clientID.isEmpty || clientID.utf8.count > 255 || clientID.hasPrefix("\0") {
            throw ValidationError("--client-id must be 1…255 bytes")
        }
    }

    private func endpoints(_ text: String) -> (rpc: String, events: String)? {
        guard let comma = text.firstIndex(of: ",") else { return nil }
        let rpc = String(text[..<comma]).trimmingCharacters(in: .whitespaces)
        let events = String(text[text.index(after: comma)...]).trimmingCharacters(in: .whitespaces)
        guard !rpc.isEmpty, !events.isEmpty else { return nil }
        return (rpc, events)
    }

    /// The engine's address: --connect, then the environment, then the discovery file.
    func address() throws(ClientError) -> EngineAddress {
        let explicit = connect.flatMap(endpoints)
        return try EngineAddress.locate(name: name, directory: dir, rpc: explicit?.rpc, events: explicit?.events)
    }
}

/// The session a command addresses.
struct SessionOptions: ParsableArguments {
    static let defaultSession = "default"

    @Option(help: "Session to address.")
    var session = defaultSession
}
