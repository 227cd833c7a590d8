import ResponderProtocol

/// K14–K16: cells of a table or collection view handle the touches that reach them and turn them into highlight
/// and selection, telling the view's `delegate` as UIKit does. Whatever keeps the touch from the cell — a control
/// inside it (T3), a recognizer that takes it (G7, G8), the scroll view's pan (K8) — keeps the selection from
/// happening (K16) without anything of its own here.
extension World {
    /// K14: the table (or collection view) cell `id` belongs to: its nearest ancestor of the cell's container
    /// class, up to its window. A cell outside one is a plain view.
    func cellContainer(of id: String) -> String? {
        guard let container = read(id, { $0.pointee.spec.uikitClass?.cellContainer }) ?? nil else { return nil }
        var current = read(id, { $0.pointee.parent }) ?? nil
        while let c = current,
            let (cls, kind, parent) = read(c, { ($0.pointee.spec.uikitClass, $0.pointee.spec.kind, $0.pointee.parent) })
        {
            if cls == container { return c }
            if kind == .window { return nil }
            current = parent
        }
        return nil
    }
}

/// The delegate messages of one container class.
private struct CellMessages {
    let didHighlight, didUnhighlight, didSelect, didDeselect: String

    init(table: Bool) {
        if table {
            didHighlight = "tableView(_:didHighlightRowAt:)"
            didUnhighlight = "tableView(_:didUnhighlightRowAt:)"
            didSelect = "tableView(_:didSelectRowAt:)"
            didDeselect = "tableView(_:didDeselectRowAt:)"
        } else {
            didHighlight = "collectionView(_:didHighlightItemAt:)"
            didUnhighlight = "collectionView(_:didUnhighlightItemAt:)"
            didSelect = "collectionView(_:didSelectItemAt:)"
            didDeselect = "collectionView(_:didDeselectItemAt:)"
        }
    }
}

extension SessionState {
    /// K14: a cell in its table or collection view implements the touch messages itself and stops them there
    /// (the cell uses them for selection; they do not reach its view controller).
    static func cellHandles(_ node: UnsafePointer<Node>, world: World) -> Rule? {
        guard node.pointee.spec.uikitClass?.isCell == true, world.cellContainer(of: node.pointee.spec.id) != nil
        else { return nil }
        return .k14
    }

    /// K14–K16: what a touch phase that reached `cell` does to its highlight and selection.
    mutating func cellTouch(_ cell: String, touch: DeliveredTouch, phase: TouchPhase, trace: inout Trace) {
        guard let container = world.cellContainer(of: cell), let table = world[container]?.spec,
            let node = world[cell]?.spec
        else { return }
        let messages = CellMessages(table: table.uikitClass == .UITableView)
        let tag = EventTag.touch(touch.id)
        switch phase {
        case .began:
            // K14: highlight when selection is allowed and the delegate's shouldHighlight answers true.
            guard table.allowsSelection, node.shouldHighlight else { return }
            change(cell, "highlighted", \.uikit.cell.highlighted, to: true, rule: .k14, trace: &trace)
            tellDelegate(of: container, messages.didHighlight, rule: .k14, tag: tag, trace: &trace)
        case .ended:
            // K15: only a highlighted cell is selected; the highlight goes either way.
            guard node.isHighlighted else { return }
            unhighlight(cell, container, messages, rule: .k15, tag: tag, trace: &trace)
            // K16: a touch that ends outside the cell selects nothing.
            guard let p = localPoint(touch, in: cell), node.bounds.contains(p) else { return }
            // K15: willSelectRowAt answering nil / shouldSelectItemAt answering false.
            guard node.shouldSelect else { return }
            if table.allowsMultipleSelection {
                if node.isSelected {
                    setSelected(cell, false, container, messages.didDeselect, tag: tag, trace: &trace)
                    return
                }
            } else {
                // Single selection: the row selected before is deselected first.
                for other in world.subtree(container)
                where other != cell && world.read(other, { $0.pointee.spec.isSelected }) == true
                    && world.cellContainer(of: other) == container
                {
                    setSelected(other, false, container, messages.didDeselect, tag: tag, trace: &trace)
                }
            }
            setSelected(cell, true, container, messages.didSelect, tag: tag, trace: &trace)
        case .cancelled:
            // K16: a cancelled touch (a scroll, a recognizer that cancels touches) removes the highlight and
            // selects nothing; the selection stays as it was.
            guard node.isHighlighted else { return }
            unhighlight(cell, container, messages, rule: .k16, tag: tag, trace: &trace)
        case .moved, .stationary:
            break
        }
    }

    private mutating func unhighlight(
        _ cell: String, _ container: String, _ messages: CellMessages, rule: Rule, tag: EventTag, trace: inout Trace
    ) {
        change(cell, "highlighted", \.uikit.cell.highlighted, to: false, rule: rule, trace: &trace)
        tellDelegate(of: container, messages.didUnhighlight, rule: rule, tag: tag, trace: &trace)
    }

    private mutating func setSelected(
        _ cell: String, _ selected: Bool, _ container: String, _ message: String, tag: EventTag, trace: inout Trace
    ) {
        change(cell, "selected", \.uikit.cell.selected, to: selected, rule: .k15, trace: &trace)
        tellDelegate(of: container, message, rule: .k15, tag: tag, trace: &trace)
    }

    /// K15: a delegate message goes to the container's `delegate`, which handles it when its `handles` name it.
    /// A container without a delegate node tells no one.
    private func tellDelegate(of container: String, _ message: String, rule: Rule, tag: EventTag, trace: inout Trace) {
        guard let delegate = world.read(container, { $0.pointee.spec.cellDelegate }) ?? nil,
            let handling = world.read(delegate, { $0.pointee.spec.handling(message) })
        else { return }
        trace.add(
            .deliver(
                to: delegate, message: message, disposition: handling == nil ? .notHandled : .handled, rule: rule,
                reason: nil, tag: tag))
    }
}
