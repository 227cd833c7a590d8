import ResponderProtocol

/// K8: UIScrollView (and UITableView, UICollectionView, UITextView) has a built-in pan recognizer, `<id>.pan`,
/// that takes part in dispatch like any recognizer (G1–G11), plus what a scroll view does with it:
/// delaysContentTouches, canCancelContentTouches / touchesShouldCancel(in:), and scrolling.
extension World {
    /// The scroll view's own pan (UIScrollView.panGestureRecognizer): enabled with `scrollEnabled`; its
    /// delaysTouchesBegan is `delaysContentTouches`, limited to the profile's `scrollDelay`.
    func builtInPan(of id: String) -> GestureRecognizerSpec? {
        // Read in place: every view a touch passes asks this, and almost none is a scroll view.
        guard
            let (enabled, delays) = read(
                id,
                {
                    $0.pointee.spec.uikitClass?.isScrollView == true
                        ? ($0.pointee.spec.scrollEnabled, $0.pointee.spec.delaysContentTouches) : nil
                }) ?? nil
        else { return nil }
        var spec = GestureRecognizerSpec(id: id + ".pan", kind: .pan)
        spec.enabled = enabled
        spec.delaysTouchesBegan = delays
        return spec
    }

    /// The scroll view whose built-in pan `recognizer` is, if it is one.
    func builtInPanOwner(_ recognizer: String) -> String? {
        guard recognizerOwners[recognizer] == nil, recognizer.hasSuffix(".pan") else { return nil }
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
    func scrollDelayOver(_ recognizer: String, touch: LiveTouch) -> Bool {
        world.builtInPanOwner(recognizer) != nil && clock >= touch.beganAt + profile.scrollDelay - Self.timeTolerance
    }

    /// K8: a scroll view whose content fits within its bounds on both axes has nothing to scroll, and its pan does
    /// not begin (UIScrollView's alwaysBounceVertical/Horizontal are false by default): the drag is its content's.
    func cannotScroll(_ run: GestureRun) -> Bool {
        guard let scroll = world.builtInPanOwner(run.id), let node = world[scroll]?.spec else { return false }
        return node.contentSize[0] <= node.frame.width && node.contentSize[1] <= node.frame.height
    }

    /// K8 canCancelContentTouches: a pan that would begin while content tracks one of its touches may do so
    /// only if the scroll view can cancel content touches and touchesShouldCancel(in:) is true — false for a
    /// UIControl, which keeps its touch (the pan fails).
    func contentKeepsTouch(_ run: GestureRun) -> (reason: GestureReason, by: String)? {
        guard let scroll = world.builtInPanOwner(run.id), let node = world[scroll] else { return nil }
        for id in run.seen {
            guard let t = touches.first(where: { $0.id == id }), let view = t.view, t.viewGot, t.withheld == nil else {
                continue
            }
            if !node.spec.canCancelContentTouches { return (.contentTracking, view) }
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
}
