import ArgumentParser
import ResponderProtocol

struct SessionDeleteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Delete a session and everything in it (session.delete)."
    )

    @OptionGroup var global: GlobalOptions

    @Argument(help: "Name of the session to delete.")
    var name: String

    func run() throws {
        try global.run { client in
            let reply = try client.call("session.delete", ["session": .string(name)])
            if global.json { return Output.printJSON(reply) }
            Output.line("deleted session \(name)")
        }
    }
}
