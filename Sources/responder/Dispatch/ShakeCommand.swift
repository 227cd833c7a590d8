import ArgumentParser
import ResponderOutput
import ResponderProtocol

struct ShakeCommand: EngineCommand {
    static let configuration = CommandConfiguration(
        commandName: "shake",
        abstract: "Shake the device: a shake motion that begins, then ends (event.motion twice)."
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var session: SessionOptions
    @OptionGroup var dryRun: DryRunOption

    func run(_ client: Client) throws {
        for phase in [MotionPhase.began, .ended] {
            try client.send(MotionRequest(session: session.session, subtype: .shake, phase: phase).dry(dryRun)) {
                DispatchReply.print($0, names: try client.names(session: session.session))
            }
        }
    }
}
