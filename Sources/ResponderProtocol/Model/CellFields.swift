import ResponderJSON

/// K14–K16: the fields of table and collection views and of their cells (8.6). A table's or collection view's
/// `allowsSelection`, `allowsMultipleSelection` and `delegate` (the node that gets the delegate's messages); a
/// cell's `selected` and `highlighted` state, and the delegate's answers for the cell's row or item, declared on
/// the cell because the engine cannot run the app's delegate: `shouldHighlight`
/// (tableView(_:shouldHighlightRowAt:) / collectionView(_:shouldHighlightItemAt:)) and `shouldSelect`
/// (tableView(_:willSelectRowAt:) answering nil / collectionView(_:shouldSelectItemAt:)).
public struct CellFields: Sendable, Equatable {
    public var allowsSelection: Bool?
    public var allowsMultipleSelection: Bool?
    public var delegate: String?
    public var selected: Bool?
    public var highlighted: Bool?
    public var shouldHighlight: Bool?
    public var shouldSelect: Bool?

    public init() {}

    static let containerNames = ["allowsSelection", "allowsMultipleSelection", "delegate"]
    static let cellNames = ["selected", "highlighted", "shouldHighlight", "shouldSelect"]
    static let names = containerNames + cellNames

    var setsField: Bool {
        allowsSelection != nil || allowsMultipleSelection != nil || delegate != nil || selected != nil
            || highlighted != nil || shouldHighlight != nil || shouldSelect != nil
    }

    func isSet(_ name: String) -> Bool {
        switch name {
        case "allowsSelection": return allowsSelection != nil
        case "allowsMultipleSelection": return allowsMultipleSelection != nil
        case "delegate": return delegate != nil
        case "selected": return selected != nil
        case "highlighted": return highlighted != nil
        case "shouldHighlight": return shouldHighlight != nil
        case "shouldSelect": return shouldSelect != nil
        default: return false
        }
    }
}

extension UIKitClass {
    /// K14: a cell of a table or a collection view.
    public var isCell: Bool { self == .UITableViewCell || self == .UICollectionViewCell }

    /// K14: the class of the view whose cells a cell of this class are.
    public var cellContainer: UIKitClass? {
        switch self {
        case .UITableViewCell: return .UITableView
        case .UICollectionViewCell: return .UICollectionView
        default: return nil
        }
    }

    /// The K14–K16 fields of this class.
    var cellFields: [String] {
        switch self {
        case .UITableView, .UICollectionView: return CellFields.containerNames
        case .UITableViewCell, .UICollectionViewCell: return CellFields.cellNames
        default: return []
        }
    }
}

/// The effective values (8.6 defaults where the node sets nothing).
extension NodeSpec {
    public var allowsSelection: Bool { uikit.cell.allowsSelection ?? true }
    public var allowsMultipleSelection: Bool { uikit.cell.allowsMultipleSelection ?? false }
    public var cellDelegate: String? { uikit.cell.delegate }
    public var isSelected: Bool { uikit.cell.selected ?? false }
    public var isHighlighted: Bool { uikit.cell.highlighted ?? false }
    public var shouldHighlight: Bool { uikit.cell.shouldHighlight ?? true }
    public var shouldSelect: Bool { uikit.cell.shouldSelect ?? true }
}

extension NodeField {
    static let cellFields: [NodeField] = [
        cellBool("allowsSelection", \.uikit.cell.allowsSelection, \.uikit.cell.allowsSelection, \.allowsSelection),
        cellBool(
            "allowsMultipleSelection", \.uikit.cell.allowsMultipleSelection, \.uikit.cell.allowsMultipleSelection,
            \.allowsMultipleSelection),
        field(
            "delegate", \.uikit.cell.delegate, \.uikit.cell.delegate, on: views,
            read: { (v, bad) throws(RPCError) in
                guard let s = v.stringValue, !s.isEmpty else {
                    throw bad("expected the id of the delegate's node, or null")
                }
                return s
            }, write: { v, w in if let v { w.string(v) } else { w.null() } },
            written: { node in
                node.uikit.cell.delegate != nil
                    || (node.uikitClass?.fields.contains("delegate") == true && node.writesClassFields)
            }),
        cellBool("selected", \.uikit.cell.selected, \.uikit.cell.selected, \.isSelected),
        cellBool("highlighted", \.uikit.cell.highlighted, \.uikit.cell.highlighted, \.isHighlighted),
        cellBool("shouldHighlight", \.uikit.cell.shouldHighlight, \.uikit.cell.shouldHighlight, \.shouldHighlight),
        cellBool("shouldSelect", \.uikit.cell.shouldSelect, \.uikit.cell.shouldSelect, \.shouldSelect)
    ]

    private static func cellBool(
        _ name: String, _ keyPath: WritableKeyPath<NodeSpec, Bool?> & Sendable,
        _ stored: @escaping @Sendable (NodeSpec) -> Bool?,
        _ effective: @escaping @Sendable (NodeSpec) -> Bool
    ) -> NodeField {
        classBool(name, keyPath, stored, effective, on: views)
    }
}
