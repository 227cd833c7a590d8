import ResponderProtocol

/// `whyNot`'s touch question for views whose tap is for something: a cell's tap is for its selection (K14–K16,
/// the "didSelectRowAt is not called" question), a text field's for its editing (K11). Once the tap reaches the
/// view, these say why what it is for would still not happen, as one named cause. The tap is the dispatch's own,
/// run on a copy (`dryTap`); the delegate's answers are the node fields the dispatch reads.
extension SessionState {
    /// The cause that keeps a tap at `point`, which reaches view `id`, from selecting it (a cell) or from making
    /// it begin editing (a text field or view); empty when it does, or when the view is neither.
    func tapPurposeCauses(_ id: String, at point: Point) -> [WhyNotCause] {
        if world.cellContainer(of: id) != nil { return selectionCauses(id) }
        guard isTextInput(id), let window = world.window(of: id), firstResponderByWindow[window] != id,
            let (copy, _, _, _) = dryTap(at: point), copy.firstResponderByWindow[window] != id
        else { return [] }
        // F5 with K11: the tap asks becomeFirstResponder, which is what refuses.
        return becomeCauses(id)
    }

    /// K14: a tap at `point` on a view inside cell `cell` (the hit-test view) that reaches the cell up the
    /// responder chain is the cell's; one a control inside takes is not (K16 a). Nil when neither: the
    /// hit-test view keeps the touch for itself, and the touch answer stands.
    func cellTapThroughSubview(_ cell: String, at point: Point) -> [WhyNotCause]? {
        guard let (_, steps, touch, _) = dryTap(at: point) else { return nil }
        let reached = steps.contains { step in
            if case .deliver(let to, let message, _, _, _, .touch(touch)?) = step {
                return to == cell && message == TouchPhase.began.message
            }
            return false
        }
        if reached {
            let kept = tapFate(of: cell, at: point)
            return kept.isEmpty ? selectionCauses(cell) : kept
        }
        guard let control = controlInCell(cell, steps: steps, touch: touch) else { return nil }
        return [
            WhyNotCause(
                rule: .k16, reason: .controlInCell, culprit: control,
                detail: "\(control), a control inside \(cell), takes the touch and handles it itself (T3): \(cell) "
                    + "is neither highlighted nor selected, so \(selectMessage(cell)) is not called.")
        ]
    }

    /// K16 (a): the control between the touch's hit-test view and `cell` (the hit-test view first) that tracked
    /// the touch.
    private func controlInCell(_ cell: String, steps: [TraceStep], touch: EventID) -> String? {
        var hitView: String?
        for step in steps {
            if case .deliver(let to, let message, _, _, _, .touch(touch)?) = step, message == TouchPhase.began.message {
                hitView = to
                break
            }
        }
        var current = hitView
        while let c = current, c != cell {
            guard let (kind, parent) = world.read(c, { ($0.pointee.spec.kind, $0.pointee.parent) }) else { break }
            if kind == .control || kind == .textField || kind == .textView { return c }
            current = parent
        }
        return nil
    }

    /// K14–K16 for a cell that gets a tap's began and ended: why the tap does not select it, in the order the
    /// cell's touch handling asks (`cellTouch`); empty when it does.
    func selectionCauses(_ cell: String) -> [WhyNotCause] {
        guard let container = world.cellContainer(of: cell), let table = world[container]?.spec,
            let node = world[cell]?.spec
        else { return [] }
        let didSelect = selectMessage(cell)
        // The delegate answers shouldHighlight and willSelect; without a delegate node the table is to blame.
        let answerer = table.cellDelegate ?? container
        let isTable = table.uikitClass == .UITableView
        if !table.allowsSelection {
            return [
                WhyNotCause(
                    rule: .k14, reason: .selectionDisallowed, culprit: container,
                    detail: "\(container)'s allowsSelection is false: \(cell) gets the touch but is neither "
                        + "highlighted nor selected, so \(didSelect) is not called.")
            ]
        }
        if !node.shouldHighlight {
            let asked = isTable ? "tableView(_:shouldHighlightRowAt:)" : "collectionView(_:shouldHighlightItemAt:)"
            return [
                WhyNotCause(
                    rule: .k14, reason: .highlightRefused, culprit: answerer,
                    detail: "\(asked) answers false for \(cell): it is not highlighted when the touch comes down, "
                        + "and a cell that is not highlighted is not selected, so \(didSelect) is not called.")
            ]
        }
        if !node.shouldSelect {
            let asked =
                isTable
                ? "tableView(_:willSelectRowAt:) answers nil" : "collectionView(_:shouldSelectItemAt:) answers false"
            return [
                WhyNotCause(
                    rule: .k15, reason: .selectionRefused, culprit: answerer,
                    detail: "\(asked) for \(cell) at touch-up, so it is not selected and \(didSelect) is not called.")
            ]
        }
        if table.allowsMultipleSelection, node.isSelected {
            let didDeselect = isTable ? "tableView(_:didDeselectRowAt:)" : "collectionView(_:didDeselectItemAt:)"
            return [
                WhyNotCause(
                    rule: .k15, reason: .deselects, culprit: cell,
                    detail: "\(cell) is selected and \(container) allows multiple selection: a tap deselects it "
                        + "(\(didDeselect)) instead of selecting it.")
            ]
        }
        return []
    }

    /// The delegate message a selection of `cell` sends.
    func selectMessage(_ cell: String) -> String {
        let container = world.cellContainer(of: cell)
        let isTable = container.flatMap { world[$0]?.spec.uikitClass } == .UITableView
        return isTable ? "tableView(_:didSelectRowAt:)" : "collectionView(_:didSelectItemAt:)"
    }
}
