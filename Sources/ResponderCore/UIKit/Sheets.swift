import ResponderProtocol

/// K17, K18: the dimming view a sheet or a popover puts over the rest of its window.
///
/// The dimming view is a derived node: UIKit makes it (UIDimmingView) for the presentation, the app never adds
/// it, so it is not in `tree` and cannot be changed or removed by an op. It exists exactly while a presentation
/// that dims is in an attached window, with the id `<controller>.dimming`, covers the whole window, and sits
/// directly behind the presented controller's root view. Hit-testing asks it like a view (its `hitTest` visit),
/// touches name it as their hit view, and `whyNot` names it as the culprit.
struct Dimming: Sendable, Equatable {
    /// The presented controller.
    var controller: String
    /// The presented controller's root view, which the dimming view sits behind.
    var rootView: String
    /// K17 (a sheet, or a popover shown as a form sheet) or K18 (a popover).
    var rule: Rule
    /// K17: whether it is at a dimmed detent; false: only isModalInPresentation keeps touches out.
    var dimmed: Bool
    /// K18: the popover's passthrough views.
    var passthroughViews: [String]

    static let suffix = ".dimming"
    var id: String { controller + Self.suffix }
}

extension World {
    /// The dimming views of window `window`, in the order of its children.
    func dimmings(in window: String) -> [Dimming] {
        guard !presented.isEmpty,
            let (children, sizeClass) = read(
                window,
                {
                    ($0.pointee.children, $0.pointee.spec.horizontalSizeClass)
                })
        else { return [] }
        var out: [Dimming] = []
        for child in children {
            if let d = dimming(of: child, sizeClass: sizeClass) { out.append(d) }
        }
        return out
    }

    /// The dimming view of presented controller `vc` (a child of a window with `sizeClass`), if it has one.
    private func dimming(of vc: String, sizeClass: SizeClass) -> Dimming? {
        guard let node = nodes[vc], node.kind == .viewController, node.presentedBy != nil, presentsFromRoot(vc),
            let root = node.children.first, nodes[root]?.kind.isSubviewKind == true
        else { return nil }
        let spec = node.spec
        var style = spec.presentationStyle
        // K18: a popover in a horizontally compact environment is shown as a form sheet (iOS 13+).
        if style == .popover && sizeClass == .compact { style = .formSheet }
        switch style {
        case .pageSheet, .formSheet:
            // K17: every detent is dimmed unless largestUndimmedDetent reaches the current one.
            let dimmed = spec.largestUndimmedDetent.map { spec.sheetDetent > $0 } ?? true
            guard dimmed || spec.isModalInPresentation else { return nil }
            return Dimming(controller: vc, rootView: root, rule: .k17, dimmed: dimmed, passthroughViews: [])
        case .popover:
            return Dimming(
                controller: vc, rootView: root, rule: .k18, dimmed: true, passthroughViews: spec.passthroughViews)
        default:
            return nil
        }
    }

    /// Whether `vc`'s presenters lead to a controller that is not presented: a `presentedBy` cycle (N4) shows
    /// nothing UIKit could show, so it dims nothing.
    private func presentsFromRoot(_ vc: String) -> Bool {
        var seen: Set<String> = [vc]
        var current = nodes[vc]?.presentedBy
        while let c = current {
            guard seen.insert(c).inserted, nodes[c]?.kind == .viewController else { return false }
            current = nodes[c]?.presentedBy
        }
        return true
    }

    /// The dimming view `id` names (`<controller>.dimming`), while its presentation dims.
    func dimming(named id: String) -> Dimming? {
        guard id.hasSuffix(Dimming.suffix), !presented.isEmpty else { return nil }
        let vc = String(id.dropLast(Dimming.suffix.count))
        guard let window = nodes[vc]?.parent, nodes[window]?.kind == .window else { return nil }
        return dimmings(in: window).first { $0.controller == vc }
    }

    /// A window's subviews in presentation order (K9) with each dimming view directly behind its presented
    /// root view.
    func withDimmings(_ subviews: [String], _ dimmings: [Dimming]) -> [String] {
        guard !dimmings.isEmpty else { return subviews }
        var out: [String] = []
        out.reserveCapacity(subviews.count + dimmings.count)
        for v in subviews {
            if let d = dimmings.first(where: { $0.rootView == v }) { out.append(d.id) }
            out.append(v)
        }
        return out
    }

    /// K18: the passthrough view of `dimming` that holds window point `p`, if any.
    func passthroughView(of dimming: Dimming, at p: Point, window: String) -> String? {
        dimming.passthroughViews.first { id in
            guard self.window(of: id) == window, let local = convert(p, fromWindow: window, to: id),
                let bounds = read(id, { $0.pointee.spec.bounds })
            else { return false }
            return bounds.contains(local)
        }
    }
}

extension SessionState {
    /// K17, K18: a tap on the dimming view (its own tap recognizer, recognized at touch-up) — a dismissal
    /// attempt for a popover, and for a sheet as `sheetDimmingTap` says. The attempt asks isModalInPresentation,
    /// then the delegate's presentationControllerShouldDismiss; the answers are the trace's `check` steps. A
    /// dismissal that nothing refuses takes the controller out of its window when the request ends
    /// (`dismissPresented`).
    mutating func dimmingTapped(_ dimming: Dimming, trace: inout Trace) {
        guard let spec = world[dimming.controller]?.spec else { return }
        if dimming.rule == .k17 {
            guard dimming.dimmed else { return }  // only isModalInPresentation keeps touches out: no recognizer
            switch profile.sheetDimmingTap {
            case .ignore: return
            case .byDetent: guard spec.sheetDetent < .large else { return }
            case .dismiss: break
            }
        }
        trace.add(
            .check(
                id: dimming.controller, check: .isModalInPresentation, value: spec.isModalInPresentation,
                rule: dimming.rule))
        guard !spec.isModalInPresentation else { return }
        trace.add(
            .check(
                id: dimming.controller, check: .presentationControllerShouldDismiss, value: spec.shouldDismiss,
                rule: dimming.rule))
        if spec.shouldDismiss, !dismissals.contains(dimming.controller) { dismissals.append(dimming.controller) }
    }

    /// K17, K18: UIKit dismisses the presentation itself: the controller and its views leave the window. The
    /// engine ends the presentation (`presentedBy` reset) and moves the controller to the detached subtrees (it
    /// stays inspectable; presenting it again is an app's insert or move), in one batch that takes the request's
    /// revision; its consequences — a
    /// first responder inside resigned by force (F6), live touches on its views cancelled (T6) — join the
    /// request's trace. The ops open the request's `dispatch` tree event, before any field change.
    mutating func dismissPresented(trace: inout Trace) {
        guard !dismissals.isEmpty else { return }
        // A presented controller must sit under a window: it stops being presented, then leaves.
        var ops: [GuardedOp] = []
        for id in dismissals where world.contains(id) {
            var unpresent = NodeUpdate()
            unpresent.set("presentedBy", \NodeSpec.presentedBy, String??.none)
            ops.append(GuardedOp(.update(id: id, set: unpresent)))
            ops.append(GuardedOp(.move(id: id, parent: nil, index: nil)))
        }
        dismissals = []
        guard !ops.isEmpty, let change = try? apply(ops, ifRevision: nil, limits: Limits()) else { return }
        committedChanges += ops
        revisionTaken = true
        if let consequences = change.consequences {
            for step in consequences.trace.steps { trace.add(step) }
        }
    }
}

extension Point {
    /// Whether `other` lies more than `distance` away.
    func isFarther(than distance: Double, from other: Point) -> Bool {
        let dx = other.x - x, dy = other.y - y
        return dx * dx + dy * dy > distance * distance
    }
}
