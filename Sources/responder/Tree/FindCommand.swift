import ArgumentParser
import ResponderImport
import ResponderJSON
import ResponderOutput
import ResponderProtocol

struct FindCommand: EngineCommand {
    static let configuration = CommandConfiguration(
        commandName: "find",
        abstract: "List the nodes whose id, class, text or identifier contain TEXT (ignoring case).",
        discussion: """
            Searches the session's world: each node's id, class, and the annotations an import keeps for the \
            words a dump shows (displayName, text, title, placeholder, accessibilityIdentifier, \
            accessibilityLabel). Prints one line per match, `id  name  kind`, in tree order, where name is the \
            node's displayName (`UIButton "Save Changes"`) or its class. Exit status 1 when nothing matches. With \
            --json prints the matches as an array of {id, kind, class, displayName}.
            """
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var session: SessionOptions

    @Argument(help: "The text to look for.") var text: String

    func run(_ client: Client) throws {
        var reply = try client.send(TreeGetRequest(session: session.session))
        defer { JSON.release(&reply.tree) }
        let matches = Self.matches(reply.tree, text)
        if global.json {
            Output.printJSON(.array(matches.map { $0.json }))
        } else {
            for m in matches { Output.line("\(m.id)  \(m.name)  \(m.kind)") }
        }
        if matches.isEmpty {
            Output.error("no node matches \"\(text)\"")
            throw ExitCode.failure
        }
    }

    struct Match {
        var id: String
        var kind: String
        var className: String?
        var displayName: String?
        var name: String { displayName ?? className ?? kind }
        var json: JSON {
            var members: [(key: String, value: JSON)] = [("id", .string(id)), ("kind", .string(kind))]
            if let className { members.append(("class", .string(className))) }
            if let displayName { members.append((NodeDisplayName.key, .string(displayName))) }
            return .object(members)
        }
    }

    /// The nodes matching `text`, in tree order (iterative: an imported tree may nest deeply).
    static func matches(_ tree: JSON, _ text: String) -> [Match] {
        let needle = text.lowercased()
        var out: [Match] = []
        var stack: [JSON] = [tree]
        while let node = stack.popLast() {
            let notes = node["annotations"]
            var fields = [node["id"]?.stringValue, node["class"]?.stringValue, NodeDisplayName.of(node)]
            fields += DisplayName.wordKeys.map { notes?[$0]?.stringValue }
            if fields.contains(where: { $0?.lowercased().contains(needle) == true }) {
                out.append(
                    Match(
                        id: node["id"]?.stringValue ?? "?", kind: node["kind"]?.stringValue ?? "?",
                        className: node["class"]?.stringValue, displayName: NodeDisplayName.of(node)))
            }
            stack.append(contentsOf: (node["children"]?.arrayValue ?? []).reversed())
        }
        return out
    }
}
