/// The layout of a command's `--help`: what the command itself takes comes first, then an example, then the
/// options every command shares for reaching the engine. The argument parser lists the shared option groups
/// first (they are declared first, so that they parse anywhere on the line) and puts titled groups before the
/// untitled ones, so the options are moved here, in the help text it wrote.
enum HelpLayout {
    /// The shared options that say how to reach the engine (GlobalOptions, less --json, which is output).
    static let connection: Set<String> = ["--name", "--dir", "--connect", "--timeout", "--client-id", "--owner"]

    /// One example command line per command that has no example in its discussion.
    static let examples: [String: String] = [
        "info": "responder info --name myapp",
        "session list": "responder session list",
        "session create": "responder session create scratch world.json",
        "session delete": "responder session delete scratch",
        "load": "responder load world.json --session scratch",
        "apply": "responder apply ops.json --dry-run",
        "tree": "responder tree --session scratch",
        "watch": "responder watch --stream trace focus",
        "draw": "responder draw --hit 100 150 --out screen.svg",
        "web": "responder web --port 8080",
        "clients": "responder clients --all",
        "import": "responder import views.txt controllers.txt --load --session app",
        "find": #"responder find "Sign in" --session app"#,
        "record": "responder record login.jsonl --session app --count 5",
        "hit": "responder hit 100 150 --explain",
        "tap": "responder tap 100 150    # or: responder tap --view button",
        "touch": "responder touch 1:began:100,150 1:ended:100,150@0.2",
        "drag": "responder drag 30 300 200 300 --steps 10 --duration 0.25",
        "press-hold": "responder press-hold 30 300 --duration 1",
        "clock": "responder clock --by 0.5",
        "chain": "responder chain textField",
        "become": "responder become textField",
        "resign": "responder resign textField",
        "first": "responder first",
        "action": "responder action copy: --sender button",
        "can-perform": "responder can-perform copy: --sender button",
        "why": "responder why button    # or: --at 100 150, --action copy:, --become",
        "shake": "responder shake",
        "press": "responder press select",
        "remote": "responder remote play",
        "make-key": "responder make-key window2",
        "mcp": "responder mcp --session app",
        "bridge": "responder bridge",
        "keygen": "responder keygen --authorize",
        "engines": "responder engines"
    ]

    /// The help text with the command's own options first, then EXAMPLE, then CONNECTION OPTIONS.
    static func rewrite(_ text: String, command: String) -> String {
        var lines = text.components(separatedBy: "\n")
        guard let start = lines.firstIndex(of: "OPTIONS:") else { return text }
        var end = start + 1
        while end < lines.count, !lines[end].isEmpty { end += 1 }
        // Entries: a line `  --name <name>  Text…` and the indented lines that continue it.
        var own: [[String]] = [], shared: [[String]] = []
        var current: [String] = []
        var isShared = false
        func close() {
            if !current.isEmpty { if isShared { shared.append(current) } else { own.append(current) } }
            current = []
        }
        for line in lines[(start + 1)..<end] {
            if line.hasPrefix("  -") {
                close()
                let flag = line.dropFirst(2).prefix { $0 != " " && $0 != "," }
                isShared = connection.contains(String(flag))
            }
            current.append(line)
        }
        close()
        guard !shared.isEmpty else { return text }
        var section = ["OPTIONS:"] + own.flatMap { $0 }
        let hasExample = text.contains("Example")
        if !hasExample, let example = examples[command] {
            section += ["", "EXAMPLE:", "  " + example]
        }
        section += ["", "CONNECTION OPTIONS:"] + shared.flatMap { $0 }
        lines.replaceSubrange(start..<end, with: section)
        return lines.joined(separator: "\n")
    }

    /// The command a help request is about (`session create`), from the command line.
    static func command(_ arguments: [String]) -> String {
        var words: [String] = []
        var skip = false
        for a in arguments {
            if skip {
                skip = false
                continue
            }
            if a.hasPrefix("-") {
                skip = connection.contains(a) || a == "--session"
                continue
            }
            words.append(a)
        }
        // Only the words that name commands: a command's arguments come after them.
        var path: [String] = []
        var children = Responder.configuration.subcommands
        for w in words.drop(while: { $0 == "help" }) {
            guard let child = children.first(where: { $0.configuration.commandName == w }) else { break }
            path.append(w)
            children = child.configuration.subcommands
        }
        return path.joined(separator: " ")
    }
}
