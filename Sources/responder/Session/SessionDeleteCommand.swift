import ArgumentParser
import ResponderOutput
import ResponderProtocol

struct SessionDeleteCommand: SessionlessCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Delete a session and everything in it (session.delete)."
    )

    @ParentCommand var responder: Responder
    @OptionGroup var global: GlobalOptions

    @Argument(help: "Name of the session to delete.")
    var name: String

    func run(_ client: Client) throws {
        try client.send(SessionDeleteRequest(session: name)) { _ in Output.line("deleted session \(name)") }
    }
}
