import ArgumentParser
import ResponderOutput
import ResponderProtocol

struct MenuItemCommand: EngineCommand {
    static let configuration = CommandConfiguration(
        commandName: "menu-item",
        abstract: "Choose a menu item (event.menuItem).",
        discussion:
            "Under android the item goes to the Activity, then to its fragments (AX3; a context menu's: AX4). Under uikit it is a menu command: a nil-target action from the first responder (A3, A4)."
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var session: SessionOptions
    @OptionGroup var dryRun: DryRunOption

    @Argument(help: "The item's id (under uikit, the action selector, e.g. share:).") var item: String

    @Option(
        help: ArgumentHelp(
            "The long-pressed view whose context menu the item is from. Default: the options menu.",
            valueName: "id"))
    var context: String?

    func run(_ client: Client) throws {
        let request = MenuItemRequest(
            session: session.session, item: item, menu: context == nil ? .options : .context, view: context)
        try client.send(request.dry(dryRun)) {
            DispatchReply.print($0, message: item, names: try client.names(session: session.session))
        }
    }
}
