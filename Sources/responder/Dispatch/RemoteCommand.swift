import ArgumentParser
import ResponderOutput
import ResponderProtocol

struct RemoteCommand: EngineCommand {
    static let configuration = CommandConfiguration(
        commandName: "remote",
        abstract: "Send a remote-control event (event.remoteControl), e.g. play, pause, togglePlayPause, nextTrack."
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var session: SessionOptions
    @OptionGroup var dryRun: DryRunOption

    @Argument(help: "Subtype: play, pause, stop, togglePlayPause, nextTrack, previousTrack, …") var subtype: String

    func run(_ client: Client) throws {
        let request = RemoteControlRequest(
            session: session.session, subtype: try RemoteControlSubtype(wire: subtype, path: "subtype")
        ).dry(dryRun)
        try client.send(request) { DispatchReply.print($0, names: try client.names(session: session.session)) }
    }
}
