import ResponderProtocol

/// Menus under `android` (docs/rules-android.md AX3, AX4): an options-menu item goes to the Activity first, then
/// to the fragments that show an options menu, in the order they were added; a context menu is built from the
/// long-pressed view and its parents, and its chosen item goes to the Activity, then the fragments.
extension SessionState {
    /// AX4: the context menu a long press on `id` shows: View#createContextMenu adds the view's items, then its
    /// parent's, up to the DecorView.
    func androidContextMenu(of id: String) -> [String] {
        var items: [String] = []
        var current: String? = id
        while let c = current, let node = world.nodes[c] {
            if node.kind.isView, let own = node.spec.android?.contextMenu {
                for item in own where !items.contains(item) { items.append(item) }
            }
            if node.kind == .window { break }
            current = node.parent
        }
        return items
    }

    /// AX3, AX4: the item chosen; `view` is the long-pressed view of a context menu.
    mutating func androidMenuItem(_ item: String, menu: MenuKind, view: String?) throws(CoreError)
        -> Traced<ActionOutcome>
    {
        var trace = Trace(kind: .action)
        let window: String?
        if let view {
            let items = androidContextMenu(of: view)
            guard items.contains(item) else { throw .notInMenu(item, view: view, items: items) }
            window = world.window(of: view)
        } else {
            window = world.keyWindow ?? androidWindows().first { !(world.nodes[$0]?.spec.hidden ?? true) }
        }
        let (method, rule): (String, Rule) =
            menu == .options ? ("onOptionsItemSelected", .ax3) : ("onContextItemSelected", .ax4)
        guard let activity = window.flatMap(androidActivity(of:)) else {
            trace.add(.android(.discard(action: "select", reason: "unhandled", rule: rule, touch: nil)))
            return trace.finish(ActionOutcome(performed: false, by: nil, visited: [], reason: nil))
        }
        func handles(_ id: String) -> Bool {
            let a = world.nodes[id]?.spec.android
            return (menu == .options ? a?.onOptionsItemSelected : a?.onContextItemSelected)?.contains(item) ?? false
        }
        var visited = [activity]
        var by: String? = handles(activity) ? activity : nil
        trace.add(.android(.activity(id: activity, method: method, item: item, result: by != nil, rule: rule)))
        if by == nil {
            // A hidden fragment and its child fragments are not asked; for the options menu only a fragment that
            // has an options menu and shows it is (its child fragments are asked either way).
            for fragment in androidFragments(of: activity, visibleOnly: true) {
                let a = world.nodes[fragment]?.spec.android
                if menu == .options, a?.hasOptionsMenu != true || a?.menuVisible == false { continue }
                visited.append(fragment)
                let took = handles(fragment)
                trace.add(.android(.fragment(id: fragment, method: method, item: item, result: took, rule: rule)))
                if took {
                    by = fragment
                    break
                }
            }
        }
        if by == nil { trace.add(.android(.discard(action: "select", reason: "unhandled", rule: rule, touch: nil))) }
        return trace.finish(ActionOutcome(performed: by != nil, by: by, visited: visited, reason: nil))
    }
}
