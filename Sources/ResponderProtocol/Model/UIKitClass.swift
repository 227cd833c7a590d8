/// K: the UIKit classes the engine knows (Protocol/README 8.6). A node behaves as one when its `class` names it,
/// or when its `class` is a custom one and `baseClass` names it.
public enum UIKitClass: String, Sendable, CaseIterable {
    case UIApplication, UIWindow, UIViewController
    case UIView, UIImageView, UILabel, UIScrollView, UITableView, UICollectionView
    case UITableViewCell, UICollectionViewCell
    case UIControl, UIButton, UISwitch, UISlider, UISegmentedControl, UIStepper
    case UITextField, UITextView

    /// The kind a node of this class must have.
    public var kind: NodeKind {
        switch self {
        case .UIApplication: return .application
        case .UIWindow: return .window
        case .UIViewController: return .viewController
        case .UIView, .UIImageView, .UILabel, .UIScrollView, .UITableView, .UICollectionView: return .view
        case .UITableViewCell, .UICollectionViewCell: return .view
        case .UIControl, .UIButton, .UISwitch, .UISlider, .UISegmentedControl, .UIStepper: return .control
        case .UITextField: return .textField
        case .UITextView: return .textView
        }
    }

    /// K1: image views and labels ignore touches unless the node says otherwise.
    public var defaultUserInteractionEnabled: Bool { self != .UIImageView && self != .UILabel }

    /// K8: UIScrollView and its subclasses have the built-in pan recognizer.
    public var isScrollView: Bool {
        switch self {
        case .UIScrollView, .UITableView, .UICollectionView, .UITextView: return true
        default: return false
        }
    }

    /// K6: the classes that implement the editing-menu commands.
    public var isTextInput: Bool { self == .UITextField || self == .UITextView }

    /// The class-specific fields (8.2) a node of this class may set.
    public var fields: Set<String> { Self.fieldTable[self] ?? [] }

    private static let fieldTable: [UIKitClass: Set<String>] = Dictionary(
        uniqueKeysWithValues: allCases.map { cls in
            var out: Set<String> = []
            switch cls {
            case .UISwitch: out = ["on"]
            case .UISlider: out = ["value", "minimumValue", "maximumValue", "continuous"]
            case .UIStepper:
                out = ["value", "minimumValue", "maximumValue", "stepValue", "continuous", "autorepeat", "wraps"]
            case .UISegmentedControl: out = ["selectedSegmentIndex", "numberOfSegments"]
            case .UITextField: out = ["text", "selectedRange", "editable", "secureTextEntry"]
            case .UITextView: out = ["text", "selectedRange", "editable"]
            default: break
            }
            if cls.isScrollView {
                out.formUnion(["contentSize", "delaysContentTouches", "canCancelContentTouches", "scrollEnabled"])
                out.formUnion(ScrollFields.names)
            }
            out.formUnion(cls.cellFields)
            return (cls, out)
        })

    /// The classes a node of `kind` may name in `baseClass` or as a known `class`.
    public static func allowed(for kind: NodeKind) -> [UIKitClass] { allCases.filter { $0.kind == kind } }
}

extension NodeSpec {
    /// K1: the UIKit class this node behaves as — its `class` when that is a UIKit class, else its
    /// `baseClass`; nil for a custom class without one (it behaves as its kind).
    static func resolveClass(_ className: String, _ baseClass: String?) -> UIKitClass? {
        UIKitClass(rawValue: className) ?? baseClass.flatMap(UIKitClass.init(rawValue:))
    }

    /// Whether the node names a UIKit class other than its kind's own default (so its class fields are
    /// written with their effective values; a world without classes reads back exactly as before).
    public var namesUIKitClass: Bool { uikitClass != nil && (className != kind.defaultClassName || baseClass != nil) }

    /// K1: `userInteractionEnabled` as set, else the class default. Inlinable: a caller in another module reading
    /// it through a pointer to the node copied the whole spec to call it.
    public var userInteractionEnabled: Bool {
        @inlinable get { interactionSetting ?? uikitClass?.defaultUserInteractionEnabled ?? true }
        set { interactionSetting = newValue }
    }

    /// Whether dispatch treats the node as `cls` (K2–K8).
    public func behaves(as cls: UIKitClass) -> Bool { uikitClass == cls }
}
