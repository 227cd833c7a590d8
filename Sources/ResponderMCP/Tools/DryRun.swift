import ResponderJSON

/// `dry_run` on every tool that dispatches: the request goes with the protocol's `dryRun: true` (Protocol/README.md
/// 12.2), so the engine answers what would happen on a copy of the session: nothing changes, nothing is published.
package enum DryRun {
    package static let argument = "dry_run"

    package static let note = "dry run: nothing changed and nothing was published"

    /// The schema property, for a tool that dispatches.
    package static func property(of tool: String) -> [(key: String, value: JSON)] {
        guard ToolCatalog.dispatching.contains(tool) else { return [] }
        return [
            (
                argument,
                [
                    "type": "boolean",
                    "description":
                        "true: answer what would happen without doing it (the engine's dryRun): the world, clock, first responder and live touches stay as they are and no trace is published."
                ]
            )
        ]
    }
}

extension EngineRequest {
    /// The params as sent: with `dryRun: true` for a dry run.
    package var sentParams: JSON { dryRun ? params.setting("dryRun", true) : params }
}
