import ResponderProtocol

/// The live state of one pointer of an `android` session's gesture: who holds it (the touch targets), the
/// pressed view and its pending checks. Kept in the session beside UIKit's, and like it not durable: a restarted
/// engine has no finger down.
struct AndroidGesture: Sendable {
    var touch: EventID
    var client: String
    var window: String
    /// The Activity (the window's root view controller), if the window has one (AR3).
    var activity: String?
    /// The touch targets from the DecorView down: each group's target is the next id; the last one handles the
    /// gesture itself (a leaf, or a group no child took the DOWN from, AD7, AD10). Empty when nobody consumed
    /// the DOWN: the DecorView then handles the rest itself (AD10), through the Activity (AR4).
    var chain: [String] = []
    /// Where the DOWN was, in window coordinates: the slop tests of AS1, AS7, AC6 measure from it.
    var downPoint: Point
    var point: Point
    /// The point of the event before, for the movement since the last event (AS2).
    var lastPoint: Point
    /// AS2: where a dragging scroll view measures its next scroll from (set where it started dragging, so the
    /// movement before the crossing is not scrolled).
    var scrollFrom: Point?
    /// How many events of the gesture each group's interception has seen (`atEvent`), the DOWN as 1.
    var events = 1
    var downTime: Double
    /// AV4: a visible window that did not take the touch lay over the point at the DOWN
    /// (FLAG_WINDOW_IS_OBSCURED).
    var obscured = false
    /// AC5–AC9: the view holding the press (the handler, or its touch delegate's delegate).
    var pressView: String?
    var prepressed = false
    var pressed = false
    /// AC5: when a prepressed view shows pressed.
    var tapCheck: Double?
    /// AC9: when a long-clickable view's long click fires.
    var longPressCheck: Double?
    var longPressPerformed = false
    /// AC14: the long-press check of a view that is not clickable but has a tooltip, which runs without a press.
    var longPressUnpressed = false
    /// AC11: the delegate a touch delegate is sending the gesture to.
    var delegate: String?
    /// AC6–AC8: the press is over (left, released or cancelled): no pressed state, no check pending.
    mutating func unpress() {
        pressed = false
        prepressed = false
        tapCheck = nil
        longPressCheck = nil
        longPressUnpressed = false
    }

    /// AM4: `other`'s press, which this finger, still on the view, now holds.
    mutating func takePress(from other: AndroidGesture) {
        pressView = other.pressView
        pressed = other.pressed
        prepressed = other.prepressed
        tapCheck = other.tapCheck
        longPressCheck = other.longPressCheck
        longPressPerformed = other.longPressPerformed
        longPressUnpressed = other.longPressUnpressed
    }

    /// AI5, AS7: the handler has asked its parents not to intercept (once a gesture); for a SeekBar, that it
    /// is dragging.
    var claimed = false
}

/// AS5: `child` scrolls along `axis` first and hands what it cannot consume to `parent`.
struct AndroidNestedScroll: Sendable {
    var child: String
    var parent: String
    var axis: AndroidFields.Axis
}

/// A key held down (AK7): who pressed it, which key, and the window it went to.
struct AndroidKeyPress: Sendable {
    var client: String
    var key: String
    var window: String?
}

struct AndroidLive: Sendable {
    /// The pointers down, in the order they went down (AM2's "least recently added target" is the first).
    var pointers: [AndroidGesture] = []
    /// Which pointer the input being carried out is about.
    var active: Int?
    /// AI5, AI6: the groups that were asked not to intercept, for the rest of the gesture (all its pointers).
    var disallowed: Set<String> = []
    /// AL2: the targets that became temporarily detached (PFLAG_CANCEL_NEXT_UP_EVENT): their next event is a
    /// CANCEL. Ends with the gesture.
    var cancelNext: Set<String> = []
    /// AS5: the nested scrolls started in this gesture, each a view and the ancestor that accepted it, in the order
    /// they started. One lasts while its view is a target (AV5: a CANCEL, an UP or the gesture's end stops it).
    var nested: [AndroidNestedScroll] = []
    /// AR1: touches whose DOWN found no window to take it, each with the client that sent it: their later events
    /// are discarded the same way until they end.
    var windowless: [EventID: String] = [:]

    /// The pointer the input being carried out is about; set to nil when it ends. Set while no pointer is
    /// active, it is a new pointer, added last.
    var gesture: AndroidGesture? {
        get { active.flatMap { $0 < pointers.count ? pointers[$0] : nil } }
        set {
            guard let i = active, i < pointers.count else {
                if let g = newValue {
                    pointers.append(g)
                    active = pointers.count - 1
                }
                return
            }
            if let g = newValue {
                pointers[i] = g
            } else {
                pointers.remove(at: i)
                active = nil
                if pointers.isEmpty {  // AD12, AI6: the gesture is over
                    disallowed = []
                    cancelNext = []
                    nested = []
                }
            }
        }
    }

    /// Makes the pointer of `touch` the active one; false when no such pointer is down.
    mutating func activate(_ touch: EventID) -> Bool {
        active = pointers.firstIndex { $0.touch == touch }
        return active != nil
    }
    var presses: [EventID: AndroidKeyPress] = [:]
    /// AK4: touch mode, entered by a touch and left by a navigation or typing key; a session starts in it.
    var touchMode = true
    /// AK10: the BACK press the Activity's onKeyDown started tracking.
    var backTracking: EventID?
    /// AK9: the view a confirm key pressed.
    var keyPressed: String?
}
