import ArgumentParser

struct SessionCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "session",
        abstract: "List, create and delete sessions (independent worlds in one engine).",
        subcommands: [SessionListCommand.self, SessionCreateCommand.self, SessionDeleteCommand.self]
    )
}
