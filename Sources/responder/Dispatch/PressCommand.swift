import ArgumentParser
import ResponderOutput
import ResponderProtocol

struct PressCommand: EngineCommand {
    static let configuration = CommandConfiguration(
        commandName: "press",
        abstract: "Press a physical key or button (event.press).",
        discussion: """
            Without --phase the press begins and then ends. Phases: began, changed, ended, cancelled. A press belongs \
            to the client that began it: this command connects as responder-<uid> (or --client-id) so that a later \
            invocation can end it. Modifiers go before the key, joined by +: cmd+k, shift+cmd+z, ctrl+alt+tab \
            (cmd, shift, alt or option, ctrl); a key of + itself is written cmd++.
            """
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var session: SessionOptions
    @OptionGroup var dryRun: DryRunOption

    @Argument(help: "Key or button, e.g. a, return, select, menu, cmd+k.") var key: String

    @Option(
        name: .customLong("phase"),
        help: ArgumentHelp(
            "Phase to send: began, changed, ended, cancelled (repeatable, sent in order). Default: began, then ended.",
            valueName: "phase"))
    var phases: [String] = []

    @Option(help: ArgumentHelp("Press id, to continue a press begun earlier.", valueName: "id"))
    var press = "1"

    var routingID: String? { Client.stableID }

    /// E5: `cmd+shift+k` → the key `k` held with command and shift. A name that is not a modifier before a `+`
    /// leaves the whole text as the key.
    static func split(_ text: String) -> (key: String, modifiers: [KeyModifier]) {
        var parts = text.split(separator: "+", omittingEmptySubsequences: false).map(String.init)
        guard parts.count > 1 else { return (text, []) }
        var key = parts.removeLast()
        if key.isEmpty, parts.last?.isEmpty == true {
            parts.removeLast()
            key = "+"
        }
        let modifiers = parts.compactMap(KeyModifier.init(shorthand:))
        guard !key.isEmpty, modifiers.count == parts.count else { return (text, []) }
        return (key, KeyModifier.canonical(modifiers))
    }

    func run(_ client: Client) throws {
        let (key, modifiers) = Self.split(self.key)
        for phase in phases.isEmpty ? ["began", "ended"] : phases {
            let request = PressRequest(
                session: session.session, press: DispatchReply.identifier(press), key: key,
                modifiers: modifiers.isEmpty ? nil : modifiers, phase: try PressPhase(wire: phase, path: "phase")
            ).dry(dryRun)
            try client.send(request) { DispatchReply.print($0, names: try client.names(session: session.session)) }
        }
    }
}
