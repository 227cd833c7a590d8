import ResponderProtocol

/// K8: UIScrollView (and UITableView, UICollectionView, UITextView) has a built-in pan recognizer, `<id>.pan`,
/// that takes part in dispatch like any recognizer (G1–G11), plus what a scroll view does with it:
/// delaysContentTouches, canCancelContentTouches / touchesShouldCancel(in:), and scrolling.
extension World {
    /// The scroll view's own pan (UIScrollView.panGestureRecognizer): enabled with `scrollEnabled`; its
    /// delaysTouchesBegan is `delaysContentTouches`, limited to the profile's `scrollDelay`. G12: its delegate is
    /// the scroll view, so its delegate answers and the recognizers it requires to fail are the scroll view's.
    func builtInPan(of id: String) -> GestureRecognizerSpec? {
        // Read in place: every view a touch passes asks this, and almost none is a scroll view.
        guard
            let (enabled, delays, scroll) = read(
                id,
                {
                    $0.pointee.spec.uikitClass?.isScrollView == true
                        ? (
                            $0.pointee.spec.scrollEnabled, $0.pointee.spec.delaysContentTouches,
                            $0.pointee.spec.uikit.scroll
                        ) : nil
                }) ?? nil
        else { return nil }
        var spec = GestureRecognizerSpec(id: id + ".pan", kind: .pan)
        spec.enabled = enabled
        spec.delaysTouchesBegan = delays
        if let required = scroll.panRequireToFail { spec.requireToFail = required }
        if let delegate = scroll.panDelegate {
            spec.shouldBegin = delegate.shouldBegin
            spec.shouldReceiveTouch = delegate.shouldReceiveTouch
            spec.simultaneousWith = delegate.simultaneousWith
        }
        return spec
    }

    /// The scroll view whose built-in pan `recognizer` is, if it is one.
    func builtInPanOwner(_ recognizer: String) -> String? {
        // The suffix first: it rules out most recognizers without hashing their ids.
        guard recognizer.hasSuffix(".pan"), recognizerOwners[recognizer] == nil else { return nil }
        let owner = String(recognizer.dropLast(4))
        return builtInPan(of: owner) == nil ? nil : owner
    }

    /// G1: a view's recognizers in attachment order — a scroll view's pan first (UIKit adds it at init).
    func attachedRecognizers(of id: String) -> [GestureRecognizerSpec] {
        guard let attached = read(id, { $0.pointee.spec.gestureRecognizers }) else { return [] }
        guard let pan = builtInPan(of: id) else { return attached }
        return [pan] + attached
    }

    /// Every scroll view's built-in pan, for the session's recognizer list (12.8).
    var builtInPans: [(view: String, spec: GestureRecognizerSpec)] {
        nodes.keys.compactMap { id in builtInPan(of: id).map { (id, $0) } }
    }
}

extension SessionState {
    /// K8 delaysContentTouches: the scroll view holds began and moved back only for `scrollDelay` after the
    /// touch began (then they go to the content while the pan is still possible).
    func scrollDelayOver(_ recognizer: String, touchBeganAt beganAt: Double) -> Bool {
        world.builtInPanOwner(recognizer) != nil && clock >= beganAt + profile.scrollDelay - Self.timeTolerance
    }

    /// K19: a scroll view's pan that reached the threshold asks its scroll view about each axis that did; it begins
    /// only along an axis the scroll view can scroll. Otherwise it stays possible (it may begin later, along a
    /// scrollable axis) and, held so, fails when its touch ends. Other decisions pass unchanged.
    mutating func scrollAxesDecide(_ decision: GestureDecision, run i: Int, trace: inout Trace) -> GestureDecision? {
        switch decision {
        case .recognize(.threshold, _):
            guard let scroll = world.builtInPanOwner(runs[i].id), let node = world[scroll]?.spec else {
                return decision
            }
            let t = runs[i].translation
            let horizontal = abs(t.x) >= profile.panThreshold && node.scrollsHorizontally
            let vertical = abs(t.y) >= profile.panThreshold && node.scrollsVertically
            if horizontal || vertical { return decision }
            if !runs[i].heldByAxes {
                runs[i].heldByAxes = true
                let axes = [(abs(t.x), "horizontal"), (abs(t.y), "vertical")].filter {
                    $0.0 >= profile.panThreshold
                }.map(\.1)
                trace.add(.scrollAxis(recognizer: runs[i].id, scrollView: scroll, axes: axes))
            }
            return nil
        case .fail(.endedBeforeThreshold, _) where runs[i].heldByAxes:
            return .fail(.cannotScroll, .k19)
        default:
            return decision
        }
    }

    /// K8 canCancelContentTouches: a pan that would begin while content tracks one of its touches may do so
    /// only if the scroll view can cancel content touches and touchesShouldCancel(in:) is true — UIKit's answer
    /// is false for a UIControl, which keeps its touch (the pan fails); a subclass's override (`touchesShouldCancel`)
    /// answers true or false for every view.
    func contentKeepsTouch(run i: Int) -> (reason: GestureReason, by: String)? {
        guard let scroll = world.builtInPanOwner(runs[i].id), let node = world[scroll] else { return nil }
        for id in runs[i].seen {
            guard let t = touches.first(where: { $0.id == id }), let view = t.view, t.viewGot, t.withheld == nil else {
                continue
            }
            if !node.spec.canCancelContentTouches { return (.contentTracking, view) }
            switch node.spec.touchesShouldCancel {
            case .always: continue
            case .never: return (.touchesShouldCancelFalse, view)
            case .default: break
            }
            if let control = tracking[id]?.control
                ?? (world.read(view, { $0.pointee.spec.kind.isControl }) == true ? view : nil)
            {
                return (.controlKeepsTouch, control)
            }
        }
        return nil
    }

    /// K8: while the pan has begun, the content offset follows it: the offset when it began minus the pan's
    /// translation, clamped to [0, contentSize − bounds size]; published as a change of `boundsOrigin`.
    mutating func scrollFollows(_ recognizer: String, trace: inout Trace) {
        guard let scroll = world.builtInPanOwner(recognizer), let i = runIndex(recognizer),
            let node = world[scroll]?.spec
        else { return }
        switch runs[i].state {
        case .began:
            scrollStarts[recognizer] = node.boundsOrigin
        case .changed:
            break
        case .ended:
            scrollStarts[recognizer] = nil
            settleOnPage(scroll, trace: &trace)
            return
        default:
            scrollStarts[recognizer] = nil
            return
        }
        guard let start = scrollStarts[recognizer] else { return }
        let t = runs[i].translation
        let size = node.contentSize
        let x = min(max(start.x - t.x, 0), max(size[0] - node.frame.width, 0))
        let y = min(max(start.y - t.y, 0), max(size[1] - node.frame.height, 0))
        change(scroll, "boundsOrigin", \.boundsOrigin, to: Point(x, y), rule: .k8, trace: &trace)
    }

    /// K21: with pagingEnabled, the offset at lift moves to the nearest multiple of the bounds size on each axis,
    /// clamped to [0, contentSize − bounds size] — a change after touch-up. (UIKit also weighs the release
    /// velocity; the engine does not model it.)
    mutating func settleOnPage(_ scroll: String, trace: inout Trace) {
        guard let node = world[scroll]?.spec, node.pagingEnabled else { return }
        func page(_ offset: Double, _ bounds: Double, _ content: Double) -> Double {
            guard bounds > 0 else { return offset }
            return min(max((offset / bounds).rounded() * bounds, 0), max(content - bounds, 0))
        }
        let size = node.contentSize
        let settled = Point(
            page(node.boundsOrigin.x, node.frame.width, size[0]), page(node.boundsOrigin.y, node.frame.height, size[1]))
        change(scroll, "boundsOrigin", \.boundsOrigin, to: settled, rule: .k21, trace: &trace)
    }

    /// K20: a scroll view with scrolling enabled handles the touch messages of touches on its own area (not on a
    /// subview) and stops them there: they do not reach its superview or view controller. Disabled, it forwards
    /// them (T2). Its own `handles` override comes first, as for any class (ChainDelivery).
    static func scrollViewHandles(_ node: UnsafePointer<Node>, touchView: String) -> Rule? {
        let spec = node.pointee.spec
        guard spec.uikitClass?.isScrollView == true, spec.scrollEnabled, spec.id == touchView else { return nil }
        return .k20
    }
}
