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
        abstract:
            "Turn what lldb prints about a running app into a world (views, controllers, recognizers, control targets).",
        discussion: """
            Each FILE holds `recursiveDescription` output (views: `<Class: 0xADDRESS; frame = (x y; w h); …>`, \
            nesting shown by `   | `), `_printHierarchy` output (view controllers: `<Class 0xADDRESS>, state: …, \
            view: <ViewClass 0xADDRESS>`, `   + ` for presented ones), or both; the kind is read from each line. \
            Gesture recognizers (`po view.gestureRecognizers`) go on the view each names (`view = <… 0x…>`): tap, \
            long press, pan, swipe, pinch and rotation with their printed flags, targets and must-fail lists. \
            Control targets (`po [0xCONTROL allTargets]`, `po [0xCONTROL actionsForTarget:0xTARGET \
            forControlEvent:64]`) go on the control the command before them names by address: keep the `(lldb) po …` \
            lines in the file, or use tools/lldb/responder-dump.lldb, which prints all of it for the key window. \
            Read as lldb prints them: Objective-C `po` and `expr -l objc -O --`, Swift `po` (its `▿ Optional<Any>` \
            wrapper, or the whole dump as one escaped string), `p` of a string, with LF, CRLF or CR line endings. \
            Node ids are the addresses as printed and `class` the printed class; `baseClass = UIButton` makes a \
            custom class behave as that UIKit class. frame (a transformed view's printed frame is its bounding \
            box: bounds and center are derived), hidden, alpha, userInteractionEnabled (printed only when NO), \
            clipsToBounds, transform, a scroll view's contentOffset (boundsOrigin) and contentSize become fields; \
            tag, text, gestureRecognizers (their presence), text after a line's closing > and any other key \
            become annotations. Controllers are put above their root views (matched by address); presented ones \
            under their window with presentedBy. Prints {"tree": …} on stdout, or loads it with --load; stderr \
            says what was made, lists every line that could not be read with its line number, and what the dump \
            does not show (views whose recognizers it does not print, controls without targets). A dump with \
            no window, or a lost line that had children, is refused (exit 1) unless --partial; --strict makes \
            any unreadable line an error. Nothing is output when the import is refused.
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

    @Flag(
        help:
            "Accept a world the dump does not fully give: no window in it (a stand-in window holds its views), or a view nested in a line that could not be read."
    )
    var partial = false

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
        let summary = ImportSummary(world: world)
        let refusals = partial ? [] : Self.refusals(dump, summary)
        for p in dump.problems {
            let fatal = strict || (p.breaksTheWorld && !partial)
            Output.error((fatal ? "error: " : "warning: ") + p.text)
        }
        for n in dump.notes { Output.error("note: " + n.text) }
        let unread = dump.problems.count
        Output.error(
            "import: \(dump.lineCount) line\(dump.lineCount == 1 ? "" : "s") read: \(summary.text)"
                + (unread == 0 ? "" : "; \(unread) problem\(unread == 1 ? "" : "s") above"))
        for u in dump.unknowns { Output.error("import: " + u) }
        for r in refusals { Output.error("error: " + r) }
        if (strict && !dump.problems.isEmpty) || !refusals.isEmpty {
            if !refusals.isEmpty { Output.error("(--partial accepts this world as it is)") }
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

    /// Why the world is not the app's screen, when it is not: no window in the dump (its views would sit in a
    /// stand-in, without the window and the controllers above them in the chain), or a lost line that had children.
    static func refusals(_ dump: HierarchyDump, _ summary: ImportSummary) -> [String] {
        var out: [String] = []
        if dump.roots.isEmpty {
            out.append(
                "no view line was read: the input holds no recursiveDescription output (see docs/importing.md for the lldb commands)"
            )
        } else if summary.windows == 0 {
            let top = dump.roots[0]
            out.append(
                "the dump shows no window (its top view is \(top.className) \(top.id)): its views would sit in a stand-in window; dump the key window to import the screen"
            )
        }
        let lost = dump.problems.filter(\.breaksTheWorld).count
        if lost > 0 {
            out.append(
                "\(lost) line\(lost == 1 ? " that was not read had" : "s that were not read had") children: they would be misplaced"
            )
        }
        return out
    }
}
