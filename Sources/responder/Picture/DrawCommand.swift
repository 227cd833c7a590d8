import ArgumentParser
import Foundation
import ResponderClient
import ResponderOutput
import ResponderPicture
import ResponderProtocol

struct DrawCommand: EngineCommand {
    static let configuration = CommandConfiguration(
        commandName: "draw",
        abstract:
            "Draw the world as the user sees it (SVG), or as a graph (Graphviz); with a hit test, a tap or a responder chain over it.",
        discussion: """
            The SVG shows every window side by side and every view as its frame (transforms and bounds origins \
            applied, clipped where an ancestor clips), labelled with its id and class; first responders are outlined \
            in amber. --hit X Y draws the hit test at that screen point: the views asked (the hit path green, the view \
            hit filled, the views passed over red with their reason in a tag and in the legend), the touch point, and \
            the responder chain of the view hit as numbered arrows up to the application. --tap X Y taps there for \
            real (--dry-run: on a copy) and adds what each phase did. --chain ID draws a responder chain alone. \
            Shapes carry data-node-id; those of the hit test data-hit="hit|miss", data-reason and data-rule. \
            Views narrower or shorter than --min-size points, and those deeper than --depth, are counted (+N) on \
            the nearest view drawn. --why ID draws whyNot's answer about a view: the view outlined blue, the \
            node to blame red, where a tap is the view's own filled green with one such point, and the answer in \
            words as `responder why ID` prints it. The output follows --out's extension: .svg the picture, .png \
            the picture rendered by headless Chromium (Debian: chromium), .dot or .gv the tree as a Graphviz graph; \
            --format says it instead (graph-png: the graph rendered by Graphviz's `dot`). \
            --profile android draws Android's dispatch instead of UIKit's (the session's own profile is the \
            default; naming the other one draws the same tree on a scratch session, created with session.create \
            and deleted again). Under android, --hit X Y and --tap X Y draw the search for the view that consumes \
            the DOWN, from event.tap's trace (--hit: a dry run): the views offered it, numbered in order, the one \
            that consumed it filled, the children skipped red with their reason (invisible, gone, outside-bounds) \
            and those offered that declined, the groups that intercepted marked (data-intercepted), and the click's \
            listener in the legend, every mark with its rule id (docs/rules-android.md). Android has no responder \
            chain and no why-not: --chain and --why are refused there. The title and legend name the profile drawn.
            """
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var session: SessionOptions
    @OptionGroup var dryRun: DryRunOption

    @Option(
        parsing: .upToNextOption,
        help: ArgumentHelp("Hit-test this screen point and draw the explanation.", valueName: "x y"))
    var hit: [Coordinate] = []

    @Option(
        parsing: .upToNextOption,
        help: ArgumentHelp("Tap this screen point (event.tap) and draw what happened.", valueName: "x y"))
    var tap: [Coordinate] = []

    @Option(help: ArgumentHelp("Draw the responder chain from this responder.", valueName: "id"))
    var chain: String?

    @Option(
        help: ArgumentHelp(
            "Draw why this view does or does not get a tap (whyNot): the view, the node to blame, the hittable area.",
            valueName: "id"))
    var why: String?

    @Option(
        help: ArgumentHelp(
            "Which dispatch model to draw: uikit or android. Default: the session's own; the other draws the same tree on a scratch copy.",
            valueName: "profile"))
    var profile: DrawProfile?

    @Option(help: "svg, png, dot or graph-png. Default: from --out's extension (.svg, .png, .dot, .gv), else svg.")
    var format: PictureFormat?

    @Option(help: ArgumentHelp("Write to this file instead of standard output.", valueName: "file"))
    var out: String?

    @Option(help: ArgumentHelp("Only this window.", valueName: "id"))
    var window: String?

    @Option(help: ArgumentHelp("Only this node and what is inside it.", valueName: "id"))
    var subtree: String?

    @Option(
        help: ArgumentHelp(
            "Levels of the tree to draw below the application (or --subtree); deeper views are counted.", valueName: "n"
        ))
    var depth: Int?

    @Option(
        name: .customLong("min-size"),
        help: ArgumentHelp(
            "Views narrower or shorter than this many points are counted, not drawn.", valueName: "points"))
    var minSize: Double = 2

    func validate() throws {
        if !hit.isEmpty && hit.count != 2 { throw ValidationError("--hit takes two numbers: X Y") }
        if !tap.isEmpty && tap.count != 2 { throw ValidationError("--tap takes two numbers: X Y") }
        if [!hit.isEmpty, !tap.isEmpty, chain != nil, why != nil].filter({ $0 }).count > 1 {
            throw ValidationError("give one of --hit, --tap, --chain and --why")
        }
        if dryRun.on && tap.isEmpty { throw ValidationError("--dry-run applies to --tap") }
        if let depth, depth < 0 { throw ValidationError("--depth must be 0 or more") }
        if !(minSize >= 0 && minSize.isFinite) { throw ValidationError("--min-size must be 0 or more") }
        let format = try chosenFormat()
        if format == .png || format == .graphPNG, out == nil || out == "-", isatty(1) != 0 {
            throw ValidationError("--format \(format.rawValue) needs --out FILE (or a pipe)")
        }
    }

    var resolvedFormat: PictureFormat { (try? chosenFormat()) ?? .svg }

    /// --format, else --out's extension; an extension that names no format is refused, naming those that do.
    private func chosenFormat() throws -> PictureFormat {
        if let format { return format }
        guard let out, out != "-" else { return .svg }
        let ext = URL(fileURLWithPath: out).pathExtension.lowercased()
        if let format = PictureFormat.byExtension[ext] { return format }
        let given = ext.isEmpty ? "has no extension" : "ends in .\(ext)"
        throw ValidationError(
            "--out \(out) \(given): use .svg (the picture), .png (the picture as an image), .dot or .gv (the Graphviz graph), or say --format"
        )
    }

    func run(_ client: Client) throws {
        let connection = client.connection
        let own = try WorldState.fetch(connection, session: session.session)
        let drawn = profile?.rawValue ?? own.profile
        if drawn == "android" {
            if chain != nil {
                throw CLIError(
                    "Android has no responder chain: a touch goes to the view that consumes its DOWN, a click to that view's listener; draw --tap X Y (or --hit X Y) shows where a touch goes under android"
                )
            }
            if why != nil {
                throw CLIError(
                    "why-not answers UIKit's rules; Android has no why-not yet: draw --tap X Y (or --hit X Y) shows which views a touch there is offered to under android, and why the others are skipped"
                )
            }
        }
        guard drawn != own.profile else {
            return try draw(connection, client: client, session: session.session, profile: drawn)
        }
        // The same tree under the other model: a scratch copy, gone again whatever happens.
        let copy = try OverlayReplies.copy(
            connection, state: own, profile: drawn, base: "draw-" + String(UInt32.random(in: 0 ... .max), radix: 16))
        defer { _ = try? connection.call("session.delete", ["session": .string(copy)]) }
        try draw(connection, client: client, session: copy, profile: drawn)
    }

    private func draw(_ connection: ResponderConnection, client: Client, session s: String, profile: String) throws {
        var overlay = Overlay()
        if profile == "android", hit.count == 2 || tap.count == 2 {
            let point = hit.count == 2 ? Point(hit[0].value, hit[1].value) : Point(tap[0].value, tap[1].value)
            overlay = try AndroidOverlay.tap(connection, session: s, point: point, dryRun: hit.count == 2 || dryRun.on)
            if hit.count == 2 {
                overlay.title = "Android's search at \(SVGText.point(point.x, point.y)) (event.tap, dry run)"
            }
        } else if hit.count == 2 {
            overlay = try OverlayReplies.hit(connection, session: s, point: Point(hit[0].value, hit[1].value))
        } else if tap.count == 2 {
            overlay = try OverlayReplies.tap(
                connection, session: s, point: Point(tap[0].value, tap[1].value), dryRun: dryRun.on)
        } else if let why {
            overlay = try OverlayReplies.why(
                connection, session: s, view: why, name: try client.names(session: s).label(why))
        } else if let chain {
            overlay = Overlay(
                title: "responderChain from \(chain)",
                chain: try OverlayReplies.chain(connection, session: s, id: chain),
                chainTitle: "Responder chain of \(chain)")
        }
        if !overlay.isEmpty {
            overlay.profile = profile
            overlay.title = (overlay.title ?? "") + " · \(profile)"
        }
        // After a tap: the world as the tap left it (a text field it made first responder is marked).
        let state = try WorldState.fetch(connection, session: s)
        let options = PictureOptions(window: window, subtree: subtree, depth: depth, minSide: minSize)
        let text: String
        do {
            switch resolvedFormat {
            case .svg, .png:
                text = try Picture.svg(
                    tree: state.tree, options: options, overlay: overlay, firstResponders: state.firstResponders)
            case .dot, .graphPNG:
                text = try Dot.graph(
                    tree: state.tree, options: options, overlay: overlay, firstResponders: state.firstResponders)
            }
        } catch {
            throw CLIError(error.description)
        }
        let bytes: [UInt8]
        switch resolvedFormat {
        case .png:
            do throws(PNGRaster.Failure) { bytes = try PNGRaster.png(svg: text) } catch {
                throw CLIError(error.description)
            }
        case .graphPNG: bytes = try Graphviz.png(dot: text)
        case .svg, .dot: bytes = Array(text.utf8)
        }
        try write(bytes)
    }

    private func write(_ bytes: [UInt8]) throws {
        guard let out, out != "-" else {
            FileHandle.standardOutput.write(Data(bytes))
            return
        }
        guard FileManager.default.createFile(atPath: out, contents: Data(bytes)) else {
            throw CLIError("cannot write \(out)")
        }
        Output.error("wrote \(out) (\(bytes.count) bytes, \(resolvedFormat.rawValue))")
    }
}

/// The dispatch models `draw --profile` knows (Protocol/README.md 12.7's `name`).
enum DrawProfile: String, ExpressibleByArgument, CaseIterable {
    case uikit, android
}

enum PictureFormat: String, ExpressibleByArgument, CaseIterable {
    case svg, png, dot
    case graphPNG = "graph-png"

    static let byExtension: [String: PictureFormat] = ["svg": .svg, "png": .png, "dot": .dot, "gv": .dot]
}

/// Graphviz's `dot`, found on the PATH, renders the graph as PNG.
enum Graphviz {
    static func png(dot graph: String) throws -> [UInt8] {
        guard let dot = executable("dot") else {
            throw CLIError(
                "--format graph-png renders the graph through Graphviz's `dot`, which is not installed (Debian: apt-get install graphviz); --format dot writes the graph itself, --format png the picture"
            )
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: dot)
        process.arguments = ["-Tpng"]
        let input = Pipe(), output = Pipe(), errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        // Write and read at once on separate threads: a large graph fills either pipe.
        let writer = Thread {
            input.fileHandleForWriting.write(Data(graph.utf8)); try? input.fileHandleForWriting.close()
        }
        writer.start()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw CLIError(
                "dot failed (status \(process.terminationStatus)): \(String(decoding: message, as: UTF8.self))")
        }
        return Array(data)
    }

    static func executable(_ name: String) -> String? {
        for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let path = "\(dir)/\(name)"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }
}
