import ArgumentParser
import ResponderOutput
import ResponderProtocol

struct FirstCommand: EngineCommand {
    static let configuration = CommandConfiguration(
        commandName: "first",
        abstract: "Show the first responder of the key window, or of a given window (responder.first)."
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var session: SessionOptions

    @Option(help: ArgumentHelp("Window to ask about. Default: the key window.", valueName: "id"))
    var window: String?

    func run(_ client: Client) throws {
        try client.send(FirstResponderRequest(session: session.session, window: window)) { first in
            let names = try client.names(session: session.session)
            let where_ = window.map { " in window \(names.label($0))" } ?? ""
            Output.line(first.map { "first responder\(where_): \(names.label($0))" } ?? "no first responder\(where_)")
        }
    }
}
