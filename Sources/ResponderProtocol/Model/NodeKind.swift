/// What a node of the responder world is.
public enum NodeKind: String, WireEnum {
    case application, appDelegate, window, viewController, view, control, textField, textView

    /// Views in the UIView sense: they have frames and take part in hit-testing (windows are views too).
    public var isView: Bool {
        switch self {
        case .window, .view, .control, .textField, .textView: return true
        default: return false
        }
    }

    /// Views that can sit inside another view (everything view-like but a window).
    public var isSubviewKind: Bool { isView && self != .window }

    /// UIControl and its subclasses (UITextField is a UIControl; UITextView is not).
    public var isControl: Bool { self == .control || self == .textField }

    public var defaultClassName: String {
        switch self {
        case .application: return "UIApplication"
        case .appDelegate: return "AppDelegate"
        case .window: return "UIWindow"
        case .viewController: return "UIViewController"
        case .view: return "UIView"
        case .control: return "UIControl"
        case .textField: return "UITextField"
        case .textView: return "UITextView"
        }
    }

    /// The UIKit class `defaultClassName` names (none for the app delegate), known without comparing names:
    /// every node made asks.
    public var defaultUIKitClass: UIKitClass? {
        switch self {
        case .application: return .UIApplication
        case .appDelegate: return nil
        case .window: return .UIWindow
        case .viewController: return .UIViewController
        case .view: return .UIView
        case .control: return .UIControl
        case .textField: return .UITextField
        case .textView: return .UITextView
        }
    }

    /// F1: text fields and text views can become first responder by default; nothing else can.
    public var defaultCanBecomeFirstResponder: Bool { self == .textField || self == .textView }
}
