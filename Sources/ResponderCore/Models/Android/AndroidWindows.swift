import ResponderProtocol

/// Windows under `android` (docs/rules-android.md AR1, AR5, AV4): which window a gesture goes to, a window that
/// closes on a touch outside it, and whether the chosen window is obscured where it is touched.
extension SessionState {
    /// A window's flags (AR1, AR5): its `android` members, else the defaults (touch-modal, touchable, focusable;
    /// a `Dialog` closes on an outside touch).
    struct AndroidWindowFlags {
        var touchModal: Bool
        var touchable: Bool
        var watchOutsideTouch: Bool
        var closeOnTouchOutside: Bool
        /// A Dialog's window: its callback cancels (Dialog#cancel) where an Activity's finishes.
        var dialog: Bool
    }

    /// Window#getWindowTouchSlop: how far outside its decor view an UP must be to close the window (AR5).
    static let androidWindowTouchSlop = 16.0

    func androidWindowFlags(_ id: String) -> AndroidWindowFlags {
        let a = world.nodes[id]?.spec.android
        let dialog = a?.className == "Dialog"
        // FLAG_NOT_FOCUSABLE implies FLAG_NOT_TOUCH_MODAL.
        let focusable = a?.focusable ?? true
        return AndroidWindowFlags(
            touchModal: focusable && (a?.touchModal ?? true), touchable: a?.touchable ?? true,
            watchOutsideTouch: a?.watchOutsideTouch ?? false,
            closeOnTouchOutside: a?.closeOnTouchOutside ?? dialog, dialog: dialog)
    }

    /// AR1: the window a DOWN at `screen` goes to: front to back, the first visible, touchable window that is
    /// touch-modal or contains the point. Also the windows in front of it that were passed over and watch
    /// outside touches (each gets one ACTION_OUTSIDE), and whether a visible window passed over lies over the
    /// point: it obscures the one chosen there (AV4).
    func androidWindowChoice(at screen: Point) -> (window: String?, outside: [String], obscured: Bool) {
        var outside: [String] = []
        var obscured = false
        for id in androidWindows() {
            guard let node = world.nodes[id], !node.spec.hidden else { continue }
            let flags = androidWindowFlags(id)
            let inside = world.convert(screen: screen, toWindow: id).map { node.bounds.contains($0) } ?? false
            guard flags.touchable else {
                if inside { obscured = true }  // FLAG_NOT_TOUCHABLE: it gets nothing, but it is over the point
                continue
            }
            if flags.touchModal || inside { return (id, outside, obscured) }
            if flags.watchOutsideTouch { outside.append(id) }
        }
        return (nil, outside, obscured)
    }

    /// AR1, AR5: ACTION_OUTSIDE to a window that watches outside touches: its callback's dispatchTouchEvent,
    /// whose onTouchEvent closes the window when it closes on outside touches.
    mutating func androidOutside(_ window: String, touch: EventID, trace: inout Trace) {
        guard let activity = androidActivity(of: window) else {
            trace.add(
                .android(
                    .offer(
                        to: window, action: "outside", via: "dispatchTouchEvent", result: false, rule: .ar1,
                        touch: touch)))
            return
        }
        let closes = androidWindowFlags(window).closeOnTouchOutside
        trace.add(
            .android(
                .activity(
                    id: activity, method: "dispatchTouchEvent", action: "outside", result: closes, rule: .ar1,
                    touch: touch)))
        trace.add(
            .android(
                .activity(
                    id: activity, method: "onTouchEvent", action: "outside", result: closes, rule: .ar5, touch: touch)))
        if closes { androidClose(window, activity: activity, action: "outside", touch: touch, trace: &trace) }
    }

    /// AR5: whether the Activity's (or Dialog's) onTouchEvent closes `window` for `action` at `screen`: the
    /// window closes on outside touches and this is an UP outside its decor view by more than the window
    /// touch slop.
    func androidClosesOnTouch(_ window: String, action: AndroidAction, at screen: Point) -> Bool {
        guard action == .up, androidWindowFlags(window).closeOnTouchOutside,
            let node = world.nodes[window], let p = world.convert(screen: screen, toWindow: window)
        else { return false }
        let b = node.bounds
        let slop = Self.androidWindowTouchSlop
        return p.x < b.x - slop || p.y < b.y - slop || p.x > b.x + b.width + slop || p.y > b.y + b.height + slop
    }

    /// AR5 (an outside touch), AK10 (BACK with no back callback): finish() (an Activity) or cancel() (a Dialog):
    /// the window goes away. The engine hides it — a field change published with the request's tree event, as
    /// any change dispatch makes.
    mutating func androidClose(
        _ window: String, activity: String, action: String, touch: EventID?, rule: Rule = .ar5, trace: inout Trace
    ) {
        let method = androidWindowFlags(window).dialog ? "cancel" : "finish"
        trace.add(
            .android(.activity(id: activity, method: method, action: action, result: true, rule: rule, touch: touch)))
        change(window, "hidden", \.hidden, to: true, rule: rule, trace: &trace)
    }

    /// AV4: onFilterTouchEventForSecurity: a view that filters touches when obscured drops (returns false for)
    /// every event of a gesture whose window was obscured at the point; a group drops it before its children are
    /// searched. True when `view` dropped the event.
    mutating func androidFiltered(_ view: AndroidView, action: AndroidAction, run: inout AndroidRun, trace: inout Trace)
        -> Bool
    {
        guard view.filterTouchesWhenObscured, android.gesture?.obscured == true else { return false }
        run.offer(view.id, action: action, via: "dispatchTouchEvent", result: false, rule: .av4, trace: &trace)
        return true
    }
}
