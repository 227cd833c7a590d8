import ArgumentParser
import ResponderProtocol

struct ShakeCommand: EngineCommand {
    static let configuration = CommandConfiguration(
        commandName: "shake",
        abstract: "Shake the device: a shake motion that begins, then ends (event.motion twice)."
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var session: SessionOptions

    func run(_ client: Client) throws {
        for (phase, message) in [("began", "motionBegan"), ("ended", "motionEnded")] {
            let reply = try client.call("event.motion", ["session": .string(session.session), "subtype": "shake", "phase": .string(phase)])
            DispatchReply.print(reply, json: global.json, message: message)
        }
    }
}
