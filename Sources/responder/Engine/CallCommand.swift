import ArgumentParser
import Foundation
import ResponderJSON
import ResponderOutput
import ResponderProtocol

struct CallCommand: SessionlessCommand {
    static let configuration = CommandConfiguration(
        commandName: "call",
        abstract: "Send one raw JSON-RPC request and print the whole response.",
        discussion: "Exits 1 when the response is an error. Example: responder call tree.get '{\"id\": \"w1\"}'"
    )

    @ParentCommand var responder: Responder
    @OptionGroup var global: GlobalOptions

    @Argument(help: "Method name, e.g. engine.info or tree.get.")
    var method: String

    @Argument(
        help: ArgumentHelp(
            "Params as a JSON object, or @file to read them from a file. Default: {}.", valueName: "params-json"))
    var params: String?

    func run(_ client: Client) throws {
        var value = try params.map { (p) throws(CLIError) in try InputFile.inline(p, option: "params") } ?? [:]
        let session = value["session"]?.stringValue ?? SessionOptions.defaultSession
        defer { JSON.release(&value) }
        var response = try client.connection.send(method, value)
        defer { JSON.release(&response) }
        Output.printJSON(response)
        if case .failure(let e) = RPCResponse.read(response) {
            // On a terminal the response just printed shows the error: it is said once. Where stdout goes
            // elsewhere (a file, a pipe), stderr is where a person reads it.
            if isatty(1) == 0 || isatty(2) == 0 { Output.error(Output.describe(e)) }
            if let hint = Suggestions.hint(for: e, connection: client.connection, session: session) {
                Output.error(hint)
            }
            throw ExitCode.failure
        }
    }
}
