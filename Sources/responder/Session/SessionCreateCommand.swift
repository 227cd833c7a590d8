import ArgumentParser
import ResponderJSON
import ResponderOutput
import ResponderProtocol

struct SessionCreateCommand: SessionlessCommand {
    static let configuration = CommandConfiguration(
        commandName: "create",
        abstract: "Create a session, empty or from a world file (session.create)."
    )

    @ParentCommand var responder: Responder
    @OptionGroup var global: GlobalOptions

    @Argument(help: "Name of the new session ([A-Za-z0-9_-], at most 64).")
    var name: String

    @Argument(
        help: ArgumentHelp(
            "World file to start from: {\"tree\": …, \"detached\"?: …} or a bare application node; - reads stdin. The same as --tree. Default: an application with no children.",
            valueName: "file"))
    var file: String?

    @Option(
        help: ArgumentHelp("Dispatch profile as inline JSON, or @file to read it from a file.", valueName: "json|@file")
    )
    var profile: String?

    @Option(help: ArgumentHelp("World file to start from, as the FILE argument gives it.", valueName: "file"))
    var tree: String?

    func validate() throws {
        try refuseSession()
        if file != nil, tree != nil {
            throw ValidationError("give the world file once: as FILE or with --tree, not both")
        }
    }

    func run(_ client: Client) throws {
        let tree = file ?? tree
        var params: [(key: String, value: JSON)] = [("session", .string(name))]
        if let profile { params.append(("profile", try InputFile.inline(profile, option: "--profile"))) }
        if let tree {
            var world = try InputFile.world(tree)
            params.append(("tree", world.tree))
            if let detached = world.detached { params.append(("detached", detached)) }
            InputFile.release(&world)  // shared with params, which now hold it alone
        }
        var body: JSON = .object(params)
        params = []
        defer { JSON.release(&body) }
        try client.send(SessionCreateRequest.self, params: body) { reply in
            Output.line(
                "created session \(name) at revision \(reply.revision), seq \(reply.seq), profile \(reply.profile.name)"
            )
        }
    }
}
