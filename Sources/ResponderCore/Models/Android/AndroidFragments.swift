import ResponderProtocol

/// The Activity's fragments and what reaches them under `android` (docs/rules-android.md AK7, AK10, AX3–AX5):
/// back callbacks, a running action mode, options and context menu items. A fragment is a view controller under
/// the Activity (the window's root view controller) other than a presented one; fragments are taken in the
/// order of the tree, which stands for the order they were added.
extension SessionState {
    /// The fragments of `activity`, in tree order (a fragment before its child fragments); a presented
    /// controller (another Activity or a Dialog) and what it holds are not the Activity's. `visibleOnly`: a
    /// hidden fragment and its child fragments are left out, as menus leave them (AX3, AX4).
    func androidFragments(of activity: String, visibleOnly: Bool = false) -> [String] {
        var out: [String] = []
        var stack = Array((world.nodes[activity]?.children ?? []).reversed())
        while let id = stack.popLast() {
            guard let node = world.nodes[id] else { continue }
            if node.kind == .viewController {
                guard node.spec.presentedBy == nil else { continue }
                if visibleOnly && node.spec.android?.hidden == true { continue }
                out.append(id)
            }
            stack += node.children.reversed()
        }
        return out
    }

    /// AK10: onBackPressed goes to the OnBackPressedDispatcher, whose most recently added enabled callback
    /// handles it: the last fragment in tree order with an enabled back callback. Nil when none is enabled:
    /// onBackPressed's default then finishes the Activity.
    mutating func androidBackCallback(of activity: String, trace: inout Trace) -> String? {
        let fragment = androidFragments(of: activity).last { id in
            world.nodes[id]?.spec.android?.backCallback?.enabled == true
        }
        if let fragment {
            trace.add(
                .android(.fragment(id: fragment, method: "handleOnBackPressed", item: nil, result: true, rule: .ak10)))
        }
        return fragment
    }

    /// AX5, AK7: whether `activity` has a primary action mode running (DecorView#superDispatchKeyEvent finishes
    /// it on BACK before the view tree sees the key).
    func androidActionMode(_ activity: String) -> Bool {
        world.nodes[activity]?.spec.android?.actionMode == true
    }

    /// AX5: BACK's UP finished the action mode: Activity#onActionModeFinished, and the node's `actionMode`
    /// becomes false — a field change published with the request's tree event.
    mutating func androidFinishActionMode(_ activity: String, trace: inout Trace) {
        trace.add(
            .android(
                .activity(
                    id: activity, method: "onActionModeFinished", action: AndroidAction.up.rawValue, result: true,
                    rule: .ax5, touch: nil)))
        guard var fields = world.nodes[activity]?.spec.android else { return }
        fields.actionMode = false
        change(activity, "android", \.android, to: fields, rule: .ax5, trace: &trace)
    }
}
