import ArgumentParser
import ResponderProtocol

struct MakeKeyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "make-key",
        abstract: "Make a window the key window (window.makeKey)."
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var session: SessionOptions

    @Argument(help: "Id of the window.") var id: String

    func run() throws {
        try global.run { client in
            let reply = try client.call("window.makeKey", ["session": .string(session.session), "id": .string(id)])
            if global.json { return Output.printJSON(reply) }
            Output.line("\(id) is the key window")
            for line in DispatchReply.focusLines(reply["trace"]) { Output.line(line) }
        }
    }
}
