import ResponderProtocol

/// A key press under `android` (docs/rules-android.md AK4, AK7–AK12): the Activity first, then down the focus path
/// to the focused view only — nothing bubbles up — then the Activity's own handlers, then focus navigation.
extension SessionState {
    /// AK9: the keys a view treats as a click.
    static let androidConfirmKeys: Set<String> = [
        "DPAD_CENTER", "ENTER", "NUMPAD_ENTER", "SPACE", "return", "enter", " "
    ]
    /// AK11: the keys that move focus, and where.
    static let androidDirections: [String: (dx: Double, dy: Double)] = [
        "DPAD_UP": (0, -1), "DPAD_DOWN": (0, 1), "DPAD_LEFT": (-1, 0), "DPAD_RIGHT": (1, 0), "TAB": (0, 1)
    ]
    /// AK4: the navigation keys that leave touch mode (typing keys leave it too).
    static let androidNavigationKeys: Set<String> = [
        "DPAD_UP", "DPAD_DOWN", "DPAD_LEFT", "DPAD_RIGHT", "DPAD_CENTER", "TAB", "ENTER", "SPACE", "PAGE_UP",
        "PAGE_DOWN", "MOVE_HOME", "MOVE_END", "return", "enter", " "
    ]

    mutating func androidPress(_ id: EventID, key: String?, phase: PressPhase, client: String) throws(CoreError)
        -> Traced<PressOutcome>
    {
        var live = android.presses[id]
        switch phase {
        case .began:
            if let live { throw .pressInUse(id, client: live.client, reason: .live) }
        case .changed:
            throw .notModelled("a key's repeat (changed) yet", model: .android, field: "phase")
        case .ended, .cancelled:
            guard let l = live else { throw .pressNotFound(id) }
            guard l.client == client else { throw .pressInUse(id, client: l.client, reason: .otherClient) }
        }
        let keyName = key ?? live?.key ?? ""
        let window = live?.window ?? world.keyWindow ?? androidWindows().first
        if phase == .began { live = AndroidKeyPress(client: client, key: keyName, window: window) }
        let action: AndroidAction = phase == .began ? .down : .up
        let canceled = phase == .cancelled
        var trace = Trace(kind: .press)
        var run = AndroidRun()
        var handledBy: [String] = []
        var visited: [String] = []
        guard let window else {
            trace.add(
                .android(
                    .discard(action: action.rawValue, reason: "no-window", rule: .ak12, touch: nil)))
            android.presses[id] = phase == .began ? live : nil
            return Self.aboutPress(id, trace).finish(
                keyOutcome(id, keyName, phase, start: nil, visited: [], handledBy: []))
        }
        let activity = androidActivity(of: window)
        var handled = false
        // AK4: a navigation key leaves touch mode; if that places focus, the key has done its work there: the
        // Activity and the views never see it.
        if action == .down, android.touchMode, Self.androidNavigationKeys.contains(keyName) || keyName.count == 1 {
            android.touchMode = false
            if firstResponderByWindow[window] == nil, let first = androidDefaultFocus(in: window) {
                androidFocus(window: window, to: first, reason: "default", rule: .ak4, touch: nil, trace: &trace)
                if Self.androidNavigationKeys.contains(keyName) {
                    android.presses[id] = live
                    var outcome = keyOutcome(id, keyName, phase, start: first, visited: [], handledBy: [window])
                    outcome.message = action.message
                    return Self.aboutPress(id, trace).finish(outcome)
                }
            }
        }
        let start = firstResponderByWindow[window]
        // AK7, AX5: DecorView#superDispatchKeyEvent: BACK finishes a running action mode first (on its UP) and
        // is consumed there, DOWN and UP, before the view tree or the Activity's onKeyDown / onKeyUp see it.
        if keyName == "BACK", let activity, androidActionMode(activity) {
            trace.add(
                .android(
                    .offer(
                        to: window, action: action.rawValue, via: "dispatchKeyEvent", result: true, rule: .ak7,
                        touch: nil)))
            if action == .up && !canceled { androidFinishActionMode(activity, trace: &trace) }
            handled = true
            handledBy = [window]
        }
        // AK8, AK9: down the focus path to the focused view, which alone answers.
        if !handled, let focused = firstResponderByWindow[window], let view = androidView(focused) {
            visited = androidFocusPath(to: focused)
            handled = androidKey(
                view, key: keyName, action: action, canceled: canceled, run: &run, trace: &trace)
            if handled { handledBy = [focused] }
        }
        // AK10: what the tree did not handle goes to the Activity's own onKeyDown / onKeyUp.
        if !handled, let activity {
            let method = action == .down ? "onKeyDown" : "onKeyUp"
            var result = false
            if keyName == "BACK" {
                if action == .down {
                    result = true
                    android.backTracking = id
                } else if android.backTracking == id && !canceled {
                    result = true
                }
            }
            trace.add(
                .android(
                    .activity(
                        id: activity, method: method, action: action.rawValue, result: result, rule: .ak10, touch: nil
                    )
                ))
            if result && action == .up {
                trace.add(
                    .android(
                        .activity(
                            id: activity, method: "onBackPressed", action: action.rawValue, result: true, rule: .ak10,
                            touch: nil
                        )
                    ))
                // With no enabled back callback, onBackPressed's default finishes the Activity.
                if androidBackCallback(of: activity, trace: &trace) == nil {
                    androidClose(
                        window, activity: activity, action: action.rawValue, touch: nil, rule: .ak10, trace: &trace)
                }
            }
            if action == .up { android.backTracking = nil }
            handled = result
            if handled { handledBy = [activity] }
        }
        // AK7: the Activity's dispatchKeyEvent returns what the tree and its own handlers did.
        if let activity {
            trace.add(
                .android(
                    .activity(
                        id: activity, method: "dispatchKeyEvent", action: action.rawValue, result: handled, rule: .ak7,
                        touch: nil
                    )))
        }
        // AK11: then the view root: an arrow or TAB nobody handled moves focus.
        if !handled, action == .down, let direction = Self.androidDirections[keyName] {
            let from = firstResponderByWindow[window]
            let to =
                from.map { androidFocusSearch(from: $0, in: window, direction: direction) }
                ?? androidDefaultFocus(in: window)
            if let to {
                androidFocus(window: window, to: to, reason: "navigation", rule: .ak11, touch: nil, trace: &trace)
                handled = true
                handledBy = [window]
            }
        }
        if !handled {
            trace.add(
                .android(
                    .discard(action: action.rawValue, reason: "unhandled", rule: .ak11, touch: nil)))
        }
        android.presses[id] = phase == .began ? live : nil
        var outcome = keyOutcome(id, keyName, phase, start: start, visited: visited, handledBy: handledBy)
        outcome.message = action.message
        commitChanges()
        return Self.aboutPress(id, trace).finish(outcome)
    }

    /// Every step of a key's trace is about its press: the steps it shares with touches are written with no touch,
    /// and take the press here, once.
    private static func aboutPress(_ id: EventID, _ trace: Trace) -> Trace {
        var t = trace
        for i in t.steps.indices {
            if case .android(let step) = t.steps[i] { t.steps[i] = .android(step.about(press: id)) }
        }
        return t
    }

    private func keyOutcome(
        _ id: EventID, _ key: String, _ phase: PressPhase, start: String?, visited: [String], handledBy: [String]
    ) -> PressOutcome {
        PressOutcome(press: id, key: key, phase: phase, start: start, visited: visited, handledBy: handledBy)
    }

    /// AK8: the views from the DecorView down to `id`, each passing the key to the child that holds focus.
    private func androidFocusPath(to id: String) -> [String] {
        var path: [String] = []
        var current: String? = id
        while let c = current, let node = world.nodes[c] {
            if node.kind.isView { path.append(c) }
            if node.kind == .window { break }
            current = node.parent
        }
        return path.reversed()
    }

    /// AK9: the focused view's onKeyDown / onKeyUp: declared answers, else View's own — a confirm key presses an
    /// enabled clickable view on the DOWN and clicks it on the UP; a disabled view consumes confirm keys.
    private mutating func androidKey(
        _ view: AndroidView, key: String, action: AndroidAction, canceled: Bool, run: inout AndroidRun,
        trace: inout Trace
    ) -> Bool {
        let method = action == .down ? "onKeyDown" : "onKeyUp"
        if let answer = view.keyAnswers[action], answer != .super {
            let took = answer == .consume
            trace.add(
                .android(
                    .offer(to: view.id, action: action.rawValue, via: method, result: took, rule: .ak9, touch: nil)
                ))
            return took
        }
        var took = false
        if Self.androidConfirmKeys.contains(key) {
            if !view.enabled {
                took = true
            } else if view.clickable || view.longClickable {
                took = true
                if action == .down {
                    android.keyPressed = view.id
                    trace.add(
                        .android(.press(view: view.id, state: "pressed", rule: .ak9, touch: nil)))
                } else if android.keyPressed == view.id {
                    android.keyPressed = nil
                    if !canceled {
                        androidClick(view, long: false, run: &run, trace: &trace)
                    }
                    trace.add(
                        .android(.press(view: view.id, state: "unpressed", rule: .ak9, touch: nil)))
                }
            }
        }
        trace.add(
            .android(
                .offer(to: view.id, action: action.rawValue, via: method, result: took, rule: .ak9, touch: nil)))
        return took
    }

    /// AK2: whether `view` can take focus outside touch mode (visible, focusable, enabled).
    private func androidFocusable(_ view: AndroidView) -> Bool {
        view.visibility == .visible && view.focusable && view.enabled
            && (!android.touchMode || view.focusableInTouchMode)
    }

    /// AK3, AK6: the views that can take focus in `window`, in the order restoreDefaultFocus looks: depth first in
    /// child order, a group before its children; an invisible view's subtree and presented controllers' views are
    /// out of reach.
    private func androidFocusables(in window: String) -> [String] {
        var out: [String] = []
        var stack = [window]
        while let id = stack.popLast() {
            guard let node = world.nodes[id] else { continue }
            if node.kind.isView, id != window, let view = androidView(id) {
                guard view.visibility == .visible else { continue }
                if androidFocusable(view) { out.append(id) }
            }
            for child in node.children.reversed() {
                guard let c = world.nodes[child] else { continue }
                if c.kind == .viewController {
                    if c.spec.presentedBy == nil, let root = c.children.first { stack.append(root) }
                } else if c.kind.isView {
                    stack.append(child)
                }
            }
        }
        return out
    }

    /// AK6: restoreDefaultFocus from the DecorView (FOCUS_AFTER_DESCENDANTS): the first view that can take focus.
    func androidDefaultFocus(in window: String) -> String? { androidFocusables(in: window).first }

    /// AK11: focusSearch in a direction: among the views that can take focus, the one whose centre lies that way,
    /// the nearest along the direction first, then the nearest across it (FocusFinder weighs both; this keeps its
    /// order for a list or a grid of views). TAB goes the way of DPAD_DOWN.
    private func androidFocusSearch(from id: String, in window: String, direction: (dx: Double, dy: Double)) -> String?
    {
        guard let origin = androidCentre(id) else { return nil }
        var best: (id: String, along: Double, across: Double)?
        for candidate in androidFocusables(in: window) where candidate != id {
            guard let c = androidCentre(candidate) else { continue }
            let along = (c.x - origin.x) * direction.dx + (c.y - origin.y) * direction.dy
            let across = abs((c.x - origin.x) * direction.dy) + abs((c.y - origin.y) * direction.dx)
            guard along > 0 else { continue }
            if best == nil || along < best!.along || (along == best!.along && across < best!.across) {
                best = (candidate, along, across)
            }
        }
        return best?.id
    }

    /// The centre of `id` in its window's coordinates.
    private func androidCentre(_ id: String) -> Point? {
        var conversions: [SuperviewConversion] = []
        var current: String? = id
        while let c = current, let node = world.nodes[c] {
            if node.kind == .window { break }
            if node.kind.isView { conversions.append(SuperviewConversion(node.spec)) }
            current = node.parent
        }
        guard let b = world.nodes[id]?.bounds else { return nil }
        return conversions.reduce(Point(b.x + b.width / 2, b.y + b.height / 2)) { $1.unapply($0) }
    }
}
