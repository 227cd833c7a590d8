import ArgumentParser

/// A command that talks to the engine: it connects with the global options, runs on that connection, and
/// reports failures as `error: …` with status 1. Conformers declare `@OptionGroup var global: GlobalOptions`,
/// which shares the values the root command parsed (before or after the subcommand) and lists the options
/// in the command's help.
protocol EngineCommand: ParsableCommand {
    var global: GlobalOptions { get }
    /// The client id to connect as unless --client-id gives one; nil: a fresh one.
    var routingID: String? { get }
    /// How the command names itself to the engine: one-shot (the default) or long-lived (watch).
    var lifetime: ClientLifetime { get }
    func run(_ client: Client) throws
}

extension EngineCommand {
    var routingID: String? { nil }
    var lifetime: ClientLifetime { .oneShot }

    func run() throws {
        try global.run(routingID: routingID, lifetime: lifetime) { try run($0) }
    }
}

/// An engine command that addresses no session. The root command accepts `--session` anywhere, for the
/// commands that take one; here it would be silently ignored, so it is refused as an unknown option was.
protocol SessionlessCommand: EngineCommand {
    var responder: Responder { get }
}

extension SessionlessCommand {
    func validate() throws { try refuseSession() }

    /// A conformer with its own `validate` calls this first.
    func refuseSession() throws {
        if responder.session.session != SessionOptions.defaultSession {
            throw ValidationError("--session does not apply to \(Self.configuration.commandName ?? "this command")")
        }
    }
}
