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
                ResignCommand.self, FirstCommand.self, ActionCommand.self, CanPerformCommand.self, ShakeCommand.self, PressCommand.self,
                RemoteCommand.self, MakeKeyCommand.self,
            ]),
        ]
    )

    /// Runs the command. Replies and input files can nest 100,000 levels deep: reading, printing and (with
    /// `JSON.release` where a command is done with them) freeing them is iterative, so any stack will do.
    static func main() {
        restoreDefaultSignals()
        Self.main(hoistGlobalOptions(Array(CommandLine.arguments.dropFirst())))
    }

    /// Ctrl-C and SIGTERM must stop `watch` even when the parent started us with them blocked or ignored
    /// (a spawn from a libdispatch worker thread inherits its blocked signal mask).
    static func restoreDefaultSignals() {
        var set = sigset_t()
        sigemptyset(&set)
        for sig in [SIGINT, SIGTERM, SIGHUP] {
            sigaddset(&set, sig)
            signal(sig, SIG_DFL)
        }
        sigprocmask(SIG_UNBLOCK, &set, nil)
    }

    /// Global options may come before the subcommand (`responder --name x tree`): move them after it, where
    /// the subcommand's own parser reads them.
    static func hoistGlobalOptions(_ arguments: [String]) -> [String] {
        let withValue: Set<String> = ["--name", "--dir", "--connect", "--timeout", "--client-id", "--session"]
        let flags: Set<String> = ["--json"]
        var leading: [String] = []
        var rest = arguments[...]
        while let first = rest.first {
            let option = String(first.split(separator: "=", maxSplits: 1).first ?? "")
            if flags.contains(first) {
                leading.append(first)
                rest = rest.dropFirst()
            } else if withValue.contains(option), first.contains("=") {
                leading.append(first)
                rest = rest.dropFirst()
            } else if withValue.contains(first), rest.count >= 2 {
                leading.append(contentsOf: rest.prefix(2))
                rest = rest.dropFirst(2)
            } else {
                break
            }
        }
        guard !leading.isEmpty, !rest.isEmpty else { return arguments }
        var moved = Array(rest)
        let end = moved.firstIndex(of: "--") ?? moved.count
        moved.insert(contentsOf: leading, at: end)
        return moved
    }
}
