import ArgumentParser
import Foundation
import ResponderJSON
import ResponderOutput

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
            CommandGroup(
                name: "World",
                subcommands: [
                    InfoCommand.self, EnginesCommand.self, SessionCommand.self, LoadCommand.self, ApplyCommand.self,
                    TreeCommand.self,
                    WatchCommand.self, DrawCommand.self, WebCommand.self, CallCommand.self, ClientsCommand.self,
                    ImportCommand.self, FindCommand.self, RecordCommand.self, ReplayCommand.self
                ]),
            CommandGroup(
                name: "Dispatch",
                subcommands: [
                    HitCommand.self, TapCommand.self, TouchCommand.self, DragCommand.self, PressHoldCommand.self,
                    ClockCommand.self,
                    ChainCommand.self, BecomeCommand.self, ResignCommand.self, FirstCommand.self, ActionCommand.self,
                    MenuItemCommand.self, CanPerformCommand.self, WhyCommand.self, ShakeCommand.self, PressCommand.self,
                    RemoteCommand.self, MakeKeyCommand.self, CompareCommand.self
                ]),
            CommandGroup(
                name: "Editors and agents",
                subcommands: [
                    MCPCommand.self, BridgeCommand.self
                ]),
            CommandGroup(name: "Security", subcommands: [KeygenCommand.self])
        ]
    )

    // Declared here so that they parse before the subcommand as well as after it (the root reads them wherever
    // they are); each command's own `@OptionGroup` of the same type shares these values and lists them in its help.
    @OptionGroup var global: GlobalOptions
    @OptionGroup var session: SessionOptions

    /// Runs the command. Replies and input files can nest 100,000 levels deep: reading, printing and freeing
    /// them is iterative (`JSON.release`, `@Held` members of replies), so any stack will do.
    static func main() {
        restoreDefaultSignals()
        let arguments = Array(CommandLine.arguments.dropFirst())
        var command: ParsableCommand
        do {
            command = try parseAsRoot(arguments)
        } catch {
            // `responder tapp 1 2`: the parser sees three unexpected arguments; a person sees a typo.
            if exitCode(for: error) != .success,
                let (typed, nearest, command) = Suggestions.subcommand(arguments, root: Self.self)
            {
                FileHandle.standardError.write(
                    Data(
                        "Error: unknown command \"\(typed)\"; did you mean \"\(nearest)\"?\n  See '\(command) --help' for more information.\n"
                            .utf8))
                Foundation.exit(ExitCode.validationFailure.rawValue)
            }
            // `responder tap -5 10`: the parser took -5 for an option. Try again with it marked as a value.
            guard let marked = NegativeNumbers.mark(arguments) else { exit(withError: error) }
            do { command = try parseAsRoot(marked) } catch {
                let message = NegativeNumbers.unmark(fullMessage(for: error))
                let code = exitCode(for: error)
                if code == .success {
                    print(HelpLayout.rewrite(message, command: HelpLayout.command(arguments)))
                } else {
                    FileHandle.standardError.write(Data((message + "\n").utf8))
                }
                Foundation.exit(code.rawValue)
            }
        }
        do { try command.run() } catch {
            // A help request: the command's own options first, an example, then the connection options.
            if exitCode(for: error) == .success, case let text = fullMessage(for: error), text.contains("USAGE:") {
                print(HelpLayout.rewrite(NegativeNumbers.unmark(text), command: HelpLayout.command(arguments)))
                Foundation.exit(0)
            }
            exit(withError: error)
        }
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
}
