import ArgumentParser
import Foundation

/// `responder`: a command-line client of a running `responderd`.
@main
struct Responder: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "responder",
        abstract: "Inspect and drive a running Responder Engine (responderd) from the shell.",
        discussion: """
            Finds the engine by --name through its discovery file (in --dir), or talks to --connect RPC,EVENTS \
            (or $RESPONDER_RPC and $RESPONDER_EVENTS). Output is readable text; --json prints the engine's \
            replies instead. Exit status: 0 on success, 1 when no engine runs, the engine answers with an \
            error, or an input file cannot be read.
            """,
        version: "0.1.0",
        groupedSubcommands: [
            CommandGroup(name: "World", subcommands: [
                InfoCommand.self, SessionCommand.self, LoadCommand.self, ApplyCommand.self, TreeCommand.self,
                WatchCommand.self, CallCommand.self, ClientsCommand.self,
            ]),
            CommandGroup(name: "Dispatch", subcommands: [
                HitCommand.self, TapCommand.self, TouchCommand.self, ChainCommand.self, BecomeCommand.self,
                ResignCommand.self, FirstCommand.self, ActionCommand.self, ShakeCommand.self, PressCommand.self,
                RemoteCommand.self, MakeKeyCommand.self,
            ]),
        ]
    )

    /// Runs the command on a thread with a large stack: replies can nest 100,000 levels deep, and while
    /// reading and printing them is iterative, releasing a nested JSON value recurses in the runtime.
    static func main() {
        let thread = Thread { Self.main(nil) }
        thread.stackSize = 1 << 30
        thread.start()
        while true { sleep(1000) }
    }
}
