import Foundation
import ResponderProtocol

/// One recognizer between the first touch it observes and its reset (G2). A recognizer with no run is
/// idle: possible, observing nothing.
struct GestureRun: Sendable {
    let id: String
    let view: String
    /// The slot `view` was in when the run started: where its recognizer's spec is looked for first
    /// (`World.withRecognizer(_:on:slot:_:)`), a tap asking a dozen times.
    let viewSlot: Int
    let kind: GestureKind
    var state: GestureState = .possible
    /// Live touches it observes (G1), in the order they began.
    var touches: [EventID] = []
    /// Every touch it has observed since its last reset: what G4 and G7 compare and act on.
    var seen: [EventID] = []
    /// Screen points where each live touch began and where it is now, found by touch (their order means
    /// nothing). A recognizer observes a touch or two, so a list is searched where a dictionary would hash the
    /// touch's id at every phase, for each recognizer; and one touch, the usual, is kept in `firstPosition`, with
    /// no list allocated and freed for it.
    private var firstPosition: TouchPosition?
    private var positions: [TouchPosition] = []
    /// When the first touch began (swipe) and when the required touches were all down (long press).
    var firstBegan: Double?
    var downSince: Double?
    /// Tap: taps completed, touches of the tap in progress, and when the last tap ended.
    var tapsDone = 0
    var tapTouches = 0
    var lastTapEnd: Double?
    /// Pinch and rotation: the two touches and their distance and angle when the second began.
    var pair: [EventID] = []
    var initialDistance = 0.0
    var initialAngle = 0.0
    /// K19: a scroll view's pan that reached the threshold only along axes its scroll view cannot scroll.
    var heldByAxes = false
    /// G5: the transition it is holding while required recognizers have not failed.
    var pending: (to: GestureState, reason: GestureReason, rule: Rule)?

    init(id: String, view: String, viewSlot: Int, kind: GestureKind) {
        self.id = id
        self.view = view
        self.viewSlot = viewSlot
        self.kind = kind
    }

    var info: GestureRecognizerInfo {
        GestureRecognizerInfo(recognizer: id, view: view, kind: kind, state: state, touches: touches, waitingFor: [])
    }

    mutating func add(_ touch: EventID, at point: Point) {
        if touches.isEmpty && seen.isEmpty {
            // A run's first touch: both lists are that one touch, so they share one buffer until either changes.
            touches.append(touch)
            seen = touches
        } else {
            touches.append(touch)
            if !seen.contains(touch) { seen.append(touch) }
        }
        let position = TouchPosition(touch: touch, start: point, now: point)
        if firstPosition?.touch == touch {
            firstPosition = position
        } else if let i = positions.firstIndex(where: { $0.touch == touch }) {
            positions[i] = position
        } else if firstPosition == nil {
            firstPosition = position
        } else {
            positions.append(position)
        }
    }

    mutating func remove(_ touch: EventID) {
        if touches.count == 1 && touches[0] == touch {
            // Emptied without writing to a buffer `seen` may share (which would copy it first).
            touches = []
        } else {
            touches.removeAll { $0 == touch }
        }
        if firstPosition?.touch == touch {
            firstPosition = nil
        } else if let i = positions.firstIndex(where: { $0.touch == touch }) {
            positions.remove(at: i)
        }
    }

    /// Where `touch` began and where it is now, when it is live.
    func points(of touch: EventID) -> (start: Point, now: Point)? {
        if let first = firstPosition, first.touch == touch { return (first.start, first.now) }
        return positions.first { $0.touch == touch }.map { ($0.start, $0.now) }
    }

    /// `touch` (live) is now at `point`.
    mutating func move(_ touch: EventID, to point: Point) {
        if firstPosition?.touch == touch {
            firstPosition?.now = point
        } else if let i = positions.firstIndex(where: { $0.touch == touch }) {
            positions[i].now = point
        }
    }

    /// The centroid's movement from where the live touches began.
    var translation: Point {
        guard !touches.isEmpty else { return .zero }
        var dx = 0.0, dy = 0.0
        for t in touches {
            let p = points(of: t)!
            dx += p.now.x - p.start.x
            dy += p.now.y - p.start.y
        }
        return Point(dx / Double(touches.count), dy / Double(touches.count))
    }

    func distance(_ t: EventID) -> Double {
        guard let (a, b) = points(of: t) else { return 0 }
        return hypot(b.x - a.x, b.y - a.y)
    }

    /// Pinch and rotation: the pair's current distance and angle.
    var pairGeometry: (distance: Double, angle: Double)? {
        guard pair.count == 2, let a = points(of: pair[0])?.now, let b = points(of: pair[1])?.now else { return nil }
        return (hypot(b.x - a.x, b.y - a.y), atan2(b.y - a.y, b.x - a.x))
    }
}

/// Where a live touch began and where it is now, in screen coordinates.
struct TouchPosition: Sendable {
    let touch: EventID
    var start: Point
    var now: Point
}

/// The parameters of a recognizer's spec that its kind's state machine reads (section G), taken out of the spec
/// where it is stored: a copy of the whole spec is a retain and a release for each of its strings and arrays, at
/// every phase for every observing recognizer.
struct GestureParameters {
    var numberOfTapsRequired: Int
    var numberOfTouchesRequired: Int
    var minimumPressDuration: Double
    var allowableMovement: Double
    var minimumNumberOfTouches: Int
    var maximumNumberOfTouches: Int?
    /// A swipe's directions as bits (`bit(_:)`); none for the other kinds, which do not read them. Bits, not the
    /// spec's list: the parameters are then a plain value, copied and dropped with no retain or release.
    var directions: UInt8 = 0

    init(_ spec: UnsafePointer<GestureRecognizerSpec>) {
        numberOfTapsRequired = spec.pointee.numberOfTapsRequired
        numberOfTouchesRequired = spec.pointee.numberOfTouchesRequired
        minimumPressDuration = spec.pointee.minimumPressDuration
        allowableMovement = spec.pointee.allowableMovement
        minimumNumberOfTouches = spec.pointee.minimumNumberOfTouches
        maximumNumberOfTouches = spec.pointee.maximumNumberOfTouches
        if spec.pointee.kind == .swipe {
            for d in spec.pointee.direction { directions |= Self.bit(d) }
        }
    }

    /// Whether the swipe recognizes `direction`.
    func allows(_ direction: SwipeDirection) -> Bool { directions & Self.bit(direction) != 0 }

    private static func bit(_ direction: SwipeDirection) -> UInt8 {
        switch direction {
        case .right: 1
        case .left: 2
        case .up: 4
        case .down: 8
        }
    }
}

/// What one input (a touch phase, or time passing) makes a recognizer want to do (G2).
enum GestureDecision: Equatable {
    /// Leave possible: recognize (discrete) or begin (continuous), subject to G4–G6 and G10.
    case recognize(GestureReason, Rule)
    case fail(GestureReason, Rule)
    case change
    case end
    case cancel(GestureReason)
}

/// A recognizer's deadline (G11), before its spec is read.
enum DeadlineBasis {
    case at(Double)
    /// A long press's: its touches were all down at this time.
    case pressedSince(Double)
}

enum GestureInput {
    case began(EventID, Point)
    case moved(EventID, Point)
    case ended(EventID)
    case cancelled(EventID)
}

/// The kinds' own state machines (section G's parameters). Pure: they read the run and the input and say
/// what the recognizer wants; the dispatcher applies it.
extension GestureRun {
    mutating func decide(_ input: GestureInput, spec: GestureParameters, now: Double, profile: Profile)
        -> GestureDecision?
    {
        switch input {
        case .began(let t, let p):
            add(t, at: p)
            if firstBegan == nil { firstBegan = now }
        case .moved(let t, let p):
            move(t, to: p)
        case .ended, .cancelled:
            break
        }
        defer {
            switch input {
            case .ended(let t), .cancelled(let t): remove(t)
            default: break
            }
        }
        if state.isFinal { return nil }
        if case .cancelled = input {
            return state == .possible ? .fail(.touchCancelled, .g2) : .cancel(.touchCancelled)
        }
        switch kind {
        case .tap: return tap(input, spec, now, profile)
        case .longPress: return longPress(input, spec, now)
        case .pan: return pan(input, spec, profile)
        case .swipe: return swipe(input, spec, now, profile)
        case .pinch, .rotation: return twoFinger(input, profile)
        }
    }

    /// G11: when time alone will decide for `run`, if it will: a time, or for a long press, the one kind whose
    /// deadline depends on its spec, the time its touches were all down, to which the spec's press duration adds.
    /// The run is read where it is stored, member by member: a method called on a run in the session's list
    /// copied the whole run first.
    static func deadlineBasis(of run: UnsafePointer<GestureRun>, profile: Profile) -> DeadlineBasis? {
        guard run.pointee.state == .possible, run.pointee.pending == nil else { return nil }
        switch run.pointee.kind {
        case .tap:
            guard run.pointee.touches.isEmpty, run.pointee.tapsDone > 0, let end = run.pointee.lastTapEnd else {
                return nil
            }
            return .at(end + profile.tapInterval)
        case .longPress:
            return run.pointee.downSince.map { .pressedSince($0) }
        case .swipe:
            return run.pointee.firstBegan.map { .at($0 + profile.swipeDuration) }
        case .pan, .pinch, .rotation:
            return nil
        }
    }

    /// G11: what the recognizer does when its deadline passes.
    func timeout() -> GestureDecision {
        switch kind {
        case .longPress: return .recognize(.durationElapsed, .g11)
        case .swipe: return .fail(.tooSlow, .g11)
        default: return .fail(.timedOut, .g11)
        }
    }

    private mutating func tap(_ input: GestureInput, _ spec: GestureParameters, _ now: Double, _ profile: Profile)
        -> GestureDecision?
    {
        guard state == .possible else { return nil }
        switch input {
        case .began:
            tapTouches += 1
            if touches.count > spec.numberOfTouchesRequired { return .fail(.tooManyTouches, .g2) }
            return nil
        case .moved(let t, _):
            return distance(t) > profile.tapSlop ? .fail(.movedTooFar, .g2) : nil
        case .ended:
            // Still down: this touch (removed after deciding) and the others.
            guard touches.count == 1 else { return nil }
            if tapTouches < spec.numberOfTouchesRequired { return .fail(.tooFewTouches, .g2) }
            tapsDone += 1
            tapTouches = 0
            if tapsDone >= spec.numberOfTapsRequired { return .recognize(.tapsCompleted, .g2) }
            lastTapEnd = now
            return nil
        case .cancelled:
            return nil
        }
    }

    private mutating func longPress(_ input: GestureInput, _ spec: GestureParameters, _ now: Double)
        -> GestureDecision?
    {
        switch (input, state) {
        case (.began, .possible):
            if touches.count > spec.numberOfTouchesRequired { return .fail(.tooManyTouches, .g2) }
            if touches.count == spec.numberOfTouchesRequired { downSince = now }
            return nil
        case (.moved(let t, _), .possible):
            return distance(t) > spec.allowableMovement ? .fail(.movedTooFar, .g2) : nil
        case (.moved, _):
            return .change
        case (.ended, .possible):
            return .fail(.releasedEarly, .g2)
        case (.ended, _):
            return .end
        default:
            return nil
        }
    }

    private mutating func pan(_ input: GestureInput, _ spec: GestureParameters, _ profile: Profile)
        -> GestureDecision?
    {
        switch (input, state) {
        case (.began, .possible):
            if let maximum = spec.maximumNumberOfTouches, touches.count > maximum { return .fail(.tooManyTouches, .g2) }
            return nil
        case (.moved, .possible):
            guard touches.count >= spec.minimumNumberOfTouches else { return nil }
            // The threshold is per axis (K19): x or y alone reaching it, not the straight-line distance.
            let d = translation
            return max(abs(d.x), abs(d.y)) >= profile.panThreshold ? .recognize(.threshold, .g2) : nil
        case (.moved, _):
            return .change
        case (.ended, .possible):
            return touches.count == 1 ? .fail(.endedBeforeThreshold, .g2) : nil
        case (.ended, _):
            return touches.count - 1 < spec.minimumNumberOfTouches ? .end : nil
        default:
            return nil
        }
    }

    private mutating func swipe(_ input: GestureInput, _ spec: GestureParameters, _ now: Double, _ profile: Profile)
        -> GestureDecision?
    {
        guard state == .possible else { return nil }
        switch input {
        case .began:
            return touches.count > spec.numberOfTouchesRequired ? .fail(.tooManyTouches, .g2) : nil
        case .moved:
            if let start = firstBegan, now - start > profile.swipeDuration { return .fail(.tooSlow, .g11) }
            let d = translation
            guard hypot(d.x, d.y) >= profile.swipeDistance else { return nil }
            let direction: SwipeDirection =
                abs(d.x) >= abs(d.y) ? (d.x >= 0 ? .right : .left) : (d.y >= 0 ? .down : .up)
            guard spec.allows(direction) else { return .fail(.wrongDirection, .g2) }
            return touches.count == spec.numberOfTouchesRequired ? .recognize(.swiped, .g2) : .fail(.tooFewTouches, .g2)
        case .ended:
            return .fail(.endedBeforeThreshold, .g2)
        case .cancelled:
            return nil
        }
    }

    private mutating func twoFinger(_ input: GestureInput, _ profile: Profile) -> GestureDecision? {
        switch (input, state) {
        case (.began(let t, _), .possible):
            if pair.count < 2 {
                pair.append(t)
                if let g = pairGeometry {
                    initialDistance = g.distance
                    initialAngle = g.angle
                }
            }
            return nil
        case (.moved(let t, _), _):
            guard pair.contains(t), let g = pairGeometry else { return nil }
            if state != .possible { return .change }
            if kind == .pinch {
                guard initialDistance > 0 else { return nil }
                return abs(g.distance / initialDistance - 1) > profile.pinchThreshold
                    ? .recognize(.threshold, .g2) : nil
            }
            var delta = g.angle - initialAngle
            while delta > Double.pi { delta -= 2 * Double.pi }
            while delta <= -Double.pi { delta += 2 * Double.pi }
            return abs(delta) > profile.rotationThreshold ? .recognize(.threshold, .g2) : nil
        case (.ended(let t), .possible):
            guard pair.contains(t) || touches.count == 1 else { return nil }
            pair.removeAll { $0 == t }
            return .fail(.endedBeforeThreshold, .g2)
        case (.ended(let t), _):
            guard pair.contains(t) else { return nil }
            pair.removeAll { $0 == t }
            return .end
        default:
            return nil
        }
    }
}
