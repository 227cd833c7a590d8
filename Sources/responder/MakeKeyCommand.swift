import ArgumentParser
import ResponderProtocol

struct MakeKeyCommand: EngineCommand {
    static let configuration = CommandConfiguration(
        commandName: "make-key",
        abstract: "Make a window the key window (window.makeKey)."
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var session: SessionOptions

    @Argument(help: "Id of the window.") var id: String

    func run(_ client: Client) throws {
        let reply = try client.call("window.makeKey", ["session": .string(session.session), "id": .string(id)])
        if global.json { return Output.printJSON(reply) }
        let previous = reply["previous"].flatMap { $0.isNull ? nil : Describe.id($0) }
        Output.line("\(Describe.id(reply["key"] ?? .string(id))) is the key window"
            + (previous.map { $0 == id ? " (it already was)" : " (was \($0))" } ?? " (there was none)")
            + ": revision \(Output.number(reply["revision"]))\(Describe.seqRange(reply["seqRange"]))")
    }
}
