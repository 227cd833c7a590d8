/// K9: UIModalPresentationStyle, as far as it changes dispatch.
public enum ModalPresentationStyle: String, WireEnum {
    case automatic, pageSheet, formSheet, fullScreen, overFullScreen, overCurrentContext, popover

    /// UIKit resolves `automatic` to `pageSheet` for a plain view controller.
    public var resolved: ModalPresentationStyle { self == .automatic ? .pageSheet : self }
}

/// The class-specific fields of a node (8.6): each nil until the node sets it, and then the class default
/// applies. Dispatch changes them (K3–K8) as it would change any field.
public struct UIKitFields: Sendable, Equatable {
    public var on: Bool?
    public var value: Double?
    public var minimumValue: Double?
    public var maximumValue: Double?
    public var stepValue: Double?
    public var continuous: Bool?
    /// K5: a stepper held down steps again and again (default true).
    public var autorepeat: Bool?
    /// K5: a stepper's value wraps around past its bounds (default false).
    public var wraps: Bool?
    public var selectedSegmentIndex: Int?
    public var numberOfSegments: Int?
    public var text: String?
    /// [location, length] in UTF-16 code units (NSRange).
    public var selectedRange: [Int]?
    public var editable: Bool?
    public var secureTextEntry: Bool?
    public var contentSize: [Double]?
    public var delaysContentTouches: Bool?
    public var canCancelContentTouches: Bool?
    public var scrollEnabled: Bool?
    public var modalPresentationStyle: ModalPresentationStyle?
    /// K10: `animating: {allowUserInteraction}`; nil when the view is not animating.
    public var animatingAllowsInteraction: Bool?
    /// K6: the application's general pasteboard string (nil: empty, as null).
    public var pasteboard: String?
    /// K11–K13: the text field's or text view's delegate answers (nil: no delegate, every answer true).
    public var textDelegate: TextDelegate?
    /// E5: the responder's key commands (nil: none).
    public var keyCommands: [KeyCommand]?
    /// K14–K16: a table's or collection view's selection settings and a cell's state and delegate answers.
    public var cell = CellFields()
    /// G12, K8, K19, K21: a scroll view's declarations about its pan and its scrolling.
    public var scroll = ScrollFields()
    /// K17, K18: a presented controller's sheet and popover declarations (nil: UIKit's defaults).
    public var presentation: PresentationFields?
    /// K18: a window's horizontal size class (nil: compact).
    public var horizontalSizeClass: SizeClass?

    public init() {}
}

/// The effective values (the class defaults of 8.6 where the node sets nothing).
extension NodeSpec {
    public var isOn: Bool { uikit.on ?? false }
    public var minimumValue: Double { uikit.minimumValue ?? 0 }
    public var maximumValue: Double { uikit.maximumValue ?? (behaves(as: .UIStepper) ? 100 : 1) }
    public var value: Double { min(max(uikit.value ?? 0, minimumValue), maximumValue) }
    public var stepValue: Double { uikit.stepValue ?? 1 }
    public var isContinuous: Bool { uikit.continuous ?? true }
    public var autorepeats: Bool { uikit.autorepeat ?? true }
    public var wraps: Bool { uikit.wraps ?? false }
    public var selectedSegmentIndex: Int { uikit.selectedSegmentIndex ?? -1 }
    public var numberOfSegments: Int { uikit.numberOfSegments ?? 0 }
    public var text: String { uikit.text ?? "" }
    /// UIKit puts the caret at the end of the text.
    public var selectedRange: [Int] { uikit.selectedRange ?? [text.utf16.count, 0] }
    public var isEditable: Bool { uikit.editable ?? true }
    public var isSecureTextEntry: Bool { uikit.secureTextEntry ?? false }
    public var contentSize: [Double] { uikit.contentSize ?? [0, 0] }
    public var delaysContentTouches: Bool { uikit.delaysContentTouches ?? true }
    public var canCancelContentTouches: Bool { uikit.canCancelContentTouches ?? true }
    public var scrollEnabled: Bool { uikit.scrollEnabled ?? true }
    public var presentationStyle: ModalPresentationStyle { (uikit.modalPresentationStyle ?? .automatic).resolved }

    /// Cross-field and class checks once every member of the node is read (8.4): the field at fault and why.
    public func classFieldError() -> (field: String, message: String)? {
        // A known `class` wins over `baseClass` (8.6), so uikitClass is the `class` when that is a UIKit class.
        if let known = uikitClass, known.kind != kind, known.rawValue == className {
            return ("class", "\(className) is a \(known.kind.rawValue) class; this node is a \(kind.rawValue)")
        }
        // A node with no out-of-line field (nearly every node of a large load) has no base class and sets no class
        // field, and the class defaults agree with each other. For such a node each read of `uikit` below would
        // make the empty set and free it again: most of this check's cost, asked for every node a load reads.
        if outOfLineFieldsUnset { return nil }
        if let base = baseClass, UIKitClass(rawValue: base)?.kind != kind {
            let allowed = UIKitClass.allowed(for: kind).map(\.rawValue).joined(separator: ", ")
            return ("baseClass", "\(base) is not a UIKit class a \(kind.rawValue) can derive from (\(allowed))")
        }
        // Asked once, not for each name: a node that sets no class field (nearly every node of a large load)
        // has nothing to check here.
        if uikit.setsClassField {
            let uses = uikitClass?.fields ?? []
            for name in UIKitFields.names where !uses.contains(name) && isSet(name) {
                let owners = UIKitClass.allCases.filter { $0.fields.contains(name) }.map(\.rawValue).joined(
                    separator: ", ")
                return (name, "applies to \(owners); this node behaves as \(uikitClass?.rawValue ?? className)")
            }
        }
        if maximumValue < minimumValue {
            return ("maximumValue", "must not be less than minimumValue (\(minimumValue))")
        }
        if let v = uikit.value, v < minimumValue || v > maximumValue {
            return ("value", "must be within minimumValue…maximumValue (\(minimumValue)…\(maximumValue))")
        }
        if let i = uikit.selectedSegmentIndex, i >= numberOfSegments {
            return ("selectedSegmentIndex", "must be -1 (none) or less than numberOfSegments (\(numberOfSegments))")
        }
        if let r = uikit.selectedRange, r[0] + r[1] > text.utf16.count {
            return ("selectedRange", "must lie within the text (\(text.utf16.count) UTF-16 units)")
        }
        return nil
    }

    /// Whether output shows the class fields with their effective values (8.6): the node names a UIKit class
    /// other than its kind's default, or sets one of them (a text field once it has text).
    public var writesClassFields: Bool { namesUIKitClass || uikit.setsClassField }

    private func isSet(_ name: String) -> Bool {
        switch name {
        case "on": return uikit.on != nil
        case "value": return uikit.value != nil
        case "minimumValue": return uikit.minimumValue != nil
        case "maximumValue": return uikit.maximumValue != nil
        case "stepValue": return uikit.stepValue != nil
        case "continuous": return uikit.continuous != nil
        case "autorepeat": return uikit.autorepeat != nil
        case "wraps": return uikit.wraps != nil
        case "selectedSegmentIndex": return uikit.selectedSegmentIndex != nil
        case "numberOfSegments": return uikit.numberOfSegments != nil
        case "text": return uikit.text != nil
        case "selectedRange": return uikit.selectedRange != nil
        case "editable": return uikit.editable != nil
        case "secureTextEntry": return uikit.secureTextEntry != nil
        case "contentSize": return uikit.contentSize != nil
        case "delaysContentTouches": return uikit.delaysContentTouches != nil
        case "canCancelContentTouches": return uikit.canCancelContentTouches != nil
        case "scrollEnabled": return uikit.scrollEnabled != nil
        default: return uikit.cell.isSet(name) || uikit.scroll.isSet(name)
        }
    }
}

extension UIKitFields {
    /// Whether any field of `names` is set: asked for every node written, so without naming them.
    var setsClassField: Bool {
        on != nil || value != nil || minimumValue != nil || maximumValue != nil || stepValue != nil || continuous != nil
            || autorepeat != nil || wraps != nil
            || selectedSegmentIndex != nil || numberOfSegments != nil || text != nil || selectedRange != nil
            || editable != nil
            || secureTextEntry != nil || contentSize != nil || delaysContentTouches != nil
            || canCancelContentTouches != nil
            || scrollEnabled != nil || cell.setsField || scroll.setsField
    }

    /// The fields that belong to particular classes (UIKitClass.fields).
    static let names =
        [
            "on", "value", "minimumValue", "maximumValue", "stepValue", "continuous", "autorepeat", "wraps",
            "selectedSegmentIndex",
            "numberOfSegments", "text", "selectedRange", "editable", "secureTextEntry", "contentSize",
            "delaysContentTouches", "canCancelContentTouches", "scrollEnabled"
        ] + CellFields.names + ScrollFields.names
}
