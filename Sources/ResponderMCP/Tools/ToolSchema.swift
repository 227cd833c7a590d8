import ResponderJSON
import ResponderOutput
import ResponderProtocol

/// Schema pieces the tools share, as Protocol/schemas/common.json defines them (a Python test checks that
/// they still agree).
package enum ToolSchema {
    /// common.json `sessionName`.
    package static let session: JSON = [
        "type": "string", "pattern": "^[A-Za-z0-9_-]{1,64}$",
        "description": "The session (world) to use. Default: the one `responder mcp --session` names, else \"default\"."
    ]

    /// common.json `nodeId`, with what the id is for.
    package static func nodeID(_ description: String) -> JSON {
        ["type": "string", "minLength": 1, "maxLength": 256, "description": .string(description)]
    }

    package static func number(_ description: String) -> JSON {
        ["type": "number", "description": .string(description)]
    }
}

/// `rules: H2, H3, T3, A4`: the rule ids (Protocol/README.md 12.1) a reply's trace applied, in the order of
/// that table, so that a model can cite why each step happened.
package enum RuleCitation {
    package static func line(_ reply: JSON) -> String? {
        var rules = Set<Rule>()
        for step in reply["trace"]?["steps"]?.arrayValue ?? [] {
            if let rule = step["rule"]?.stringValue.flatMap(Rule.init(rawValue:)) { rules.insert(rule) }
        }
        guard !rules.isEmpty else { return nil }
        return "rules: " + rules.sorted().map(\.rawValue).joined(separator: ", ")
    }
}
