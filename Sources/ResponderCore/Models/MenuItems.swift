import ResponderProtocol

/// `event.menuItem`: an item chosen from a menu, under the session's model.
extension SessionState {
    /// Under `uikit` the item is a menu command: a nil-target action sent from the first responder (A3, A4), the
    /// context menu's view as its sender. Under `android` it goes to the Activity, then the fragments (AX3, AX4).
    public mutating func menuItem(_ item: String, menu: MenuKind, view: String?) throws(CoreError)
        -> Traced<ActionOutcome>
    {
        if let view { _ = try existing(view, field: "view") }
        switch profile.model {
        case .uikit: return try sendAction(item, target: nil, sender: view)
        case .android: return try androidMenuItem(item, menu: menu, view: view)
        }
    }
}
