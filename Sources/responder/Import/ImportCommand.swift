import ArgumentParser
import Foundation
import ResponderClient
import ResponderImport
import ResponderJSON
import ResponderOutput
import ResponderProtocol

struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Turn lldb hierarchy dumps of a running app into a world (recursiveDescription, _printHierarchy).",
        discussion: """
            Each FILE holds `recursiveDescription` output (views: `<Class: 0xADDRESS; frame = (x y; w h); …>`, \
            nesting shown by `   | `), `_printHierarchy` output (view controllers: `<Class 0xADDRESS>, state: …, \
            view: <ViewClass 0xADDRESS>`, `   + ` for presented ones), or both; the kind is read from each line. \
            Node ids are the addresses as printed and `class` the printed class. frame, hidden, alpha, \
            userInteractionEnabled, clipsToBounds, transform and a scroll view's contentOffset (boundsOrigin) become \
            fields; tag, text, contentSize, gestureRecognizers (their presence) and any other key become annotations. \
            Controllers are put above their root views (matched by address); presented ones under their window \
            with presentedBy. Prints {"tree": …} on stdout, or loads it with --load. Lines that cannot be read \
            are reported on stderr with their line numbers and skipped (--strict: an error, nothing is output).
            """
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var session: SessionOptions

    @Argument(help: "Dump files (- for stdin).") var files: [String]

    @Flag(
        help:
            "Load the world into the session (tree.load; session.create if there is no such session) instead of printing it."
    )
    var load = false

    @Flag(help: "Unreadable lines are errors: report them all and exit 1 without output.")
    var strict = false

    func run() throws {
        var dump = HierarchyDump()
        let tty = isatty(2) != 0
        for file in files {
            let text: String
            if file == "-" {
                text = String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
            } else {
                guard let data = FileManager.default.contents(atPath: file) else {
                    throw CLIError("\(file): cannot read the file")
                }
                text = String(decoding: data, as: UTF8.self)
            }
            dump.read(text, file: file) { lines in
                if tty { Output.error("import: \(lines) lines read…") }
            }
        }
        var world = dump.world()
        for p in dump.problems { Output.error((strict ? "error: " : "warning: ") + p.text) }
        if strict && !dump.problems.isEmpty {
            throw ExitCode.failure
        }
        var document: JSON = .object([("tree", world)])
        defer {
            JSON.release(&document)
            JSON.release(&world)
        }
        guard load else {
            Output.printJSON(document)
            return
        }
        try global.run { client in
            let params: JSON = .object([("session", .string(session.session)), ("tree", world)])
            do {
                _ = try client.connection.call(TreeLoadRequest.method, params)
            } catch {
                guard case .rpc(let e)? = error as? ClientError, e.name == .sessionNotFound else { throw error }
                _ = try client.connection.call(SessionCreateRequest.method, params)
            }
            let count = InputFile.countNodes(world)
            Output.line(
                "imported \(count) node\(count == 1 ? "" : "s") into \(session.session)\(dump.problems.isEmpty ? "" : " (\(dump.problems.count) line\(dump.problems.count == 1 ? "" : "s") skipped)")"
            )
        }
    }
}
